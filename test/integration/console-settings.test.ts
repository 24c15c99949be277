import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { type Server, createServer } from 'node:http';
import path from 'node:path';
import { type Browser, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import { type Harness, type TestUser, registerUser, startHarness } from '../support/harness';

/**
 * The console's settings pages (/console/settings/…) in a real Chromium against a real stack, as
 * console.test.ts does for the review pages: API keys made and revoked in the page and then used for real,
 * a webhook endpoint with a test send delivered to a loopback receiver, a budget; plus the console's HTML
 * 404 and going straight in with a single workspace. Screenshots go to .test-data/console/, or to docs/ with
 * UPDATE_CONSOLE_SCREENSHOTS=1.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS =
  process.env.UPDATE_CONSOLE_SCREENSHOTS === '1' ? path.join(PROJECT_ROOT, 'docs') : path.join(PROJECT_ROOT, '.test-data', 'console');
const PASSWORD = 'correct horse battery';

let h: Harness;
let owner: TestUser;
let browser: Browser;
let page: Page;
let receiver: Server;
let receiverUrl: string;
let received = 0;
const requests: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}; see console.test.ts for how to install it or set CHROMIUM_PATH.`);
  }
  await mkdir(SHOTS, { recursive: true });
  [h, browser] = await Promise.all([
    startHarness(),
    chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] }),
  ]);
  owner = await registerUser(h, 'Settings Owner');
  // An integrator's endpoint on loopback: the engine delivers to it, the browser never calls it.
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks/atelier`;

  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  context.on('request', (r) => requests.push(r.url()));
  page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !isExpected(m)) pageErrors.push(m.text());
  });
});

/**
 * The console errors the tests cause on purpose: Chromium logs every 4xx answer, here the unknown page's 404
 * and the 422 of the budget refused for its missing overage.
 */
const isExpected = (m: { text(): string; location(): { url: string } }) =>
  (m.text().includes('404') && m.location().url.endsWith('/console/no-such-page')) ||
  (m.text().includes('422') && m.location().url.endsWith('/v1/budgets'));

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  await h?.stop();
});

/** Calls the gateway with a bearer token from outside the browser, as a script holding the key would. */
const withToken = (token: string, url: string) => fetch(`${h.url}${url}`, { headers: { authorization: `Bearer ${token}` } });

describe('the console settings pages', () => {
  it('takes a user with exactly one workspace straight in, under a proper workspace name', async () => {
    await page.goto(`${h.url}/console?next=%2Fconsole%2Fsettings`);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${h.url}/console/settings`);
    expect(await page.evaluate(() => (globalThis as any).sessionStorage.getItem('atelier.workspace'))).toBe(owner.workspaceId);
    await expect.poll(() => page.locator('#workspace-select option').allTextContents()).toEqual(['Personal workspace (Settings Owner)']);
    expect(await page.locator('h1').textContent()).toBe('Settings');
    expect(await page.locator('.settings-index a').allTextContents()).toEqual(['API keys', 'Webhooks', 'Budgets']);
  });

  it('serves /console/settings as a page, and any unknown console path as an HTML 404 with a way back', async () => {
    const settings = await fetch(`${h.url}/console/settings`);
    expect(settings.status).toBe(200);
    expect(settings.headers.get('content-type')).toMatch(/^text\/html/);
    for (const unknown of ['/console/no-such-page', '/console/settings/nope', '/console/runs/a/b', '/console/assets/nope.js']) {
      const res = await fetch(`${h.url}${unknown}`);
      expect(res.status, unknown).toBe(404);
      expect(res.headers.get('content-type'), unknown).toMatch(/^text\/html/);
      expect(await res.text(), unknown).toContain('href="/console/queue"');
    }
    const res = await page.goto(`${h.url}/console/no-such-page`);
    expect(res?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('Page not found');
    await page.getByRole('link', { name: 'Back to the review queue' }).click();
    await page.waitForURL(`${h.url}/console/queue`);
  });

  it('creates an API key that works with the secret shown once, and revokes it so it gets 401', async () => {
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('link', { name: 'API keys' }).first().click();
    await page.waitForURL(`${h.url}/console/settings/api-keys`);
    await page.locator('#keys-table p, #keys-table table').first().waitFor();
    await page.getByLabel('Name').fill('deploy script');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secretBox = page.locator('#key-secret');
    await secretBox.locator('.secret-value').waitFor();
    expect(await secretBox.textContent()).toContain('shown only this once');
    const secret = await secretBox.locator('.secret-value').inputValue();
    expect(secret).toMatch(/^atl_/);
    const row = page.locator('#keys-table tr', { hasText: 'deploy script' });
    await row.waitFor();
    expect(await row.textContent()).toContain(secret.slice(0, 10));
    expect((await withToken(secret, '/v1/workspaces')).status).toBe(200);
    await page.screenshot({ path: path.join(SHOTS, 'console-settings-api-keys.png') });

    // Done hides the secret for good: the list never carries it.
    await secretBox.getByRole('button', { name: /Done/ }).click();
    expect(await secretBox.isHidden()).toBe(true);
    expect(await page.locator('main').textContent()).not.toContain(secret);

    await row.getByRole('button', { name: 'Revoke' }).click();
    expect((await withToken(secret, '/v1/workspaces')).status).toBe(200); // asked, not yet done
    await row.getByRole('button', { name: 'Yes, revoke' }).click();
    await row.waitFor({ state: 'detached' });
    expect(await page.locator('#status').textContent()).toContain('Revoked the key “deploy script”');
    expect((await withToken(secret, '/v1/workspaces')).status).toBe(401);
  });

  it('adds a webhook endpoint, sends it a test event and shows the delivery with its status code', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL(`${h.url}/console/settings/webhooks`);
    await page.locator('#endpoints-table p, #endpoints-table table').first().waitFor();
    await page.getByLabel('URL').fill(receiverUrl);
    await page.locator('#endpoint-events input[value="*"]').uncheck();
    await page.locator('#endpoint-events input[value="run.completed"]').check();
    await page.locator('#endpoint-events input[value="order.failed"]').check();
    await page.getByLabel('Description').fill('Publishing pipeline');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    expect(await page.locator('#endpoint-secret .secret-value').inputValue()).toMatch(/^whsec_/);
    expect(await page.locator('#endpoint-events input[value="*"]').isChecked()).toBe(true); // the form is fresh again
    const row = page.locator('#endpoints-table tbody tr', { hasText: receiverUrl });
    await row.waitFor();
    expect(await row.textContent()).toContain('run.completed, order.failed');

    const listed = await h.request('GET', `/v1/webhook-endpoints?workspaceId=${owner.workspaceId}`, { token: owner.token });
    expect(listed.body.items).toMatchObject([
      { url: receiverUrl, events: ['run.completed', 'order.failed'], description: 'Publishing pipeline' },
    ]);

    await row.getByRole('button', { name: 'Send test' }).click();
    const delivery = page.locator('#deliveries tbody tr', { hasText: 'endpoint.test' });
    await delivery.waitFor();
    await expect.poll(() => delivery.locator('.badge').textContent(), { timeout: 30_000 }).toBe('delivered');
    expect(await delivery.locator('.attempts li').first().textContent()).toMatch(/^200 delivered/);
    expect(received).toBe(1);
    await page.locator('#endpoint-secret').getByRole('button', { name: /Done/ }).click();
    await page.screenshot({ path: path.join(SHOTS, 'console-settings-webhooks.png'), fullPage: true });
  });

  it('creates a budget and changes its limit', async () => {
    await page.getByRole('link', { name: 'Budgets' }).click();
    await page.waitForURL(`${h.url}/console/settings/budgets`);
    await page.locator('#budgets-table p, #budgets-table table').first().waitFor();
    const form = page.locator('#budget-create');
    await form.getByLabel('Name').fill('Monthly cap');
    await form.getByLabel('Limit (USD)').fill('250');
    await form.getByLabel('When reached').selectOption('allow_overage');
    await form.getByLabel(/Overage/).fill('25');
    await form.getByRole('button', { name: 'Create budget' }).click();
    const row = page.locator('#budgets-table tbody tr', { hasText: 'Monthly cap' });
    await row.waitFor();
    expect(await row.textContent()).toContain('$250.00');
    expect(await row.textContent()).toContain('allow overage (+$25.00)');

    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = page.locator('#budget-edit');
    await edit.getByLabel('Limit (USD)').fill('300');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.textContent()).toContain('$300.00');
    const budgets = await h.request('GET', `/v1/budgets?workspaceId=${owner.workspaceId}`, { token: owner.token });
    expect(budgets.body.items).toMatchObject([
      { name: 'Monthly cap', scope: 'workspace', limitUsd: 300, enforcementMode: 'allow_overage', overageUsd: 25 },
    ]);
    await page.screenshot({ path: path.join(SHOTS, 'console-settings-budgets.png') });
  });

  it('shows an API refusal as a sentence on the page', async () => {
    const form = page.locator('#budget-create');
    await form.getByLabel('Limit (USD)').fill('10');
    await form.getByLabel('When reached').selectOption('allow_overage'); // without the overage it needs: 422
    await form.getByRole('button', { name: 'Create budget' }).click();
    await expect.poll(() => page.locator('#status.error').textContent()).toContain('overageUsd');
  });

  it('made no request outside the gateway and had no script errors', () => {
    const origin = new URL(h.url).origin;
    expect(requests.length).toBeGreaterThan(10);
    expect(requests.filter((u) => new URL(u).origin !== origin)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
