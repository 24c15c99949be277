import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import { syncBuiltinWorkflows } from '@atelier/db';
import { SEARCH_ATTRIBUTES } from '@atelier/engine/workflows/search-attributes';
import { type Harness, type TestUser, executionClosed, registerUser, startHarness, waitForOrder, waitForRun } from '../support/harness';

/**
 * A run held for review keeps its Temporal execution open until the review queue decides it, then shows the
 * decided status in `RunStatus` and closes (run shape 6): Temporal's view stays true after a decision, for a
 * run started through the API, an order's child (the order closes while its children wait) and a
 * sub-workflow child (its parent goes on without waiting for the child's execution).
 */
let h: Harness;
let user: TestUser;

const PARENT = {
  id: 'compose-held-shot',
  name: 'Held shot (review status)',
  version: '2026.11.01',
  artifactClass: 'visual',
  cadence: 'on-demand',
  intakeSchema: { fields: [{ name: 'text', type: 'string', required: true }] },
  runtimeSteps: [
    {
      id: 'shot',
      name: 'Shoot the product',
      kind: 'subWorkflow',
      templateId: 'generate-product-shot',
      templateVersion: '2026.11.01',
      intakeMapping: { product: 'intake.text' },
    },
  ],
  gates: [],
  providers: {},
  budgetPolicy: {},
  artifactSchema: { artifactClass: 'visual', artifactType: 'product-shot', files: ['image/webp'], metadata: [] },
  outputShape: [{ artifactClass: 'visual', artifactType: 'product-shot' }],
};

beforeAll(async () => {
  // Model calls take a moment, so an order's children are still running when it is stopped.
  h = await startHarness({ localLatencyMs: 300 });
  user = await registerUser(h);
  await syncBuiltinWorkflows(h.db, [PARENT as never]);
});
afterAll(() => h?.stop());

/** The run's execution as Temporal describes it: open or how it closed, and the `RunStatus` it shows. */
async function execution(runId: string): Promise<{ status: string; runStatus: unknown }> {
  const described = await h.temporal.workflow.getHandle(runId).describe();
  return { status: described.status.name, runStatus: described.typedSearchAttributes.get(SEARCH_ATTRIBUTES.RunStatus) };
}

/** Polls the execution until it reads `expected` (the decision reaches it through the dispatcher's outbox). */
async function expectExecution(runId: string, expected: { status: string; runStatus: string }, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen = await execution(runId);
  while (JSON.stringify(seen) !== JSON.stringify(expected) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    seen = await execution(runId);
  }
  expect(seen, runId).toEqual(expected);
}

const OPEN_IN_REVIEW = { status: 'RUNNING', runStatus: 'review' };

/**
 * Keeps the history of a parent that heard a child settle by signal in test/histories, which replay.test.ts
 * replays against the workflow code (recorded when missing, or again with UPDATE_HISTORIES=1).
 */
async function record(name: string, workflowId: string): Promise<void> {
  const file = path.join(PROJECT_ROOT, 'test', 'histories', `${name}.json`);
  if (existsSync(file) && process.env.UPDATE_HISTORIES !== '1') return;
  await writeFile(file, `${historyToJSON(await h.temporal.workflow.getHandle(workflowId).fetchHistory())}\n`);
}

async function reviewRun(product: string): Promise<string> {
  const created = await h.request('POST', '/v1/runs', {
    token: user.token,
    body: { templateId: 'generate-product-shot', intake: { product } },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await waitForRun(h, user.token, created.body.id)).status).toBe('review');
  return created.body.id;
}

/** An order of one child per item, planned and started. */
async function startOrder(workflowId: string, items: Array<Record<string, unknown>>): Promise<string> {
  const planned = await h.request('POST', '/v1/orders', {
    token: user.token,
    body: { workflowId, variationSpec: { resolver: 'list', params: { items } } },
  });
  expect(planned.status, JSON.stringify(planned.body)).toBe(201);
  expect((await h.request('POST', `/v1/orders/${planned.body.id}/start`, { token: user.token })).status).toBe(200);
  return planned.body.id;
}

const decide = async (runId: string, body: Record<string, unknown>) => {
  const res = await h.request('POST', `/v1/queue/${runId}/decision`, { token: user.token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

describe('RunStatus after a review decision', () => {
  it('keeps a run in review open, then closes it showing what was decided: approved, rejected or changes requested', async () => {
    const [approved, rejected, changed] = (await Promise.all(['a tin lantern', 'a brass bell', 'a cork stool'].map(reviewRun))) as [
      string,
      string,
      string,
    ];
    for (const id of [approved, rejected, changed]) await expectExecution(id, OPEN_IN_REVIEW);

    expect((await decide(approved, { decision: 'approve', patch: { usage: 'web' } })).status).toBe('completed');
    expect((await decide(rejected, { decision: 'reject', note: 'off brand' })).status).toBe('rejected');
    expect((await decide(changed, { decision: 'request_changes' })).status).toBe('changes_requested');

    await expectExecution(approved, { status: 'COMPLETED', runStatus: 'completed' });
    await expectExecution(rejected, { status: 'COMPLETED', runStatus: 'rejected' });
    await expectExecution(changed, { status: 'COMPLETED', runStatus: 'changes_requested' });
    // The workflow's result is the decided run.
    expect(await h.temporal.workflow.getHandle(rejected).result()).toMatchObject({ runId: rejected, status: 'rejected' });
    // Each decision went through the outbox as one `decide_run` command, delivered at its first attempt.
    const commands = await h.db
      .selectFrom('engine_commands')
      .select(['target_id', 'attempts', 'done_at'])
      .where('kind', '=', 'decide_run')
      .where('target_id', 'in', [approved, rejected, changed])
      .execute();
    expect(commands).toHaveLength(3);
    for (const c of commands) expect(c).toMatchObject({ attempts: 1, done_at: expect.any(Date) });
  });

  it('lets an order close while its children wait in review, each closing when decided', async () => {
    const orderId = await startOrder('generate-product-shot', [{ product: 'a felt hat' }, { product: 'a wool scarf' }]);
    const order = await waitForOrder(h, user.token, orderId);
    expect(order.status).toBe('completed');
    // The order's execution closed (its children, started with ParentClosePolicy REQUEST_CANCEL, ignore it in review)...
    expect((await executionClosed(h, order.id)).status).toBe('COMPLETED');
    const children = await h.db.selectFrom('runs').select(['id', 'status']).where('parent_order_id', '=', order.id).execute();
    expect(children.map((c) => c.status)).toEqual(['review', 'review']);
    // ...while theirs wait for the decisions.
    for (const child of children) await expectExecution(child.id, OPEN_IN_REVIEW);

    await decide(children[0]!.id, { decision: 'approve', patch: { usage: 'print' } });
    await expectExecution(children[0]!.id, { status: 'COMPLETED', runStatus: 'completed' });
    await decide(children[1]!.id, { decision: 'reject' });
    await expectExecution(children[1]!.id, { status: 'COMPLETED', runStatus: 'rejected' });
    await record('order-children-in-review.children-signal', order.id);
    await record('child-run-in-review.quick-steps', children[0]!.id);
  });

  it('asks the children still running to cancel when an order’s execution is terminated', async () => {
    const orderId = await startOrder('plan-research-report', [{ topic: 'fens' }, { topic: 'moors' }]);
    await waitForOrder(h, user.token, orderId, (o) => o.counts.running === 2, 30_000);
    await h.temporal.workflow.getHandle(orderId).terminate('test: on-call stops the order');
    // ParentClosePolicy REQUEST_CANCEL: each child stops at its next step boundary and settles itself.
    const children = await h.db.selectFrom('runs').select('id').where('parent_order_id', '=', orderId).execute();
    for (const child of children) {
      expect((await waitForRun(h, user.token, child.id)).status).toBe('cancelled');
      expect((await executionClosed(h, child.id)).status).toBe('CANCELLED');
    }
  });

  it('tells a parent run its sub-workflow child settled in review without the child’s execution closing', async () => {
    const created = await h.request('POST', '/v1/runs', {
      token: user.token,
      body: { templateId: PARENT.id, intake: { text: 'a clay pot' } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // A child held for review fails its parent's step (sub_workflow_failed), as it did before; the parent no
    // longer waits for the child's execution to close, which now waits for the decision.
    const parent = await waitForRun(h, user.token, created.body.id);
    expect(parent).toMatchObject({ status: 'failed', errorCode: 'sub_workflow_failed' });
    expect(parent.error).toMatch(/ended review/);
    const child = await h.db.selectFrom('runs').select(['id', 'status']).where('parent_run_id', '=', parent.id).executeTakeFirstOrThrow();
    expect(child.status).toBe('review');
    await expectExecution(parent.id, { status: 'FAILED', runStatus: 'failed' });
    await expectExecution(child.id, OPEN_IN_REVIEW);

    await decide(child.id, { decision: 'approve', patch: { usage: 'social' } });
    await expectExecution(child.id, { status: 'COMPLETED', runStatus: 'completed' });
    await record('sub-workflow-in-review.quick-steps', parent.id);
  });
});
