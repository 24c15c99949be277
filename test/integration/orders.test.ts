import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncBuiltinWorkflows } from '@atelier/db';
import { type Harness, type TestUser, registerUser, startHarness, waitForOrder } from '../support/harness';

let h: Harness;
let user: TestUser;

/** A one-step workflow whose child fails (deterministically) when its intake asks it to. */
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

beforeAll(async () => {
  h = await startHarness({ orderConcurrency: 3 });
  user = await registerUser(h);
  await syncBuiltinWorkflows(h.db, [MAYBE as never]);
});
afterAll(() => h?.stop());

const plan = (body: Record<string, unknown>) => h.request('POST', '/v1/orders', { token: user.token, body });
const children = async (orderId: string) =>
  (await h.request('GET', `/v1/runs?parentOrderId=${orderId}&limit=100&includeArchived=true`, { token: user.token })).body.items as any[];

describe('planning an order', () => {
  it('plans distinct variations as planned child runs, collapses duplicates, and runs and spends nothing', async () => {
    const res = await plan({
      workflowId: 'plan-research-report',
      intakeBase: { depth: 'brief' },
      variationSpec: {
        resolver: 'list',
        params: { items: [{ topic: 'owls' }, { topic: 'larks' }, { topic: 'owls' }, { topic: 'wrens', depth: 'deep' }] },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const order = res.body;
    expect(order).toMatchObject({
      status: 'planned',
      workflowId: 'plan-research-report',
      workflowVersion: '2026.11.01',
      targetCount: 3,
      executionMode: 'standard',
      currency: 'USD',
      actualCostUsd: 0,
    });
    expect(order.id).toMatch(/^order-[0-9a-f]{16}$/);
    expect(order.counts).toEqual({ planned: 3, running: 0, succeeded: 0, failed: 0, skipped: 1, cancelled: 0 });
    expect(order.estimatedCostUsd).toBeGreaterThan(0);
    const kids = await children(order.id);
    expect(kids).toHaveLength(3);
    for (const kid of kids)
      expect(kid).toMatchObject({ status: 'planned', parentOrderId: order.id, orderDedupeKey: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(kids.map((k) => k.intake).sort((a, b) => a.topic.localeCompare(b.topic))).toEqual([
      { topic: 'larks', depth: 'brief' },
      { topic: 'owls', depth: 'brief' },
      { topic: 'wrens', depth: 'deep' },
    ]);
    const steps = await h.db
      .selectFrom('run_steps')
      .select('run_id')
      .where(
        'run_id',
        'in',
        kids.map((k) => k.id),
      )
      .execute();
    expect(steps).toEqual([]);
  });

  it('resolves matrix and csv variations, converting csv cells to the intake types', async () => {
    const matrix = await plan({
      workflowId: 'plan-research-report',
      variationSpec: { resolver: 'matrix', params: { axes: { topic: ['a', 'b', 'c'], depth: ['brief', 'deep'] } } },
    });
    expect(matrix.body.counts.planned).toBe(6);
    const csv = await plan({
      workflowId: 'build-maybe',
      variationSpec: { resolver: 'csv', params: { csv: 'topic,fail\n"tea, green",false\ncoffee,true\n' } },
    });
    expect(csv.status, JSON.stringify(csv.body)).toBe(201);
    const kids = await children(csv.body.id);
    expect(kids.map((k) => k.intake).sort((a, b) => a.topic.localeCompare(b.topic))).toEqual([
      { topic: 'coffee', fail: true },
      { topic: 'tea, green', fail: false },
    ]);
  });

  it('refuses bad variations with a 422 naming the variation and its fields', async () => {
    const bad = await plan({
      workflowId: 'plan-research-report',
      variationSpec: { resolver: 'list', params: { items: [{ topic: 'ok' }, { depth: 'vast' }, { topic: 'x', colour: 'red' }] } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.error).toBe('intake_invalid');
    expect(bad.body.detail.variations).toEqual([
      { index: 1, fields: ['topic is required', 'depth must be one of brief, standard, deep (got "vast")'] },
      { index: 2, fields: ['colour is not an intake field of plan-research-report'] },
    ]);
    const csvColumn = await plan({
      workflowId: 'plan-research-report',
      variationSpec: { resolver: 'csv', params: { csv: 'topic,mood\nrain,glum\n' } },
    });
    expect(csvColumn.status).toBe(422);
    expect(csvColumn.body.detail.fields).toEqual(['variation 0: mood is not an intake field of plan-research-report']);
    const malformed = await plan({
      workflowId: 'plan-research-report',
      variationSpec: { resolver: 'csv', params: { csv: 'topic,depth\n"unclosed,brief\n' } },
    });
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail).toMatchObject({ error: 'variations_invalid', message: expect.stringMatching(/does not parse/) });
    const empty = await plan({ workflowId: 'plan-research-report', variationSpec: { resolver: 'list', params: { items: [] } } });
    expect(empty.status).toBe(422);
    expect(empty.body.detail[0].loc).toEqual(['body', 'variationSpec', 'params', 'items']);
    const tooMany = await plan({
      workflowId: 'plan-research-report',
      targetCount: 3,
      variationSpec: { resolver: 'list', params: { items: [{ topic: 'a' }, { topic: 'b' }] } },
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.detail[0]).toMatchObject({ loc: ['body', 'targetCount'], input: 3 });
    for (const budgetLimitUsd of [-1, 1e12, 'lots']) {
      const absurd = await plan({
        workflowId: 'plan-research-report',
        budgetLimitUsd,
        variationSpec: { resolver: 'list', params: { items: [{ topic: 'a' }] } },
      });
      expect(absurd.status).toBe(422);
      expect(absurd.body.detail[0].loc).toEqual(['body', 'budgetLimitUsd']);
    }
    const unknown = await plan({ workflowId: 'plan-nothing', variationSpec: { resolver: 'list', params: { items: [{ topic: 'a' }] } } });
    expect(unknown.status).toBe(404);
  });

  it('refuses an estimate over the order cap with 402 and the full refusal body', async () => {
    const res = await plan({
      workflowId: 'plan-research-report',
      budgetLimitUsd: 0.001,
      variationSpec: { resolver: 'list', params: { items: [{ topic: 'a' }, { topic: 'b' }] } },
    });
    expect(res.status).toBe(402);
    expect(res.body.detail).toEqual({
      code: 'budget_exceeded',
      reason: 'hard_stop',
      budgetId: null,
      scope: 'order',
      enforcementMode: 'hard_stop',
      limitUsd: 0.001,
      spendUsd: 0,
      runEstimateUsd: expect.any(Number),
      remainingUsd: 0.001,
    });
    expect(res.body.detail.runEstimateUsd).toBeGreaterThan(0.001);
  });

  it('refuses batch mode for an order featuring a character', async () => {
    const res = await plan({
      workflowId: 'generate-product-shot',
      executionMode: 'batch',
      variationSpec: { resolver: 'list', params: { items: [{ product: 'a mug', characterId: 'char-1' }] } },
    });
    expect(res.status).toBe(400);
    expect(res.body.detail.code).toBe('character_batch_unsupported');
  });
});

describe('running an order', () => {
  it('starts, runs every child, and rolls up counts and cost from the children', async () => {
    const planned = await plan({
      workflowId: 'plan-research-report',
      variationSpec: {
        resolver: 'list',
        params: { items: ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta'].map((topic) => ({ topic })) },
      },
    });
    const start = await h.request('POST', `/v1/orders/${planned.body.id}/start`, { token: user.token });
    expect(start.status).toBe(200);
    expect(start.body.status).toBe('running');
    const again = await h.request('POST', `/v1/orders/${planned.body.id}/start`, { token: user.token });
    expect(again.status).toBe(409);
    const order = await waitForOrder(h, user.token, planned.body.id);
    expect(order.status).toBe('completed');
    expect(order.counts).toMatchObject({ planned: 0, running: 0, succeeded: 7, failed: 0 });
    const kids = await children(order.id);
    expect(kids.every((k) => k.status === 'completed')).toBe(true);
    const sum = kids.reduce((s, k) => s + k.totalCosts.actualUsd, 0);
    expect(order.actualCostUsd).toBeCloseTo(sum, 6);
    const described = await h.temporal.workflow.getHandle(kids[0].id).describe();
    expect(described.parentExecution?.workflowId).toBe(order.id);
    // Children are claimed ahead, as many as the concurrency (3) at a time, not one claim per child started:
    // 3 + 3 + 1, then one that finds nothing left.
    const history = await h.temporal.workflow.getHandle(order.id).fetchHistory();
    const claims = (history.events ?? []).filter(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'claimOrderChildren',
    );
    expect(claims).toHaveLength(4);
    const converter = h.temporal.options.loadedDataConverter.payloadConverter;
    const limits = claims.map(
      (e) => converter.fromPayload<{ limit: number }>(e.activityTaskScheduledEventAttributes!.input!.payloads![0]!).limit,
    );
    // Each claim asks for a whole batch, even when one slot is free (one claim per free slot would ask for 1 or 2).
    expect(limits).toEqual([3, 3, 3, 3]);
  });

  it('completes once targetCount children succeeded and cancels the children never started', async () => {
    const planned = await plan({
      workflowId: 'plan-research-report',
      targetCount: 2,
      variationSpec: { resolver: 'list', params: { items: Array.from({ length: 9 }, (_, i) => ({ topic: `t${i}` })) } },
    });
    await h.request('POST', `/v1/orders/${planned.body.id}/start`, { token: user.token });
    const order = await waitForOrder(
      h,
      user.token,
      planned.body.id,
      (o) => o.status === 'completed' && o.counts.running === 0 && o.counts.planned === 0,
    );
    expect(order.counts.succeeded).toBeGreaterThanOrEqual(2);
    // At most the target, plus whatever was in flight (concurrency 3) when it was reached, ever started.
    expect(order.counts.succeeded).toBeLessThanOrEqual(2 + 3 + 1);
    expect(order.counts.cancelled).toBeGreaterThanOrEqual(3);
    expect(order.counts.succeeded + order.counts.cancelled).toBe(9);
  });

  it('needs attention when some children fail, then settles short with the reason kept', async () => {
    const planned = await plan({
      workflowId: 'build-maybe',
      variationSpec: { resolver: 'list', params: { items: [{ topic: 'fine' }, { topic: 'broken', fail: true }] } },
    });
    await h.request('POST', `/v1/orders/${planned.body.id}/start`, { token: user.token });
    const order = await waitForOrder(h, user.token, planned.body.id);
    expect(order.status).toBe('attention');
    expect(order.counts).toMatchObject({ succeeded: 1, failed: 1 });
    const missingReason = await h.request('POST', `/v1/orders/${order.id}/accept-gap`, { token: user.token, body: {} });
    expect(missingReason.status).toBe(422);
    const settled = await h.request('POST', `/v1/orders/${order.id}/accept-gap`, {
      token: user.token,
      body: { reason: 'one variation is enough for the pitch' },
    });
    expect(settled.body).toMatchObject({ status: 'completed', acceptGapReason: 'one variation is enough for the pitch' });
  });

  it('retries failed children (deterministic ones only when asked), never re-running a succeeded key, with every attempt billed', async () => {
    const planned = await plan({
      workflowId: 'build-maybe',
      variationSpec: { resolver: 'list', params: { items: [{ topic: 'fine' }, { topic: 'broken', fail: true }] } },
      tags: ['retry-me'],
      metadata: { batch: '7' },
    });
    await h.request('POST', `/v1/orders/${planned.body.id}/start`, { token: user.token });
    const first = await waitForOrder(h, user.token, planned.body.id);
    expect(first.status).toBe('attention');
    const skipped = await h.request('POST', `/v1/orders/${first.id}/retry-failed`, { token: user.token, body: { all: true } });
    expect(skipped.status).toBe(200);
    expect(skipped.body.retried).toEqual([]);
    const failedChild = (await children(first.id)).find((k) => k.status === 'failed');
    const retried = await h.request('POST', `/v1/orders/${first.id}/retry-failed`, {
      token: user.token,
      body: { runIds: [failedChild.id], includeDeterministic: true },
    });
    expect(retried.body.retried).toHaveLength(1);
    expect(retried.body.order.status).toBe('running');
    const second = await waitForOrder(h, user.token, first.id);
    expect(second.status).toBe('attention');
    const kids = await children(first.id);
    expect(kids).toHaveLength(3);
    // The fresh attempt keeps the order's tags and metadata, as its first attempt had them.
    for (const k of kids) expect(k).toMatchObject({ tags: ['retry-me'], metadata: { batch: '7' } });
    const byKey = new Map<string, any[]>();
    for (const k of kids) byKey.set(k.orderDedupeKey, [...(byKey.get(k.orderDedupeKey) ?? []), k]);
    expect([...byKey.values()].map((v) => v.length).sort()).toEqual([1, 2]);
    expect(second.actualCostUsd).toBeCloseTo(
      kids.reduce((s, k) => s + k.totalCosts.actualUsd, 0),
      6,
    );
    expect(second.actualCostUsd).toBeGreaterThan(first.actualCostUsd);
    const unknownChild = await h.request('POST', `/v1/orders/${first.id}/retry-failed`, {
      token: user.token,
      body: { runIds: ['run-00000000'] },
    });
    expect(unknownChild.status).toBe(422);
    const neither = await h.request('POST', `/v1/orders/${first.id}/retry-failed`, { token: user.token, body: {} });
    expect(neither.status).toBe(422);
  });

  it('fails an order that cannot complete: every child failed in a way that would repeat', async () => {
    const planned = await plan({
      workflowId: 'build-maybe',
      variationSpec: {
        resolver: 'list',
        params: {
          items: [
            { topic: 'x', fail: true },
            { topic: 'y', fail: true },
          ],
        },
      },
    });
    await h.request('POST', `/v1/orders/${planned.body.id}/start`, { token: user.token });
    const order = await waitForOrder(h, user.token, planned.body.id);
    expect(order.status).toBe('failed');
    expect(order.failureReason).toMatch(/includeDeterministic/);
  });

  it('cancels a planned order and a running one', async () => {
    const idle = await plan({
      workflowId: 'plan-research-report',
      variationSpec: { resolver: 'list', params: { items: [{ topic: 'a' }, { topic: 'b' }] } },
    });
    const cancelled = await h.request('POST', `/v1/orders/${idle.body.id}/cancel`, { token: user.token });
    expect(cancelled.body).toMatchObject({ status: 'cancelled', counts: { cancelled: 2, planned: 0 } });
    expect((await h.request('POST', `/v1/orders/${idle.body.id}/start`, { token: user.token })).status).toBe(409);
    const busy = await plan({
      workflowId: 'plan-research-report',
      variationSpec: { resolver: 'list', params: { items: Array.from({ length: 12 }, (_, i) => ({ topic: `b${i}` })) } },
    });
    await h.request('POST', `/v1/orders/${busy.body.id}/start`, { token: user.token });
    await h.request('POST', `/v1/orders/${busy.body.id}/cancel`, { token: user.token });
    const order = await waitForOrder(h, user.token, busy.body.id, (o) => o.status === 'cancelled' && o.counts.running === 0);
    expect(order.counts.planned).toBe(0);
    expect(order.counts.succeeded + order.counts.cancelled + order.counts.failed).toBe(12);
    expect((await h.request('POST', `/v1/orders/${busy.body.id}/cancel`, { token: user.token })).status).toBe(409);
  });

  it('runs a batch order at half the price of a standard one', async () => {
    const items = [{ topic: 'identical intake for pricing' }];
    const standard = await plan({ workflowId: 'plan-research-report', variationSpec: { resolver: 'list', params: { items } } });
    await h.request('POST', `/v1/orders/${standard.body.id}/start`, { token: user.token });
    const s = await waitForOrder(h, user.token, standard.body.id);
    // The pack's plan is an artifact of the same workspace (the standard order's report will do).
    const planArtifactId = (await children(s.id))[0].artifactId;
    const foreign = await plan({
      workflowId: 'plan-research-report',
      planArtifactId: 'artifact-packplan0001',
      variationSpec: { resolver: 'list', params: { items } },
    });
    expect(foreign.status).toBe(422);
    expect(foreign.body.detail).toMatchObject({ code: 'artifact_not_found' });
    const batch = await plan({
      workflowId: 'plan-research-report',
      executionMode: 'batch',
      planArtifactId,
      variationSpec: { resolver: 'list', params: { items } },
    });
    expect(batch.body.estimatedCostUsd).toBeCloseTo(standard.body.estimatedCostUsd / 2, 6);
    await h.request('POST', `/v1/orders/${batch.body.id}/start`, { token: user.token });
    const b = await waitForOrder(h, user.token, batch.body.id);
    expect(b.actualCostUsd).toBeCloseTo(s.actualCostUsd / 2, 5);
    const child = (await children(b.id))[0];
    const artifact = await h.db.selectFrom('artifacts').selectAll().where('id', '=', child.artifactId).executeTakeFirstOrThrow();
    expect(artifact).toMatchObject({ pack_id: planArtifactId, pack_member_id: `member-${child.orderDedupeKey.slice(0, 16)}` });
  });
});
