import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import { syncBuiltinWorkflows } from '@atelier/db';
import { type Harness, type TestUser, registerUser, startHarness, waitForOrder } from '../support/harness';

/**
 * The console's order page (docs/console.md) in a real Chromium against a real stack, as console.test.ts
 * does it: the page follows an order it did not load as running, acts on it through the contract's order
 * actions, and shows a gallery of what the children made. Screenshots go to .test-data/console/, or to
 * docs/ with UPDATE_CONSOLE_SCREENSHOTS=1. Functions run in the page reach its globals through `globalThis`.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS =
  process.env.UPDATE_CONSOLE_SCREENSHOTS === '1' ? path.join(PROJECT_ROOT, 'docs') : path.join(PROJECT_ROOT, '.test-data', 'console');
const PASSWORD = 'correct horse battery';

/** One step that writes, one that fails when the intake asks it to (as in orders.test.ts). */
const MAYBE = {
  id: 'build-maybe',
  name: 'Maybe',
  version: '2026.11.01',
  artifactClass: 'knowledge',
  cadence: 'on-demand',
  intakeSchema: {
    fields: [
      { name: 'topic', type: 'string', required: true },
      { name: 'fail', type: 'boolean', default: false },
    ],
  },
  runtimeSteps: [
    {
      id: 'step-1',
      name: 'Write',
      kind: 'llm',
      role: 'textGenerator',
      prompt: 'Write about "{{intake.topic}}"',
      jsonSchema: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } },
    },
    {
      id: 'step-2',
      name: 'Maybe fail',
      kind: 'code',
      expression: 'intake.fail ? $error("asked to fail") : { "title": steps.`step-1`.title }',
    },
  ],
  gates: [],
  providers: { textGenerator: 'local/text-1' },
  budgetPolicy: {},
  artifactSchema: { artifactClass: 'knowledge', artifactType: 'article', files: ['application/json'], metadata: [] },
  outputShape: [{ artifactClass: 'knowledge', artifactType: 'article' }],
};

let h: Harness;
let reviewer: TestUser;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let shotsId: string;
let maybeId: string;
const requests: string[] = [];
const pageErrors: string[] = [];

const plan = async (body: Record<string, unknown>) => {
  const res = await h.request('POST', '/v1/orders', { token: reviewer.token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
};
const children = async (orderId: string) =>
  (await h.request('GET', `/v1/runs?parentOrderId=${orderId}&limit=100&includeArchived=true`, { token: reviewer.token })).body
    .items as any[];

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
    startHarness({ orderConcurrency: 3 }),
    chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] }),
  ]);
  reviewer = await registerUser(h, 'Reviewer');
  await syncBuiltinWorkflows(h.db, [MAYBE as never]);
  // Product shots: images for the gallery; planned, so the page is opened before anything runs.
  shotsId = await plan({
    workflowId: 'generate-product-shot',
    variationSpec: { resolver: 'list', params: { items: [{ product: 'a ceramic teapot' }, { product: 'a copper kettle' }] } },
  });
  // One child fails (deterministically): the order stops at attention.
  maybeId = await plan({
    workflowId: 'build-maybe',
    variationSpec: { resolver: 'list', params: { items: [{ topic: 'fine' }, { topic: 'broken', fail: true }] } },
  });
  expect((await h.request('POST', `/v1/orders/${maybeId}/start`, { token: reviewer.token })).status).toBe(200);
  expect((await waitForOrder(h, reviewer.token, maybeId)).status).toBe('attention');

  context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  context.on('request', (r) => requests.push(r.url()));
  page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
});

afterAll(async () => {
  await browser?.close();
  await h?.stop();
});

const actions = () => page.locator('.order-actions button[data-action]').evaluateAll((bs) => bs.map((b: any) => b.dataset.action));
const counts = () => page.locator('#order-view .counts').textContent();

describe('the order page', () => {
  it('signs in', async () => {
    await page.goto(`${h.url}/console`);
    await page.getByLabel('Email').fill(reviewer.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${h.url}/console/queue`);
  });

  it('starts a planned order after a confirm step and follows it to the end without a reload', async () => {
    await page.goto(`${h.url}/console/orders/${shotsId}`);
    await expect.poll(() => page.locator('#order-live').textContent()).toContain('Planned, not started');
    expect(await counts()).toContain('0 of 2 succeeded');
    expect(await counts()).toContain('2 planned');
    // Planned: Start and Cancel only; retry and accept-gap are for an order that needs attention.
    expect(await actions()).toEqual(['start', 'cancel']);
    // A mark on the window: gone if the page were loaded again.
    await page.evaluate(() => {
      (globalThis as any).notReloaded = true;
    });

    await page.getByRole('button', { name: 'Start', exact: true }).click();
    // Asked first, in the page; Back leaves it planned.
    await page.getByRole('button', { name: 'Back' }).click();
    expect((await h.request('GET', `/v1/orders/${shotsId}`, { token: reviewer.token })).body.status).toBe('planned');
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.getByRole('button', { name: 'Yes, start' }).click();

    await page.locator('#order-live[data-state="ended"]').waitFor({ timeout: 90_000 });
    expect(await counts()).toContain('2 of 2 succeeded');
    expect(await page.locator('#order-view .facts .badge').first().textContent()).toBe('completed');
    expect(await page.locator('#order-view .spend').textContent()).not.toMatch(/^\$0\.00 spent/);
    expect(await actions()).toEqual([]);
    expect(await page.locator('#order-view tbody tr').count()).toBe(2);
    expect(await page.evaluate(() => (globalThis as any).notReloaded)).toBe(true);
  });

  it('shows one thumbnail per succeeded child, each linking to its run', async () => {
    const kids = await children(shotsId);
    const succeeded = kids.filter((k) => ['completed', 'review'].includes(k.status));
    expect(succeeded).toHaveLength(2);
    const tiles = page.locator('.gallery li a.tile');
    await expect.poll(() => tiles.count()).toBe(2);
    expect((await tiles.evaluateAll((as) => as.map((a: any) => a.getAttribute('href')))).sort()).toEqual(
      succeeded.map((k) => `/console/runs/${k.id}`).sort(),
    );
    // The images are the artifacts' files, decoded.
    await page.waitForFunction(() => {
      const imgs = [...(globalThis as any).document.querySelectorAll('.gallery img')];
      return imgs.length === 2 && imgs.every((i: any) => i.complete && i.naturalWidth > 0);
    });
    await page.screenshot({ path: path.join(SHOTS, 'console-order-page.png'), fullPage: true });
    await tiles.first().click();
    await page.waitForURL(/\/console\/runs\/run-/);
    await page.goBack();
  });

  it('offers retry and accept gap to an order that needs attention, and settles it short with a reason', async () => {
    await page.goto(`${h.url}/console/orders/${maybeId}`);
    await expect.poll(() => page.locator('#order-live').textContent()).toContain('Needs attention');
    expect(await actions()).toEqual(['retry-failed', 'accept-gap', 'cancel']);
    expect(await counts()).toContain('1 of 2 succeeded · 1 failed');
    // The failed child has no tile; the one that succeeded shows its artifact's title.
    await expect.poll(() => page.locator('.gallery li').count()).toBe(1);
    expect(await page.locator('.gallery .thumb.text').textContent()).not.toBe('');

    // The failure is deterministic: without the box ticked nothing is retried, and the page says so.
    await page.getByRole('button', { name: 'Retry failed' }).click();
    expect(await page.getByLabel(/Include deterministic failures/).isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Yes, retry failed' }).click();
    await expect.poll(() => page.locator('#status').textContent()).toContain('Nothing was retried');
    expect((await h.request('GET', `/v1/orders/${maybeId}`, { token: reviewer.token })).body.status).toBe('attention');

    await page.getByRole('button', { name: 'Accept gap' }).click();
    // The reason is required: the browser holds the form back without one.
    const reason = page.getByRole('textbox', { name: 'Reason' });
    await page.getByRole('button', { name: 'Yes, accept gap' }).click();
    expect(await reason.evaluate((el: any) => el.validity.valueMissing)).toBe(true);
    await reason.fill('one variation is enough for the pitch');
    await page.getByRole('button', { name: 'Yes, accept gap' }).click();

    await page.locator('#order-live[data-state="ended"]').waitFor();
    expect(await page.locator('#order-view .facts .badge').first().textContent()).toBe('completed');
    expect(await page.locator('#order-view .facts').textContent()).toContain('one variation is enough for the pitch');
    expect(await actions()).toEqual([]);
    const order = (await h.request('GET', `/v1/orders/${maybeId}`, { token: reviewer.token })).body;
    expect(order).toMatchObject({ status: 'completed', acceptGapReason: 'one variation is enough for the pitch' });
  });

  it('says a budget refusal of Start as a sentence, and the order stays planned', async () => {
    const planned = await plan({ workflowId: 'build-maybe', variationSpec: { resolver: 'list', params: { items: [{ topic: 'x' }] } } });
    // Planned within budget; a hard stop at nothing added afterwards refuses the start.
    const budget = await h.request('POST', '/v1/budgets', {
      token: reviewer.token,
      body: { workspaceId: reviewer.workspaceId, scope: 'workspace', period: 'month', limitUsd: 0, enforcementMode: 'hard_stop' },
    });
    expect(budget.status, JSON.stringify(budget.body)).toBe(201);
    await page.goto(`${h.url}/console/orders/${planned}`);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.getByRole('button', { name: 'Yes, start' }).click();
    const error = page.locator('.confirm-step .error');
    await expect.poll(() => error.textContent()).toMatch(/^Budget exceeded: .* in the workspace budget .*Nothing was spent\.$/);
    expect(await page.locator('#status').textContent()).toBe(await error.textContent());
    expect((await h.request('GET', `/v1/orders/${planned}`, { token: reviewer.token })).body.status).toBe('planned');
    // Back, then cancel the planned order from the page.
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('button', { name: 'Cancel order' }).click();
    await page.getByRole('button', { name: 'Yes, cancel order' }).click();
    await page.locator('#order-live[data-state="ended"]').waitFor();
    expect(await page.locator('#order-view .facts .badge').first().textContent()).toBe('cancelled');
  });

  it('made no request outside the gateway and had no script errors', () => {
    const origin = new URL(h.url).origin;
    expect(requests.length).toBeGreaterThan(10);
    expect(requests.filter((u) => new URL(u).origin !== origin)).toEqual([]);
    // Chromium logs every non-2xx fetch; the one 402 is the refusal the budget test asked for.
    const refused = 'Failed to load resource: the server responded with a status of 402 (Payment Required)';
    expect(pageErrors.filter((e) => e !== refused)).toEqual([]);
    expect(pageErrors.filter((e) => e === refused)).toHaveLength(1);
  });
});
