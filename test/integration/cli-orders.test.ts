import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, runAtelier } from '../support/atelier-cli';
import { type Harness, type TestUser, createApiKey, registerUser, startHarness } from '../support/harness';

/** `atelier orders list` and `atelier orders cancel`, as processes, against a harness gateway. Orders are only planned. */
let h: Harness;
let user: TestUser;
let apiKey: string;
let home: string;
/** Oldest first. */
const planned: string[] = [];

const atelier = (args: string[]): Promise<CliResult> => runAtelier(args, { HOME: home, ATELIER_URL: h.url, ATELIER_API_KEY: apiKey });

beforeAll(async () => {
  h = await startHarness({ worker: false });
  user = await registerUser(h);
  apiKey = await createApiKey(h, user);
  home = await mkdtemp(path.join(tmpdir(), 'atelier-cli-home-'));
  for (const items of [[{ topic: 'owls' }, { topic: 'larks' }], [{ topic: 'wrens' }], [{ topic: 'terns' }, { topic: 'gulls' }]]) {
    const res = await h.request('POST', '/v1/orders', {
      token: user.token,
      body: { workflowId: 'plan-research-report', intakeBase: { depth: 'brief' }, variationSpec: { resolver: 'list', params: { items } } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    planned.push(res.body.id);
  }
});
afterAll(async () => {
  await h?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

// Each command compiles the CLI through tsx in a process of its own: seconds each.
describe('atelier orders list and cancel', { timeout: 180_000 }, () => {
  it('cancel settles a planned order at once and says so; a second cancel is a conflict sentence, exit 3', async () => {
    const cancelled = await atelier(['orders', 'cancel', planned[1]!]);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout.trim()).toBe(`order ${planned[1]} is cancelled`);
    const again = await atelier(['orders', 'cancel', planned[1]!]);
    expect(again.code).toBe(3);
    expect(again.stderr).toContain('Conflict: an order that is cancelled cannot be cancelled (invalid_transition).');
    expect(again.stderr).toContain(`POST /v1/orders/${planned[1]}/cancel answered 409`);
    const missing = await atelier(['orders', 'cancel', 'order-0000000000000000', '--json']);
    expect(missing.code).toBe(3);
    expect(JSON.parse(missing.stderr)).toEqual({ detail: 'order order-0000000000000000 not found' });
  });

  it('list prints a table newest first with children counts and cost; --status, --workflow and --limit narrow it', async () => {
    const listed = await atelier(['orders', 'list']);
    expect(listed.code, listed.stderr).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^order\s+status\s+workflow\s+children\s+cost\s+created$/);
    expect(lines.slice(1, 4).map((l) => l.split(/\s+/)[0])).toEqual([...planned].reverse());
    expect(lines[1]).toMatch(/^order-\S+\s+planned\s+plan-research-report\s+0\/2 succeeded, 2 planned\s+\$0\.00\s+\d{4}-\d\d-\d\dT/);
    expect(lines[2]).toMatch(/\s+cancelled\s+plan-research-report\s+0\/1 succeeded, 1 cancelled\s+/);
    expect(lines.at(-1)).toBe('3 of 3');

    const cancelled = await atelier(['orders', 'list', '--status', 'cancelled', '--json']);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    const page = JSON.parse(cancelled.stdout);
    expect(page).toMatchObject({ total: 1, nextCursor: null });
    expect(page.items.map((o: { id: string }) => o.id)).toEqual([planned[1]]);

    const other = await atelier(['orders', 'list', '--workflow', 'generate-product-shot', '--json']);
    expect(JSON.parse(other.stdout)).toEqual({ items: [], total: 0, nextCursor: null });

    const bad = await atelier(['orders', 'list', '--status', 'sleeping']);
    expect(bad.code).toBe(2);
  });

  it('--limit pages, and the next page is the --cursor the page printed', async () => {
    const first = await atelier(['orders', 'list', '--limit', '2']);
    expect(first.code, first.stderr).toBe(0);
    const tail = first.stdout.trim().split('\n').at(-1)!;
    const cursor = /^2 of 3; next page: --cursor (\S+)$/.exec(tail)?.[1];
    expect(cursor, tail).toBeDefined();
    const second = await atelier(['orders', 'list', '--limit', '2', '--cursor', cursor!, '--json']);
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ total: 3, nextCursor: null, items: [{ id: planned[0] }] });
  });
});
