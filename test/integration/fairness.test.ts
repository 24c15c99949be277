import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncBuiltinWorkflows } from '@atelier/db';
import { type Harness, type TestUser, registerUser, startHarness, waitForOrder } from '../support/harness';

/**
 * Priority and fairness on the real stack: the dev server runs with matching.enableFairness (temporal/
 * dev-server.json), runs and orders are started with their workspace as the fairness key and a priority key
 * (domain/priority.ts), and their children and activities inherit both.
 */
let h: Harness;
let a: TestUser;
let b: TestUser;

/** Each model call takes this long. On two cores the backlog builds up in the workflow task queue. */
const LATENCY_MS = 300;

/** Two model calls: a run is three workflow tasks and two activities. */
const TWO_STEPS = {
  id: 'build-two-steps',
  name: 'Two steps',
  version: '2026.11.01',
  artifactClass: 'knowledge',
  cadence: 'on-demand',
  intakeSchema: { fields: [{ name: 'topic', type: 'string', required: true }] },
  runtimeSteps: [1, 2].map((n) => ({
    id: `step-${n}`,
    name: `Write ${n}`,
    kind: 'llm',
    role: 'textGenerator',
    prompt: 'Write about "{{intake.topic}}"',
    jsonSchema: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } },
  })),
  gates: [],
  providers: { textGenerator: 'local/text-1' },
  budgetPolicy: {},
  artifactSchema: { artifactClass: 'knowledge', artifactType: 'article', files: ['application/json'], metadata: [] },
  outputShape: [{ artifactClass: 'knowledge', artifactType: 'article' }],
};

beforeAll(async () => {
  h = await startHarness({ localLatencyMs: LATENCY_MS });
  a = await registerUser(h, 'Bulk');
  b = await registerUser(h, 'Single');
  await syncBuiltinWorkflows(h.db, [TWO_STEPS as never]);
});
afterAll(() => h?.stop());

const createRun = (user: TestUser, topic: string, extra: Record<string, unknown> = {}) =>
  h.request('POST', '/v1/runs', { token: user.token, body: { templateId: TWO_STEPS.id, intake: { topic }, ...extra } });
const planOrder = (user: TestUser, count: number, extra: Record<string, unknown> = {}) =>
  h.request('POST', '/v1/orders', {
    token: user.token,
    body: {
      workflowId: TWO_STEPS.id,
      variationSpec: { resolver: 'list', params: { items: Array.from({ length: count }, (_, i) => ({ topic: `t${i}` })) } },
      ...extra,
    },
  });

/** Polls the read model until the run settles; answers how long it took from its creation, by the database's clock. */
async function settledIn(runId: string, timeoutMs = 120_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await h.db
      .selectFrom('runs')
      .select(['status', 'created_at', 'finished_at'])
      .where('id', '=', runId)
      .executeTakeFirstOrThrow();
    if (run.finished_at) {
      expect(run.status).toBe('completed');
      return run.finished_at.getTime() - run.created_at.getTime();
    }
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${run.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The priority Temporal recorded on an execution. */
async function priorityOf(workflowId: string) {
  const described = await h.temporal.workflow.getHandle(workflowId).describe();
  const p = described.raw.workflowExecutionInfo?.priority;
  return { priorityKey: p?.priorityKey ?? 0, fairnessKey: p?.fairnessKey ?? '' };
}

describe('the priority fields', () => {
  it('accepts high, normal and low on runs and orders, refuses anything else with a 422, and starts the workflow with them', async () => {
    for (const priority of ['urgent', 1, '']) {
      expect((await createRun(b, 'refused', { priority })).status).toBe(422);
      expect((await planOrder(b, 1, { priority })).status).toBe(422);
    }
    const high = await createRun(b, 'high', { priority: 'high' });
    expect(high.status, JSON.stringify(high.body)).toBe(201);
    const normal = await createRun(b, 'normal');
    await Promise.all([settledIn(high.body.id), settledIn(normal.body.id)]);
    expect(await priorityOf(high.body.id)).toEqual({ priorityKey: 1, fairnessKey: b.workspaceId });
    expect(await priorityOf(normal.body.id)).toEqual({ priorityKey: 2, fairnessKey: b.workspaceId });

    const order = await planOrder(b, 2, { priority: 'low' });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect(order.body).toMatchObject({ priority: 'low', maxConcurrency: null });
    expect((await planOrder(b, 1)).body).toMatchObject({ priority: 'normal' });
    expect((await h.request('POST', `/v1/orders/${order.body.id}/start`, { token: b.token })).status).toBe(200);
    expect((await waitForOrder(h, b.token, order.body.id)).status).toBe('completed');
    expect(await priorityOf(order.body.id)).toEqual({ priorityKey: 5, fairnessKey: b.workspaceId });
    // The children inherit the order's priority on the server: the workflow code gives them none.
    const children = await h.db.selectFrom('runs').select('id').where('parent_order_id', '=', order.body.id).execute();
    expect(children).toHaveLength(2);
    for (const child of children) expect(await priorityOf(child.id)).toEqual({ priorityKey: 5, fairnessKey: b.workspaceId });
  });
});

describe('maxConcurrency', () => {
  it('refuses a value outside 1..1000 or not whole with a 422', async () => {
    for (const maxConcurrency of [0, 1001, 2.5, '2', -1]) {
      const res = await planOrder(b, 1, { maxConcurrency });
      expect(res.status, `maxConcurrency ${JSON.stringify(maxConcurrency)}`).toBe(422);
    }
    expect((await planOrder(b, 1, { maxConcurrency: 1000 })).body).toMatchObject({ maxConcurrency: 1000 });
  });

  it('keeps at most that many children running at once', async () => {
    const order = await planOrder(b, 8, { maxConcurrency: 2 });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect(order.body.maxConcurrency).toBe(2);
    expect((await h.request('POST', `/v1/orders/${order.body.id}/start`, { token: b.token })).status).toBe(200);
    // The children's statuses in the read model, polled until the order settles: never more than two running.
    let most = 0;
    let settled = false;
    const done = waitForOrder(h, b.token, order.body.id).then((o) => {
      settled = true;
      return o;
    });
    while (!settled) {
      const running = await h.db
        .selectFrom('runs')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('parent_order_id', '=', order.body.id)
        .where('status', '=', 'running')
        .executeTakeFirstOrThrow();
      most = Math.max(most, Number(running.n));
      await new Promise((r) => setTimeout(r, 25));
    }
    expect((await done).counts.succeeded).toBe(8);
    expect(most).toBe(2);
  });
});

describe('fair shares', () => {
  it("serves workspace B's run in about its idle time while workspace A has hundreds of runs queued", async () => {
    // Idle: B's run alone, twice (the first warms the worker's caches); the quicker counts.
    const idle = Math.min(await settledIn((await createRun(b, 'idle 1')).body.id), await settledIn((await createRun(b, 'idle 2')).body.id));

    // A's backlog: 400 runs of the same template, all handed to Temporal before B asks.
    const backlog: string[] = [];
    for (let i = 0; i < 400; i += 40) {
      const created = await Promise.all(Array.from({ length: 40 }, (_, j) => createRun(a, `bulk ${i + j}`)));
      for (const res of created) {
        expect(res.status).toBe(201);
        backlog.push(res.body.id);
      }
    }
    for (;;) {
      const pending = await h.db
        .selectFrom('runs')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('workspace_id', '=', a.workspaceId)
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow();
      if (Number(pending.n) === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const waiting = async () =>
      Number(
        (
          await h.db
            .selectFrom('runs')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('workspace_id', '=', a.workspaceId)
            .where('status', 'not in', ['completed', 'failed', 'cancelled'])
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await waiting();

    const busy = await settledIn((await createRun(b, 'busy')).body.id);
    const after = await waiting();
    console.log(`fairness: B's run idle ${idle} ms, behind A's backlog ${busy} ms (A's unsettled runs: ${before} then ${after})`);
    // A's backlog was still there when B's run settled: B did not just wait for it to drain.
    expect(after).toBeGreaterThan(100);
    // Without priority and fairness keys it took 36 s here (behind an idle 0.8 s), so the margin hides nothing.
    expect(busy).toBeLessThanOrEqual(2 * idle + 2_000);
  }, 300_000);
});
