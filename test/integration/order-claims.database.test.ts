import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrderActivities } from '@atelier/engine/activities/orders';
import { type Harness, type TestUser, registerUser, startHarness } from '../support/harness';

/**
 * The order workflow's claim of its next children against real PostgreSQL. Temporal retries an activity
 * whose worker died before reporting it, even when its transaction had committed: the retry of a claim must
 * hand over the children that attempt claimed, not claim others and leave those pending with nothing to
 * start them (the order then settles `attention` with children it never ran).
 */
let h: Harness;
let user: TestUser;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  user = await registerUser(h);
});
afterAll(() => h?.stop());

async function plannedOrder(children: number): Promise<string> {
  const planned = await h.request('POST', '/v1/orders', {
    token: user.token,
    body: {
      workflowId: 'plan-research-report',
      variationSpec: { resolver: 'list', params: { items: Array.from({ length: children }, (_, i) => ({ topic: `claim ${i}` })) } },
    },
  });
  expect(planned.status).toBe(201);
  return planned.body.id;
}

const statuses = async (orderId: string) =>
  (await h.db.selectFrom('runs').select('status').where('parent_order_id', '=', orderId).execute()).map((r) => r.status).sort();

describe('claiming an order’s children', () => {
  it('gives a retried claim the children its first attempt claimed, and claims none besides', async () => {
    const orderId = await plannedOrder(5);
    const { claimOrderChildren } = createOrderActivities(h.db);

    const first = await claimOrderChildren({ orderId, limit: 2, claim: 'execution-a/1' });
    expect(first).toHaveLength(2);
    // The same claim again, as Temporal retries it when the first attempt's completion was lost.
    const retried = await claimOrderChildren({ orderId, limit: 2, claim: 'execution-a/1' });
    expect(retried.map((c) => c.runId)).toEqual(first.map((c) => c.runId));
    expect(await statuses(orderId)).toEqual(['pending', 'pending', 'planned', 'planned', 'planned']);

    const next = await claimOrderChildren({ orderId, limit: 2, claim: 'execution-a/2' });
    expect(next).toHaveLength(2);
    expect(next.filter((c) => first.some((f) => f.runId === c.runId))).toEqual([]);
    const last = await claimOrderChildren({ orderId, limit: 2, claim: 'execution-a/3' });
    expect(last).toHaveLength(1);
    expect(await claimOrderChildren({ orderId, limit: 2, claim: 'execution-a/4' })).toEqual([]);
    expect(await statuses(orderId)).toEqual(['pending', 'pending', 'pending', 'pending', 'pending']);

    // Each child was claimed once: one `pending` event each.
    const events = await h.db
      .selectFrom('run_events')
      .innerJoin('runs', 'runs.id', 'run_events.run_id')
      .select(['run_events.run_id', 'run_events.data'])
      .where('runs.parent_order_id', '=', orderId)
      .where('run_events.type', '=', 'run.status')
      .execute();
    expect(events.filter((e) => (e.data as { status?: string }).status === 'pending')).toHaveLength(5);
  });

  it('hands a retried claim only the children still waiting to start', async () => {
    const orderId = await plannedOrder(3);
    const { claimOrderChildren } = createOrderActivities(h.db);
    const first = await claimOrderChildren({ orderId, limit: 2, claim: 'execution-b/1' });
    // One of them was cancelled meanwhile (the order's cancel cancels unstarted children).
    await h.db.updateTable('runs').set({ status: 'cancelled' }).where('id', '=', first[0]!.runId).execute();
    const retried = await claimOrderChildren({ orderId, limit: 2, claim: 'execution-b/1' });
    expect(retried.map((c) => c.runId)).toEqual([first[1]!.runId]);
    expect(await statuses(orderId)).toEqual(['cancelled', 'pending', 'planned']);
  });
});
