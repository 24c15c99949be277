import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, registerUser, startHarness } from '../support/harness';

/**
 * GET /v1/runs's date window (createdAfter, createdBefore) and text search (q), against the real gateway and
 * PostgreSQL: each narrows the list and its total alike, they combine with the other filters, LIKE's
 * wildcards in q are taken literally, and a bad value is a 422 with the request-validation shape.
 */
let h: Harness;
let user: TestUser;
const ids: Record<'jan' | 'feb' | 'mar', string> = { jan: '', feb: '', mar: '' };

beforeAll(async () => {
  h = await startHarness({ worker: false });
  user = await registerUser(h);
  const create = async (templateId: string, intake: Record<string, unknown>, tags: string[]) => {
    const res = await h.request('POST', '/v1/runs', { token: user.token, body: { templateId, intake, tags } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  };
  ids.jan = await create('plan-research-report', { topic: 'estuaries' }, ['Campaign:Spring', 'batch_1']);
  ids.feb = await create('plan-research-report', { topic: 'deltas' }, ['batch-2']);
  ids.mar = await create('generate-product-shot', { product: 'a ceramic teapot' }, ['100pct']);
  // Creation stamps now: put the runs on days of their own, January's to the microsecond for the bounds below.
  const at = { jan: '2020-01-15T10:00:00.000100Z', feb: '2020-02-15T10:00:00Z', mar: '2020-03-15T10:00:00Z' };
  for (const key of ['jan', 'feb', 'mar'] as const)
    await h.db.updateTable('runs').set({ created_at: at[key] }).where('id', '=', ids[key]).execute();
});
afterAll(() => h?.stop());

const list = async (query: string) => {
  const res = await h.request('GET', `/v1/runs?limit=100&${query}`, { token: user.token });
  expect(res.status, `${query}: ${JSON.stringify(res.body)}`).toBe(200);
  return { ids: (res.body.items as Array<{ id: string }>).map((r) => r.id).sort(), total: res.body.total as number };
};
const sorted = (...runs: string[]) => [...runs].sort();

describe('GET /v1/runs by date and search', () => {
  it('keeps runs created in the window: createdAfter inclusive to the microsecond, createdBefore exclusive', async () => {
    expect((await list('')).ids).toEqual(sorted(ids.jan, ids.feb, ids.mar));
    expect(await list('createdAfter=2020-02-01T00:00:00Z')).toEqual({ ids: sorted(ids.feb, ids.mar), total: 2 });
    expect(await list('createdBefore=2020-02-15T10:00:00Z')).toEqual({ ids: [ids.jan], total: 1 });
    expect(await list(`createdAfter=${encodeURIComponent('2020-01-15T10:00:00.000100Z')}&createdBefore=2020-03-01T00:00:00Z`)).toEqual({
      ids: sorted(ids.jan, ids.feb),
      total: 2,
    });
    expect((await list(`createdAfter=${encodeURIComponent('2020-01-15T10:00:00.000101Z')}`)).ids).toEqual(sorted(ids.feb, ids.mar));
    // An offset names the same instant: 11:00 at +01:00 is 10:00Z.
    expect((await list(`createdAfter=${encodeURIComponent('2020-03-15T11:00:00+01:00')}`)).ids).toEqual([ids.mar]);
    expect(await list('createdAfter=2021-01-01T00:00:00Z')).toEqual({ ids: [], total: 0 });
  });

  it('searches run ids, workflow ids and names and tags, case aside, and counts what it found', async () => {
    expect(await list(`q=${ids.feb.toUpperCase()}`)).toEqual({ ids: [ids.feb], total: 1 });
    expect((await list(`q=${ids.feb.slice(4, 10)}`)).ids).toContain(ids.feb);
    expect(await list('q=product-shot')).toEqual({ ids: [ids.mar], total: 1 });
    const planName = (await h.request('GET', `/v1/runs/${ids.jan}`, { token: user.token })).body.templateName as string;
    expect((await list(`q=${encodeURIComponent(planName.toLowerCase())}`)).ids).toEqual(sorted(ids.jan, ids.feb));
    expect((await list('q=campaign%3Aspring')).ids).toEqual([ids.jan]);
    expect((await list('q=batch')).ids).toEqual(sorted(ids.jan, ids.feb));
    // Surrounding space is not part of the search; an empty one is no search.
    expect((await list('q=%20%20BATCH-2%20')).ids).toEqual([ids.feb]);
    expect((await list('q=')).ids).toEqual(sorted(ids.jan, ids.feb, ids.mar));
    expect(await list('q=nothing-like-this')).toEqual({ ids: [], total: 0 });
  });

  it("takes LIKE's wildcards and the escape character as themselves", async () => {
    // `_` would match the `-` of batch-2, and `%` anything.
    expect((await list('q=batch_')).ids).toEqual([ids.jan]);
    expect((await list('q=%25')).ids).toEqual([]);
    expect((await list('q=100%25')).ids).toEqual([]);
    expect((await list('q=100pct')).ids).toEqual([ids.mar]);
    expect((await list('q=%5C')).ids).toEqual([]);
    expect((await list(`q=${encodeURIComponent("'; drop table runs; --")}`)).ids).toEqual([]);
  });

  it('combines with the other filters and pages by the same match', async () => {
    expect((await list('q=batch&createdAfter=2020-02-01T00:00:00Z')).ids).toEqual([ids.feb]);
    expect((await list('q=batch&templateId=generate-product-shot')).ids).toEqual([]);
    expect((await list('q=batch&tag=batch-2')).ids).toEqual([ids.feb]);
    const first = await h.request('GET', '/v1/runs?q=batch&limit=1', { token: user.token });
    const second = await h.request('GET', '/v1/runs?q=batch&limit=1&offset=1', { token: user.token });
    expect([first.body.total, second.body.total]).toEqual([2, 2]);
    // Newest first: February, then January.
    expect([first.body.items[0].id, second.body.items[0].id]).toEqual([ids.feb, ids.jan]);
  });

  it("never finds another workspace's runs", async () => {
    const other = await registerUser(h);
    const res = await h.request('GET', `/v1/runs?q=${ids.jan}`, { token: other.token });
    expect(res.body).toMatchObject({ items: [], total: 0 });
  });

  it('refuses a bad date or an over-long search with 422 and the request-validation shape', async () => {
    const cases: Array<[string, string]> = [
      ['createdAfter=yesterday', 'createdAfter'],
      ['createdAfter=2020-01-15', 'createdAfter'],
      ['createdBefore=2020-01-15T10:00:00', 'createdBefore'],
      ['createdBefore=2020-02-30T00:00:00Z', 'createdBefore'],
      ['createdAfter=0000-01-01T00:00:00Z', 'createdAfter'],
      [`q=${'x'.repeat(201)}`, 'q'],
    ];
    for (const [query, field] of cases) {
      const res = await h.request('GET', `/v1/runs?${query}`, { token: user.token });
      expect(res.status, `${query}: ${JSON.stringify(res.body)}`).toBe(422);
      expect(Array.isArray(res.body.detail), `${query}: ${JSON.stringify(res.body)}`).toBe(true);
      expect(
        (res.body.detail as Array<{ loc: unknown[] }>).map((d) => d.loc),
        query,
      ).toContainEqual(['query', field]);
    }
    expect((await list(`q=${'x'.repeat(200)}`)).ids).toEqual([]);
  });
});
