import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';

/**
 * The console's run page (intake, timeline, step outputs, links, Cancel and Rerun), its filtered run list
 * and queue items that say what they are, in a real Chromium against a real stack, as console.test.ts
 * does. Local models answer after a delay so that a run is still running when the page cancels it.
 * The run page's screenshot goes to .test-data/console/, or to docs/ with UPDATE_CONSOLE_SCREENSHOTS=1.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS =
  process.env.UPDATE_CONSOLE_SCREENSHOTS === '1' ? path.join(PROJECT_ROOT, 'docs') : path.join(PROJECT_ROOT, '.test-data', 'console');
const PASSWORD = 'correct horse battery';
const TAG = 'run-page-test';
const TEMPORAL_UI = 'http://127.0.0.1:8233/';

let h: Harness;
let reviewer: TestUser;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let articleRun: any;
let shots: any[];
const requests: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}, so the console cannot be tested in a browser. Install it with ` +
        '"sudo apt-get install -y chromium" (Debian), or set CHROMIUM_PATH to a Chromium or Chrome binary.',
    );
  }
  await mkdir(SHOTS, { recursive: true });
  [h, browser] = await Promise.all([
    // A Web UI address the page links to (never fetched: the test only reads the link).
    startHarness({ localLatencyMs: 1000, temporalUiUrl: TEMPORAL_UI }),
    chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] }),
  ]);
  reviewer = await registerUser(h, 'Reviewer');
  // An article (a sub-workflow researches it first), tagged; two product shots that wait in review.
  [articleRun, shots] = await Promise.all([
    finished('compose-article', { topic: 'night herons' }, { tags: [TAG], metadata: { desk: 'nature' } }),
    Promise.all([
      finished('generate-product-shot', { product: 'a ceramic teapot' }),
      finished('generate-product-shot', { product: 'a copper kettle' }),
    ]),
  ]);
  expect(articleRun.status, JSON.stringify(articleRun)).toBe('completed');
  for (const run of shots) expect(run.status, JSON.stringify(run)).toBe('review');

  context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  context.on('request', (r) => requests.push(r.url()));
  page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
  await page.goto(`${h.url}/console`);
  await page.getByLabel('Email').fill(reviewer.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${h.url}/console/queue`);
}, 120_000);

async function create(templateId: string, intake: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const created = await h.request('POST', '/v1/runs', { token: reviewer.token, body: { templateId, intake, ...extra } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

async function finished(templateId: string, intake: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return waitForRun(h, reviewer.token, (await create(templateId, intake, extra)).id, undefined, 90_000);
}

afterAll(async () => {
  await browser?.close();
  await h?.stop();
});

describe('the console run page', () => {
  it("shows a completed run's intake, its steps with durations and costs, the total, and its article as text", async () => {
    await page.goto(`${h.url}/console/runs/${articleRun.id}`);
    await page.locator('#run-live[data-state="ended"]').waitFor();
    const intake = page.locator('#run-view section.intake');
    expect(await intake.locator('th').allTextContents()).toContain('topic');
    expect(await intake.locator('td').allTextContents()).toContain('night herons');

    const rows = page.locator('#run-view table.timeline tbody tr');
    expect(await rows.count()).toBe(articleRun.runSteps.length);
    const cells = await rows.evaluateAll((trs) => trs.map((tr: any) => [...tr.cells].map((td: any) => td.textContent.trim())));
    for (const [i, row] of cells.entries()) {
      expect(row[3], `step ${i + 1}`).toBe('completed');
      expect(row[5], `step ${i + 1} started`).not.toBe('—');
      expect(row[6], `step ${i + 1} duration`).toMatch(/\d+(\.\d)? (ms|s)|min/);
      expect(row[7], `step ${i + 1} cost`).toMatch(/^\$\d/);
    }
    expect(await page.locator('#run-view table.timeline tfoot .total-cost').textContent()).toMatch(/^\$0\.\d{4}$/);

    // The sub-workflow step links to the run it started, which names this one as its parent.
    const childLink = page.locator('#run-view .child-run a');
    const childId = (await childLink.textContent()) ?? '';
    expect((await h.request('GET', `/v1/runs/${childId}`, { token: reviewer.token })).body.parentRunId).toBe(articleRun.id);

    // The run's execution in the Temporal Web UI: its workflow id is the run id, in the gateway's namespace.
    const execution = page.locator('#run-view .facts a.temporal-link');
    expect(await execution.getAttribute('href')).toBe(`http://127.0.0.1:8233/namespaces/default/workflows/${articleRun.id}`);
    expect(await execution.getAttribute('target')).toBe('_blank');

    // Inputs and outputs are collapsed until asked for; a long one is cut, with "show all".
    const outputs = page.locator('#run-view details.step-output');
    expect(await outputs.count()).toBeGreaterThan(0);
    expect(await outputs.first().getAttribute('open')).toBeNull();
    // The article step's input is its prompt as the model got it, the research filled in, beside its output.
    const write = page.locator('#run-view details.step-output[data-step="2"]');
    await write.locator('summary').click();
    const read = articleRun.runSteps[2];
    expect(await write.locator('.step-input pre').first().textContent()).toMatch(/^Write an article on "/);
    expect(read.input.prompt).toContain(articleRun.runSteps[1].output.title);
    expect(await write.locator('.step-output-value pre').count()).toBe(1);
    // A subWorkflow step has no input of its own: its child run has the intake.
    const child = page.locator('#run-view details.step-output[data-step="1"]');
    await child.locator('summary').click();
    expect(await child.locator('.step-input').textContent()).toContain('None recorded.');

    // The article is read as an article: title, standfirst, paragraphs — no JSON dump.
    const article = page.locator('#run-view section.artifact article.article');
    await article.locator('h3').waitFor();
    expect(await article.locator('p.standfirst').count()).toBe(1);
    expect(await article.locator('p').count()).toBeGreaterThan(2);
    expect(await page.locator('#run-view section.artifact pre.json').count()).toBe(0);
    await page.screenshot({ path: path.join(SHOTS, 'console-run-page.png'), fullPage: true });

    await outputs.last().locator('summary').click();
    const showAll = outputs.last().locator('.step-output-value button.show-all');
    if (await showAll.count()) {
      await showAll.click();
      expect(await showAll.count()).toBe(0);
    }
  });

  it('cancels a running run from an in-page confirmation, and it ends cancelled', async () => {
    const slow = await create('plan-research-report', { topic: 'slow things' });
    await waitForRun(h, reviewer.token, slow.id, (r) => r.status === 'running');
    await page.goto(`${h.url}/console/runs/${slow.id}`);
    await page.locator('#run-live[data-state="live"]').waitFor();
    await page.locator('#run-actions').getByRole('button', { name: 'Cancel', exact: true }).click();
    // Asked first, in the page; nothing is sent until Yes.
    expect(requests.filter((u) => u.endsWith(`/v1/runs/${slow.id}/cancel`))).toEqual([]);
    await page.getByRole('button', { name: 'Yes, cancel the run' }).click();
    await page.locator('#run-live[data-state="ended"]').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator('#run-view .facts .badge').first().textContent()).toBe('cancelled');
    expect((await h.request('GET', `/v1/runs/${slow.id}`, { token: reviewer.token })).body.status).toBe('cancelled');
    // A cancelled run offers no Cancel any more, still a Rerun.
    expect(await page.locator('#run-actions').getByRole('button', { name: 'Cancel', exact: true }).count()).toBe(0);
  });

  it('reruns after showing the dry-run estimate, and lands on the new run, which links back', async () => {
    await page.goto(`${h.url}/console/runs/${articleRun.id}`);
    await page.locator('#run-live[data-state="ended"]').waitFor();
    const before = (await h.request('GET', `/v1/runs?rerunOf=${articleRun.id}`, { token: reviewer.token })).body.total;
    await page.locator('#run-actions').getByRole('button', { name: 'Rerun…' }).click();
    const estimate = page.locator('#run-actions .estimate');
    await estimate.waitFor();
    expect(await estimate.textContent()).toMatch(/compose-article .*estimated at \$\d/);
    // The dry run created nothing.
    expect((await h.request('GET', `/v1/runs?rerunOf=${articleRun.id}`, { token: reviewer.token })).body.total).toBe(before);

    await page.getByRole('button', { name: 'Start the rerun' }).click();
    await page.waitForURL((url) => /\/console\/runs\/run-[0-9a-f]{8}$/.test(url.pathname) && !url.pathname.endsWith(articleRun.id));
    const rerunId = page.url().split('/').pop() ?? '';
    await page.locator('#run-view .rerun-of a').waitFor();
    expect(await page.locator('#run-view .rerun-of a').getAttribute('href')).toBe(`/console/runs/${articleRun.id}`);
    expect((await h.request('GET', `/v1/runs/${rerunId}`, { token: reviewer.token })).body.rerunOf).toBe(articleRun.id);
  });

  it('lists only the tagged runs when the tag filter comes in the URL, and filters by workflow and search', async () => {
    await page.goto(`${h.url}/console/runs?tag=${TAG}`);
    await page.locator('#runs-table table').waitFor();
    expect(await page.locator('#runs-tag').inputValue()).toBe(TAG);
    // The rerun above is still starting its own child (tags carried), so the list may grow: it reads again while runs move.
    const listed = async () => {
      const tagged = (await h.request('GET', `/v1/runs?tag=${TAG}`, { token: reviewer.token })).body.items.map((r: any) => r.id).sort();
      const shown = (await page.locator('#runs-table tbody tr td:first-child a').allTextContents()).sort();
      return JSON.stringify(shown) === JSON.stringify(tagged) ? shown : { shown, tagged };
    };
    let ids: string[] = [];
    await expect
      .poll(
        async () => {
          const answer = await listed();
          if (Array.isArray(answer)) ids = answer;
          return answer;
        },
        { timeout: 15_000 },
      )
      .toBeInstanceOf(Array);
    expect(ids).toContain(articleRun.id);
    for (const shot of shots) expect(ids).not.toContain(shot.id);
    expect(await page.locator('#runs-table caption').textContent()).toContain(`tagged ${TAG}`);

    // A workflow chosen in the form goes into the URL, so the filtered list can be linked.
    await page.locator('#runs-workflow').selectOption('compose-article');
    await page.waitForURL((url) => url.searchParams.get('workflow') === 'compose-article');
    await expect.poll(() => page.locator('#runs-table caption').textContent()).toContain('of compose-article');
    // The filter is the API's (GET /v1/runs?templateId=), not the page's.
    const ofWorkflow = (await h.request('GET', '/v1/runs?templateId=compose-article', { token: reviewer.token })).body;
    expect(ofWorkflow.total).toBeGreaterThan(0);
    expect(new Set(ofWorkflow.items.map((r: any) => r.templateId))).toEqual(new Set(['compose-article']));
    const articles = await page.locator('#runs-table tbody tr td:nth-child(2)').allTextContents();
    expect(new Set(articles)).toEqual(new Set([articleRun.templateName]));

    await page.locator('#runs-search').fill(articleRun.id);
    await page.locator('#runs-filters').getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL((url) => url.searchParams.get('q') === articleRun.id);
    await expect.poll(() => page.locator('#runs-table tbody tr').count()).toBe(1);
  });

  it('narrows the run list to a date range and searches through the API, both kept in the URL', async () => {
    // The article run alone on a day of its own; noon UTC is that day in the browser's zone, whichever it is.
    await h.db.updateTable('runs').set({ created_at: '2020-06-15T12:00:00Z' }).where('id', '=', articleRun.id).execute();
    const shown = () => page.locator('#runs-table tbody tr td:first-child a').allTextContents();
    const runsRequests = () => requests.filter((u) => new URL(u).pathname === '/v1/runs').map((u) => new URL(u).searchParams);

    await page.goto(`${h.url}/console/runs`);
    await page.locator('#runs-table table').waitFor();
    await page.locator('#runs-from').fill('2020-06-15');
    await page.waitForURL((url) => url.searchParams.get('from') === '2020-06-15');
    await page.locator('#runs-to').fill('2020-06-15');
    await page.waitForURL((url) => url.searchParams.get('to') === '2020-06-15');
    await expect.poll(shown).toEqual([articleRun.id]);
    expect(await page.locator('#runs-table caption').textContent()).toContain('created 2020-06-15 to 2020-06-15');
    // The days went to the API as a window of instants, the last day included.
    const windowed = runsRequests().at(-1)!;
    const [after, before] = [Date.parse(windowed.get('createdAfter')!), Date.parse(windowed.get('createdBefore')!)];
    expect(before - after).toBe(24 * 3600_000);
    expect(after).toBeLessThanOrEqual(Date.parse('2020-06-15T12:00:00Z'));
    expect(before).toBeGreaterThan(Date.parse('2020-06-15T12:00:00Z'));

    // The search is the API's q: part of the tag finds the run, within the date range still set.
    await page.locator('#runs-search').fill(TAG.slice(4).toUpperCase());
    await page.locator('#runs-filters').getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL((url) => url.searchParams.get('q') === TAG.slice(4).toUpperCase() && url.searchParams.has('from'));
    await expect.poll(() => page.locator('#runs-table caption').textContent()).toContain(`matching “${TAG.slice(4).toUpperCase()}”`);
    expect(await shown()).toEqual([articleRun.id]);
    expect(runsRequests().at(-1)!.get('q')).toBe(TAG.slice(4).toUpperCase());

    // Back undoes the search and keeps the dates, in the form as in the list.
    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has('q') && url.searchParams.get('to') === '2020-06-15');
    expect(await page.locator('#runs-search').inputValue()).toBe('');
    expect(await page.locator('#runs-from').inputValue()).toBe('2020-06-15');

    // A linked search with no other filter lists what the API finds, not what one page held.
    await page.goto(`${h.url}/console/runs?q=product-shot`);
    await page.locator('#runs-table table').waitFor();
    const found = (await h.request('GET', '/v1/runs?q=product-shot', { token: reviewer.token })).body;
    expect(found.items.map((r: any) => r.id).sort()).toEqual(shots.map((r: any) => r.id).sort());
    await expect.poll(async () => (await shown()).sort()).toEqual(shots.map((r: any) => r.id).sort());
    expect(await page.locator('#runs-search').inputValue()).toBe('product-shot');
  });

  it('tells two queued runs of the same workflow apart by their intake, and names the gate holding them', async () => {
    await page.goto(`${h.url}/console/queue`);
    for (const shot of shots) await page.locator(`#queue-list [data-run-id="${shot.id}"]`).waitFor();
    const summaries = await Promise.all(
      shots.map((s) => page.locator(`#queue-list [data-run-id="${s.id}"] .intake-summary`).textContent()),
    );
    expect(summaries[0]).toContain('a ceramic teapot');
    expect(summaries[1]).toContain('a copper kettle');
    expect(summaries[0]).not.toBe(summaries[1]);
    expect(await page.locator(`#queue-list [data-run-id="${shots[0].id}"] .gate`).textContent()).toBe('Client approval');
  });

  it('made no request outside the gateway and had no script errors', () => {
    const origin = new URL(h.url).origin;
    expect(requests.length).toBeGreaterThan(10);
    expect(requests.filter((u) => new URL(u).origin !== origin)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
