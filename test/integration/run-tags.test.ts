import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, registerUser, startHarness } from '../support/harness';

/**
 * A run's `tags` and `metadata`, against the real gateway and PostgreSQL: set on POST /v1/runs (and on an
 * order's children), shown on every representation, bounded (422 with the request-validation shape),
 * filtered on by GET /v1/runs (tags all-of, metadata key and value, with the other filters), never across
 * workspaces, and part of what an Idempotency-Key's body hash covers.
 */
let h: Harness;
let user: TestUser;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  user = await registerUser(h);
});
afterAll(() => h?.stop());

const RUN = { templateId: 'plan-research-report', intake: { topic: 'tagged rivers' } };

const post = (body: unknown, who: TestUser = user, headers?: Record<string, string>) =>
  h.request('POST', '/v1/runs', { token: who.token, body, ...(headers ? { headers } : {}) });
const list = async (query: string, who: TestUser = user) => {
  const res = await h.request('GET', `/v1/runs?limit=100&${query}`, { token: who.token });
  expect(res.status).toBe(200);
  return (res.body.items as Array<{ id: string }>).map((r) => r.id).sort();
};
const create = async (tags?: string[], metadata?: Record<string, string>, who: TestUser = user) => {
  const res = await post({ ...RUN, ...(tags ? { tags } : {}), ...(metadata ? { metadata } : {}) }, who);
  expect(res.status).toBe(201);
  return res.body.id as string;
};

describe('run tags and metadata', () => {
  it('are stored on create and shown on the run, its read and lists; [] and {} when not given', async () => {
    const created = await post({ ...RUN, tags: ['campaign:spring', 'batch-1', 'campaign:spring'], metadata: { customer: 'acme' } });
    expect(created.status).toBe(201);
    // Duplicates collapse, order kept.
    expect(created.body).toMatchObject({ tags: ['campaign:spring', 'batch-1'], metadata: { customer: 'acme' } });
    const read = await h.request('GET', `/v1/runs/${created.body.id}`, { token: user.token });
    expect(read.body).toMatchObject({ tags: ['campaign:spring', 'batch-1'], metadata: { customer: 'acme' } });

    const plain = await post(RUN);
    expect(plain.body).toMatchObject({ tags: [], metadata: {} });
    const page = await h.request('GET', '/v1/runs?limit=100', { token: user.token });
    const items = page.body.items as Array<{ id: string; tags: string[]; metadata: Record<string, string> }>;
    expect(items.find((r) => r.id === created.body.id)).toMatchObject({
      tags: ['campaign:spring', 'batch-1'],
      metadata: { customer: 'acme' },
    });
    expect(items.find((r) => r.id === plain.body.id)).toMatchObject({ tags: [], metadata: {} });
  });

  it('go with a rerun: the rerun of a labelled run carries its tags and metadata', async () => {
    const original = await post({ ...RUN, tags: ['rerun-me'], metadata: { desk: 'science' } });
    expect(original.status).toBe(201);
    const rerun = await h.request('POST', `/v1/runs/${original.body.id}/rerun`, { token: user.token, body: {} });
    expect(rerun.status).toBe(201);
    expect(rerun.body).toMatchObject({ rerunOf: original.body.id, tags: ['rerun-me'], metadata: { desk: 'science' } });
  });

  it('are stored alike when a budget judges the run (its insert runs in the budget transaction)', async () => {
    const budgeted = await registerUser(h);
    const budget = await h.request('POST', '/v1/budgets', {
      token: budgeted.token,
      body: { workspaceId: budgeted.workspaceId, scope: 'workspace', period: 'month', limitUsd: 100, enforcementMode: 'hard_stop' },
    });
    expect(budget.status).toBe(201);
    const id = await create(['budgeted'], { path: 'transaction' }, budgeted);
    const read = await h.request('GET', `/v1/runs/${id}`, { token: budgeted.token });
    expect(read.body).toMatchObject({ tags: ['budgeted'], metadata: { path: 'transaction' } });
    expect(await list('tag=budgeted&metadata[path]=transaction', budgeted)).toEqual([id]);
  });

  it('refuse each bound with 422 and the request-validation shape, naming the field', async () => {
    const cases: Array<[unknown, Array<string | number>]> = [
      [{ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, ['body', 'tags']],
      [{ tags: [''] }, ['body', 'tags', 0]],
      [{ tags: ['x'.repeat(65)] }, ['body', 'tags', 0]],
      [{ tags: ['has space'] }, ['body', 'tags', 0]],
      [{ tags: 'not-an-array' }, ['body', 'tags']],
      [{ metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, ['body', 'metadata']],
      [{ metadata: { ['k'.repeat(65)]: 'v' } }, ['body', 'metadata']],
      [{ metadata: { '': 'v' } }, ['body', 'metadata']],
      [{ metadata: { k: 'v'.repeat(513) } }, ['body', 'metadata', 'k']],
      [{ metadata: { k: 1 } }, ['body', 'metadata', 'k']],
    ];
    for (const [extra, loc] of cases) {
      const res = await post({ ...RUN, ...(extra as object) });
      expect(res.status, JSON.stringify(extra).slice(0, 80)).toBe(422);
      expect(Array.isArray(res.body.detail)).toBe(true);
      const locs = (res.body.detail as Array<{ loc: unknown[] }>).map((d) => d.loc.slice(0, loc.length));
      expect(locs).toContainEqual(loc);
    }
    // At the bounds it is accepted.
    const atBounds = await post({
      ...RUN,
      tags: Array.from({ length: 20 }, (_, i) => `${'t'.repeat(62)}${String(i).padStart(2, '0')}`),
      metadata: Object.fromEntries(
        Array.from({ length: 50 }, (_, i) => [`${'k'.repeat(62)}${String(i).padStart(2, '0')}`, 'v'.repeat(512)]),
      ),
    });
    expect(atBounds.status).toBe(201);
  });

  it('filter lists: one tag, several tags (all of them), metadata, and with status', async () => {
    const who = await registerUser(h);
    const a = await create(['red'], { team: 'north', tier: 'gold' }, who);
    const ab = await create(['red', 'blue'], { team: 'south' }, who);
    const b = await create(['blue'], { team: 'north' }, who);
    const none = await create(undefined, undefined, who);

    expect(await list('', who)).toEqual([a, ab, b, none].sort());
    expect(await list('tag=red', who)).toEqual([a, ab].sort());
    expect(await list('tag=red&tag=blue', who)).toEqual([ab]);
    expect(await list('tag=green', who)).toEqual([]);
    expect(await list('metadata[team]=north', who)).toEqual([a, b].sort());
    expect(await list('metadata[team]=north&metadata[tier]=gold', who)).toEqual([a]);
    expect(await list('metadata[team]=nort', who)).toEqual([]);
    expect(await list('tag=blue&metadata[team]=north', who)).toEqual([b]);

    await h.db.updateTable('runs').set({ status: 'failed' }).where('id', '=', ab).execute();
    expect(await list('tag=red&status=failed', who)).toEqual([ab]);
    // Without a worker the others stay where creation left them (pending or queued).
    const { status } = (await h.request('GET', `/v1/runs/${a}`, { token: who.token })).body;
    expect(status).not.toBe('failed');
    expect(await list(`tag=red&status=${status}`, who)).toEqual([a]);

    // Bad filters are refused like any bad query parameter.
    for (const query of ['tag=bad%20tag', 'metadata[team]=a&metadata[team]=b', `metadata[${'k'.repeat(65)}]=v`]) {
      const res = await h.request('GET', `/v1/runs?${query}`, { token: who.token });
      expect(res.status, query).toBe(422);
      expect(Array.isArray(res.body.detail)).toBe(true);
    }
  });

  it("never shows another workspace's runs, whatever the filter", async () => {
    const mine = await registerUser(h);
    const theirs = await registerUser(h);
    const own = await create(['shared-tag'], { owner: 'same' }, mine);
    await create(['shared-tag'], { owner: 'same' }, theirs);
    expect(await list('tag=shared-tag', mine)).toEqual([own]);
    expect(await list('metadata[owner]=same', mine)).toEqual([own]);
  });

  it('are part of the Idempotency-Key body hash: a replay with other tags or metadata is refused', async () => {
    const key = `tags-${Date.now()}`;
    const first = await post({ ...RUN, tags: ['a'], metadata: { k: 'v' } }, user, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    const same = await post({ ...RUN, metadata: { k: 'v' }, tags: ['a'] }, user, { 'idempotency-key': key });
    expect(same.status).toBe(201);
    expect(same.headers.get('idempotent-replayed')).toBe('true');
    expect(same.body).toMatchObject({ id: first.body.id, tags: ['a'], metadata: { k: 'v' } });
    for (const other of [{ tags: ['b'], metadata: { k: 'v' } }, { tags: ['a'], metadata: { k: 'w' } }, { tags: ['a'] }]) {
      const res = await post({ ...RUN, ...other }, user, { 'idempotency-key': key });
      expect(res.status).toBe(422);
      expect(res.body.detail).toMatchObject({ code: 'idempotency_key_reused', key });
    }
  });

  it("give an order's children the order's tags and metadata", async () => {
    const who = await registerUser(h);
    const order = await h.request('POST', '/v1/orders', {
      token: who.token,
      body: {
        workflowId: 'plan-research-report',
        variationSpec: { resolver: 'list', params: { items: [{ topic: 'tides' }, { topic: 'currents' }] } },
        tags: ['order-tag'],
        metadata: { source: 'order' },
      },
    });
    expect(order.status).toBe(201);
    const children = await h.request('GET', `/v1/runs?parentOrderId=${order.body.id}`, { token: who.token });
    expect(children.body.items).toHaveLength(2);
    for (const child of children.body.items) expect(child).toMatchObject({ tags: ['order-tag'], metadata: { source: 'order' } });
    expect(await list('tag=order-tag&metadata[source]=order', who)).toHaveLength(2);
  });
});
