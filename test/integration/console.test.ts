import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import { type Harness, type TestUser, createApiKey, registerUser, startHarness, waitForOrder, waitForRun } from '../support/harness';

/**
 * The review console (/console) in a real Chromium against a real stack: nothing is mocked, the page
 * talks to the gateway's /v1 API like any client. Screenshots go to .test-data/console/, or to docs/
 * (the ones docs/console.md shows) with UPDATE_CONSOLE_SCREENSHOTS=1. Functions run in the page reach
 * its globals through `globalThis` (the project's TypeScript has no DOM types).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS =
  process.env.UPDATE_CONSOLE_SCREENSHOTS === '1' ? path.join(PROJECT_ROOT, 'docs') : path.join(PROJECT_ROOT, '.test-data', 'console');
const PASSWORD = 'correct horse battery';

let h: Harness;
let reviewer: TestUser;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let shot: any;
let extras: any[];
let clip: any;
let orderId: string;
const requests: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}, so the console cannot be tested in a browser. Install it with ` +
        '"sudo apt-get install -y chromium" (Debian; npm test does this itself when it runs as root or with sudo), ' +
        'or set CHROMIUM_PATH to a Chromium or Chrome binary.',
    );
  }
  await mkdir(SHOTS, { recursive: true });
  [h, browser] = await Promise.all([
    startHarness(),
    chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] }),
  ]);
  reviewer = await registerUser(h, 'Reviewer');
  const [order, first] = await Promise.all([
    // Planned but not started: its children wait, so their pages can be watched going live.
    h.request('POST', '/v1/orders', {
      token: reviewer.token,
      body: {
        workflowId: 'plan-research-report',
        intakeBase: { depth: 'brief' },
        variationSpec: { resolver: 'list', params: { items: [{ topic: 'owls' }, { topic: 'larks' }] } },
        tags: ['birds'],
        metadata: { source: 'console-test' },
      },
    }),
    finished('generate-product-shot', { product: 'a ceramic teapot' }),
  ]);
  expect(order.status, JSON.stringify(order.body)).toBe(201);
  orderId = order.body.id;
  shot = first;
  // Reaching review after the first, they queue behind it; the clip completes without review.
  [extras, clip] = await Promise.all([
    Promise.all([
      finished('generate-product-shot', { product: 'a linen apron' }),
      finished('generate-product-shot', { product: 'a copper kettle' }),
    ]),
    finished('generate-video-clip', { prompt: 'rain on a window', durationSeconds: 1 }),
  ]);
  for (const run of [shot, ...extras]) expect(run.status, JSON.stringify(run)).toBe('review');
  expect(clip.status, JSON.stringify(clip)).toBe('completed');

  context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  context.on('request', (r) => requests.push(r.url()));
  page = watch(await context.newPage());
});

async function finished(templateId: string, intake: Record<string, unknown>) {
  const created = await h.request('POST', '/v1/runs', { token: reviewer.token, body: { templateId, intake } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return waitForRun(h, reviewer.token, created.body.id);
}

/** Script errors and console errors (a refused Content-Security-Policy, a failed load) of a tab. */
function watch(tab: Page): Page {
  tab.on('pageerror', (err) => pageErrors.push(err.message));
  tab.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
  return tab;
}

afterAll(async () => {
  await browser?.close();
  await h?.stop();
});

/** Waits for the image to be decoded; its natural width (0 for a broken image, which never resolves). */
const imageLoaded = async (selector: string) =>
  (
    await page.waitForFunction((s) => {
      const img = (globalThis as any).document.querySelector(s);
      return img?.complete && img.naturalWidth > 0 ? img.naturalWidth : false;
    }, selector)
  ).jsonValue();

describe('the review console', () => {
  it('signs in with email and password and, with one workspace, goes straight into it', async () => {
    await page.goto(`${h.url}/console`);
    await page.screenshot({ path: path.join(SHOTS, 'console-signin.png') });
    await page.getByLabel('Email').fill(reviewer.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();

    // One workspace: no picker, straight to the queue.
    await page.waitForURL(`${h.url}/console/queue`);
    expect(await page.evaluate(() => (globalThis as any).sessionStorage.getItem('atelier.workspace'))).toBe(reviewer.workspaceId);
  });

  it('shows the product shot waiting in the queue with its image loaded, QA checks, cost and held field', async () => {
    await page.locator(`#queue-list [data-run-id="${shot.id}"]`).waitFor();
    // Longest waiting first (the two extras reached review together, in either order), and the first is selected.
    const order = await page.locator('#queue-list li').evaluateAll((items) => items.map((i: any) => i.dataset.runId));
    expect(order[0]).toBe(shot.id);
    expect(order.slice(1).sort()).toEqual(extras.map((r) => r.id).sort());
    expect(await page.locator('#queue-list li.current').getAttribute('data-run-id')).toBe(shot.id);
    expect(await imageLoaded('#queue-detail img')).toBeGreaterThan(0);
    const detail = page.locator('#queue-detail');
    await expect.poll(() => detail.locator('.qa .check').count()).toBeGreaterThan(0);
    expect(await detail.locator('.cost').textContent()).toContain('Actual');
    // Exactly the fields the hold declares: one enum, with its options.
    expect(await detail.locator('fieldset.hold select').count()).toBe(1);
    expect(await page.locator('#hold-usage option').allTextContents()).toEqual(['choose…', 'web', 'print', 'social', 'internal']);
    expect(await page.locator('#queue-count').textContent()).toBe('3');
    await page.screenshot({ path: path.join(SHOTS, 'console-queue.png') });
  });

  it('refuses to approve without the held field, then approves with it and the run leaves the queue', async () => {
    // The `a` shortcut presses Approve; the empty held field stops it in the browser, before any request.
    await page.locator('#queue-list button.pick').first().focus();
    await page.keyboard.press('a');
    expect(await page.locator('#hold-usage').evaluate((el: any) => el.validity.valueMissing)).toBe(true);
    expect(requests.filter((u) => u.includes('/v1/queue/'))).toEqual([]);
    expect((await h.request('GET', `/v1/runs/${shot.id}`, { token: reviewer.token })).body.status).toBe('review');

    await page.locator('#hold-usage').selectOption('web');
    await page.getByRole('textbox', { name: /kept in the decision ledger/ }).fill('Good light on the glaze');
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.locator(`#queue-list [data-run-id="${shot.id}"]`).waitFor({ state: 'detached' });
    expect(await page.locator('#status').textContent()).toContain(`Approved`);
    expect(await page.locator('#queue-count').textContent()).toBe('2');

    const run = (await h.request('GET', `/v1/runs/${shot.id}`, { token: reviewer.token })).body;
    expect(run.status).toBe('completed');
    expect(run.decisions).toMatchObject([
      { decision: 'approve', note: 'Good light on the glaze', patch: { usage: 'web' }, who: reviewer.userId },
    ]);
  });

  it('rejects several runs at once with the bulk form, selected from the keyboard', async () => {
    // The next item is selected after a decision; x selects it, j moves on.
    await page.locator('#queue-list li.current button.pick').focus();
    await page.keyboard.press('x');
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    expect(await page.locator('#bulk-count').textContent()).toBe('2 selected');
    await page.locator('#bulk-form input[name="note"]').fill('Off brief');
    await page.locator('#bulk-form').getByRole('button', { name: 'Reject' }).click();
    await page.locator('#queue-list li.empty').waitFor();
    expect(await page.locator('#status').textContent()).toContain('Rejected 2 of 2');
    expect(await page.locator('#bulk-form').isHidden()).toBe(true);
    for (const extra of extras) {
      const run = (await h.request('GET', `/v1/runs/${extra.id}`, { token: reviewer.token })).body;
      expect(run.status).toBe('rejected');
      expect(run.decisions).toMatchObject([{ decision: 'reject', note: 'Off brief', who: reviewer.userId }]);
    }
  });

  it('plays a video artifact in the browser', async () => {
    await page.goto(`${h.url}/console/runs/${clip.id}`);
    const duration = await (
      await page.waitForFunction(() => {
        const video = (globalThis as any).document.querySelector('#run-view video');
        return video && video.readyState >= 1 && video.duration > 0 ? video.duration : false;
      })
    ).jsonValue();
    expect(duration).toBeGreaterThan(0.5);
  });

  it('lists runs and follows a run live through its event stream, steps and costs included', async () => {
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.waitForURL(`${h.url}/console/runs`);
    await page.locator(`#runs-table a[href="/console/runs/${shot.id}"]`).waitFor();
    const children = (await h.request('GET', `/v1/runs?parentOrderId=${orderId}`, { token: reviewer.token })).body.items;
    expect(children).toHaveLength(2);
    const child = children[0];
    expect(child.status).toBe('planned');

    // The children carry their order's tags; following one lists only the runs tagged so.
    await page.locator('#runs-table a.tag', { hasText: 'birds' }).first().click();
    await page.waitForURL(`${h.url}/console/runs?tag=birds`);
    await expect.poll(() => page.locator('#runs-table caption').textContent()).toContain('2 runs tagged birds');

    await page.locator(`#runs-table a[href="/console/runs/${child.id}"]`).click();
    await page.waitForURL(`${h.url}/console/runs/${child.id}`);
    await page.locator('#run-live[data-state="live"]').waitFor();
    expect(await page.locator('#run-view .facts .tag').allTextContents()).toEqual(['birds']);
    expect(await page.locator('#run-view .facts .metadata').textContent()).toBe('source: console-test');
    expect(await page.locator('#run-view .facts .badge').first().textContent()).toBe('planned');

    // Started elsewhere (here through the API): the page learns of each transition from the stream.
    expect((await h.request('POST', `/v1/orders/${orderId}/start`, { token: reviewer.token })).status).toBe(200);
    await page.locator('#run-live[data-state="ended"]').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator('#run-view .facts .badge').first().textContent()).toBe('completed');
    const events = await page.locator('.events li').allTextContents();
    expect(events.some((e) => e.includes('step.started'))).toBe(true);
    expect(events.some((e) => e.includes('run.status') && e.includes('running'))).toBe(true);
    await expect.poll(() => page.locator('#run-view table tbody tr').count()).toBeGreaterThan(0);
    expect(await page.locator('#run-view table.timeline tbody').textContent()).not.toContain('pending');
    // The research report it produced, rendered.
    await page.locator('article.report h4').first().waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'console-run.png') });
  });

  it('shows an order with its progress and children', async () => {
    await waitForOrder(h, reviewer.token, orderId);
    await page.getByRole('link', { name: 'Orders' }).click();
    await page.locator(`#orders-table a[href="/console/orders/${orderId}"]`).click();
    await page.waitForURL(`${h.url}/console/orders/${orderId}`);
    await page.locator('#order-live[data-state="ended"]').waitFor();
    expect(await page.locator('#order-view').textContent()).toContain('2 of 2 succeeded');
    expect(await page.locator('#order-view progress').evaluate((p: any) => [p.value, p.max])).toEqual([2, 2]);
    expect(await page.locator('#order-view tbody tr').count()).toBe(2);
    await page.screenshot({ path: path.join(SHOTS, 'console-order.png') });
  });

  it('signs in with an API key too, and returns to the page that sent there', async () => {
    const key = await createApiKey(h, reviewer);
    const tab = watch(await context.newPage()); // a tab of its own: its own sessionStorage, so signed out
    await tab.goto(`${h.url}/console/runs`);
    await tab.waitForURL(`${h.url}/console?next=%2Fconsole%2Fruns`);
    await tab.getByLabel('API key').fill(key);
    await tab.getByRole('button', { name: 'Use this key' }).click();
    await tab.waitForURL(`${h.url}/console/runs`);
    await tab.locator(`#runs-table a[href="/console/runs/${shot.id}"]`).waitFor();
    expect(await tab.locator('#who').textContent()).toBe(`API key ${key.slice(0, 8)}…`);
    await tab.close();
  });

  it('made no request outside the gateway and had no script errors', () => {
    const origin = new URL(h.url).origin;
    expect(requests.length).toBeGreaterThan(10);
    expect(requests.filter((u) => new URL(u).origin !== origin)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
