import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, registerUser, spawnAtelierWorker, startHarness, waitForOrder } from '../support/harness';

let h: Harness;
let user: TestUser;
const workers: ChildProcess[] = [];

function spawnWorker(): ChildProcess {
  const child = spawnAtelierWorker(h, 300);
  workers.push(child);
  return child;
}

beforeAll(async () => {
  h = await startHarness({ worker: false, orderConcurrency: 4 });
  user = await registerUser(h);
});
afterAll(async () => {
  for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
  await h?.stop();
});

describe('a worker killed mid-order', () => {
  it('lets the order complete on another worker with no child run twice and exact counts and costs', async () => {
    const first = spawnWorker();
    const planned = await h.request('POST', '/v1/orders', {
      token: user.token,
      body: {
        workflowId: 'plan-research-report',
        variationSpec: { resolver: 'list', params: { items: Array.from({ length: 12 }, (_, i) => ({ topic: `crash ${i}` })) } },
      },
    });
    expect(planned.status).toBe(201);
    const orderId = planned.body.id;
    expect((await h.request('POST', `/v1/orders/${orderId}/start`, { token: user.token })).status).toBe(200);

    await waitForOrder(h, user.token, orderId, (o) => o.counts.succeeded >= 3, 120_000);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const midway = await h.request('GET', `/v1/orders/${orderId}`, { token: user.token });
    expect(midway.body.status).toBe('running');
    expect(midway.body.counts.succeeded).toBeLessThan(12);

    spawnWorker();
    const order = await waitForOrder(h, user.token, orderId, undefined, 150_000);
    const unsettled = await h.db
      .selectFrom('runs')
      .select(['id', 'status', 'error_code', 'error', 'failure_details'])
      .where('parent_order_id', '=', orderId)
      .where('status', '!=', 'completed')
      .execute();
    expect(order.status, JSON.stringify(unsettled)).toBe('completed');
    expect(order.counts).toMatchObject({ planned: 0, running: 0, succeeded: 12, failed: 0, cancelled: 0 });

    const runs = await h.db.selectFrom('runs').selectAll().where('parent_order_id', '=', orderId).execute();
    expect(runs).toHaveLength(12);
    expect(new Set(runs.map((r) => r.order_dedupe_key)).size).toBe(12);
    const events = await h.db
      .selectFrom('run_events')
      .selectAll()
      .where(
        'run_id',
        'in',
        runs.map((r) => r.id),
      )
      .execute();
    for (const run of runs) {
      for (const index of [0, 1, 2]) {
        expect(
          events.filter((e) => e.run_id === run.id && e.type === 'step.completed' && (e.data as any).stepIndex === index),
        ).toHaveLength(1);
      }
      expect(events.filter((e) => e.run_id === run.id && e.type === 'artifact.created')).toHaveLength(1);
    }
    const steps = await h.db
      .selectFrom('run_steps')
      .select('cost_actual_usd')
      .where(
        'run_id',
        'in',
        runs.map((r) => r.id),
      )
      .execute();
    expect(order.actualCostUsd).toBeCloseTo(
      steps.reduce((s, x) => s + Number(x.cost_actual_usd), 0),
      6,
    );
  }, 300_000);
});
