import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { syncBuiltinWorkflows } from '@atelier/db';
import { type Harness, type TestUser, registerUser, startHarness } from '../support/harness';

/**
 * GET /v1/orders against real PostgreSQL: filters, offset paging with its total, cursor paging through
 * every page, and workspaces kept apart. Orders are only planned (and some cancelled), so no worker runs.
 */
let h: Harness;
let alice: TestUser;
let bob: TestUser;
let projectId: string;
/** Alice's orders, newest first, as the list should give them. */
let newestFirst: string[];
const cancelled: string[] = [];
const inProject: string[] = [];
const ofOtherWorkflow: string[] = [];
let bobsOrders: string[];

const OTHER = {
  id: 'list-other',
  name: 'Other (list test)',
  version: '2026.11.01',
  artifactClass: 'knowledge',
  cadence: 'on-demand',
  intakeSchema: { fields: [{ name: 'topic', type: 'string', required: true }] },
  runtimeSteps: [
    {
      id: 'step-1',
      name: 'Write',
      kind: 'llm',
      role: 'textGenerator',
      prompt: 'Write about "{{intake.topic}}"',
      jsonSchema: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } },
    },
  ],
  gates: [],
  providers: { textGenerator: 'local/text-1' },
  budgetPolicy: {},
  artifactSchema: { artifactClass: 'knowledge', artifactType: 'article', files: ['application/json'], metadata: [] },
  outputShape: [{ artifactClass: 'knowledge', artifactType: 'article' }],
};

const OTHER_VARIATIONS = { resolver: 'list', params: { items: [{ topic: 'wrens' }] } };

async function plan(user: TestUser, body: Record<string, unknown> = {}): Promise<string> {
  const res = await h.request('POST', '/v1/orders', {
    token: user.token,
    body: {
      workflowId: 'plan-research-report',
      intakeBase: { depth: 'brief' },
      variationSpec: { resolver: 'list', params: { items: [{ topic: 'owls' }, { topic: 'larks' }] } },
      ...body,
    },
  });
  if (res.status !== 201) throw new Error(`plan failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

const list = (user: TestUser, query: string) => h.request('GET', `/v1/orders${query ? `?${query}` : ''}`, { token: user.token });
const ids = (res: { body: any }) => (res.body.items as Array<{ id: string }>).map((o) => o.id);

beforeAll(async () => {
  h = await startHarness({ worker: false });
  [alice, bob] = await Promise.all([registerUser(h, 'Alice'), registerUser(h, 'Bob')]);
  await syncBuiltinWorkflows(h.db, [OTHER as never]);
  const project = await h.request('POST', `/v1/workspaces/${alice.workspaceId}/projects`, { token: alice.token, body: { name: 'Birds' } });
  expect(project.status, JSON.stringify(project.body)).toBe(201);
  projectId = project.body.id;
  const planned: string[] = [];
  // One at a time, so their creation order is known.
  for (let i = 0; i < 9; i++) {
    const id = await plan(
      alice,
      i % 4 === 1 ? { projectId } : i % 4 === 2 ? { workflowId: OTHER.id, intakeBase: {}, variationSpec: OTHER_VARIATIONS } : {},
    );
    planned.push(id);
    if (i % 4 === 1) inProject.push(id);
    if (i % 4 === 2) ofOtherWorkflow.push(id);
  }
  for (const id of [planned[0]!, planned[5]!]) {
    const res = await h.request('POST', `/v1/orders/${id}/cancel`, { token: alice.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    cancelled.push(id);
  }
  // Three orders in one millisecond (two at the very same microsecond): the cursor must tell them apart
  // to the microsecond and then by id, or a page boundary among them skips or repeats one.
  await sql`update orders set created_at = '2020-01-20T09:00:00.000100Z' where id = ${planned[3]!}`.execute(h.db);
  await sql`update orders set created_at = '2020-01-20T09:00:00.000200Z' where id in (${planned[4]!}, ${planned[6]!})`.execute(h.db);
  const rows = await h.db
    .selectFrom('orders')
    .select('id')
    .where('workspace_id', '=', alice.workspaceId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  newestFirst = rows.map((r) => r.id);
  expect(newestFirst).toHaveLength(9);
  bobsOrders = [await plan(bob), await plan(bob)];
});
afterAll(() => h?.stop());

describe('GET /v1/orders', () => {
  it('lists the workspace’s orders newest first, each as GET /v1/orders/{order_id} shows it', async () => {
    const res = await list(alice, '');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(ids(res)).toEqual(newestFirst);
    expect(res.body.total).toBe(9);
    expect(res.body.nextCursor).toBeNull();
    for (const item of res.body.items) expect(item).toEqual((await h.request('GET', `/v1/orders/${item.id}`, { token: alice.token })).body);
    // Each with its own counts (the list reads them for the whole page at once).
    expect(res.body.items[0].counts).toMatchObject({ planned: 2, cancelled: 0 });
    expect(res.body.items.find((o: any) => o.id === cancelled[0]).counts).toMatchObject({ planned: 0, cancelled: 2 });
    expect(res.body.items.find((o: any) => ofOtherWorkflow.includes(o.id)).counts).toMatchObject({ planned: 1 });
  });

  it('filters by status, workflowId, projectId and creation time, and total counts the matches', async () => {
    const byStatus = await list(alice, 'status=cancelled');
    expect(ids(byStatus).sort()).toEqual([...cancelled].sort());
    expect(byStatus.body.total).toBe(2);
    const byWorkflow = await list(alice, `workflowId=${OTHER.id}`);
    expect(ids(byWorkflow).sort()).toEqual([...ofOtherWorkflow].sort());
    const byProject = await list(alice, `projectId=${projectId}`);
    expect(ids(byProject).sort()).toEqual([...inProject].sort());
    expect(byProject.body.items.every((o: any) => o.projectId === projectId)).toBe(true);
    const combined = await list(alice, `projectId=${projectId}&status=cancelled`);
    expect(ids(combined)).toEqual(inProject.filter((id) => cancelled.includes(id)));

    // The three moved to 2020-01-20: after is inclusive, before exclusive.
    const moved = await list(alice, 'createdBefore=2020-01-21T00:00:00Z');
    expect(moved.body.total).toBe(3);
    const from = await list(alice, `createdAfter=${encodeURIComponent('2020-01-20T09:00:00.000200Z')}&createdBefore=2020-01-21T00:00:00Z`);
    expect(from.body.total).toBe(2);
    const before = await list(alice, `createdBefore=${encodeURIComponent('2020-01-20T09:00:00.000200Z')}`);
    expect(before.body.total).toBe(1);
    const recent = await list(alice, 'createdAfter=2020-01-21T00:00:00Z');
    expect(ids(recent)).toEqual(newestFirst.slice(0, 6));

    const bad = await list(alice, 'status=sleeping');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'status']);
  });

  it('pages by offset and limit, with the total on every page', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < 9; offset += 4) {
      const page = await list(alice, `offset=${offset}&limit=4`);
      expect(page.status).toBe(200);
      expect(page.body.total).toBe(9);
      seen.push(...ids(page));
    }
    expect(seen).toEqual(newestFirst);
    expect((await list(alice, 'offset=20')).body).toMatchObject({ items: [], total: 9, nextCursor: null });
  });

  it('pages by cursor through every page without gaps or repeats, even as new orders arrive', async () => {
    for (const limit of [1, 2, 4]) {
      const seen: string[] = [];
      let res = await list(alice, `limit=${limit}`);
      for (;;) {
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.total).toBeGreaterThanOrEqual(9);
        seen.push(...ids(res));
        if (res.body.nextCursor === null) break;
        expect(ids(res)).toHaveLength(limit);
        res = await list(alice, `limit=${limit}&cursor=${encodeURIComponent(res.body.nextCursor)}`);
      }
      expect(seen).toEqual(newestFirst);
    }
    // An order created between pages is newer than the cursor: it does not shift the pages that follow.
    const first = await list(alice, 'limit=3');
    const late = await plan(alice);
    const rest = await list(alice, `limit=100&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect([...ids(first), ...ids(rest)]).toEqual(newestFirst);
    expect(rest.body.total).toBe(10);
    expect(ids(await list(alice, 'limit=1'))).toEqual([late]);
    newestFirst.unshift(late);
  });

  it('refuses cursor and offset together, and a cursor it did not give out, with the contract’s validation error', async () => {
    const cursor = (await list(alice, 'limit=2')).body.nextCursor;
    const both = await list(alice, `offset=0&cursor=${encodeURIComponent(cursor)}`);
    expect(both.status).toBe(422);
    expect(both.body.detail).toEqual([expect.objectContaining({ type: 'custom', loc: ['query', 'offset'], input: '0' })]);
    expect(both.body.detail[0].msg).toMatch(/cursor or offset/);
    const forged = await list(alice, 'cursor=bm90LWEtY3Vyc29y');
    expect(forged.status).toBe(422);
    expect(forged.body.detail).toEqual([
      { type: 'cursor_invalid', loc: ['query', 'cursor'], msg: expect.any(String), input: 'bm90LWEtY3Vyc29y' },
    ]);
  });

  it('never shows another workspace’s orders', async () => {
    const mine = await list(bob, '');
    expect(ids(mine).sort()).toEqual([...bobsOrders].sort());
    expect(mine.body.total).toBe(2);
    expect(ids(mine).some((id) => newestFirst.includes(id))).toBe(false);
    // Naming Alice's workspace or project, or following a cursor into her list, shows nothing of hers.
    expect((await list(bob, `workspaceId=${alice.workspaceId}`)).status).toBe(404);
    expect((await list(bob, `projectId=${projectId}`)).status).toBe(404);
    const aliceCursor = (await list(alice, 'limit=1')).body.nextCursor;
    const followed = await list(bob, `cursor=${encodeURIComponent(aliceCursor)}`);
    expect(followed.status).toBe(200);
    expect(ids(followed).every((id) => bobsOrders.includes(id))).toBe(true);
  });
});
