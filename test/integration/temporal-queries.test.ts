import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import { ensureTemporalCli } from '@atelier/cli/stack/temporal-cli';
import { syncBuiltinWorkflows } from '@atelier/db';
import { type Harness, type TestUser, registerUser, startHarness, waitForOrder, waitForRun, executionClosed } from '../support/harness';

/**
 * The on-call queries of docs/operations.md ("On-call queries"), read from that table and run through the
 * real `temporal` CLI against the suite's dev server, over runs and orders this file produces: a
 * completed run, a failed one, a completed and an `attention` order, a run stuck `running` (its worker
 * stopped mid-step) and the same run lost (its execution terminated without settling).
 */
const execFileAsync = promisify(execFile);
let h: Harness;
let user: TestUser;
let cli: string;

/** One llm step and one code step that fails (deterministically, `step_invalid`) when asked to. */
const PROBE = {
  id: 'build-oncall-probe',
  name: 'On-call probe',
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

/** The "On-call queries" table of docs/operations.md: question → query, placeholders as written. */
async function documentedQueries(): Promise<Map<string, string>> {
  const doc = await readFile(path.join(PROJECT_ROOT, 'docs', 'operations.md'), 'utf8');
  const section = doc.split('\n### On-call queries\n')[1]?.split('\n#')[0];
  if (!section) throw new Error('docs/operations.md has no "On-call queries" section');
  const queries = new Map<string, string>();
  for (const [, question, query] of section.matchAll(/^\| ([^|`]+?) \| `([^`]+)` \|$/gm)) queries.set(question!, query!);
  return queries;
}

/** Fills the `<name>` placeholders of a documented query; every placeholder must be given. */
function fill(query: string, values: Record<string, string>): string {
  return query.replace(/<([a-z-]+)>/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for <${name}> in ${query}`);
    return value;
  });
}

/** `temporal workflow list --query … -o json`: the workflow ids it lists. */
async function list(query: string): Promise<string[]> {
  const { stdout } = await execFileAsync(
    cli,
    ['workflow', 'list', '--address', h.temporalAddress, '--namespace', 'default', '--query', query, '--output', 'json', '--limit', '1000'],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const executions = (stdout.trim() ? JSON.parse(stdout) : []) as Array<{ execution: { workflowId: string } }>;
  return executions.map((e) => e.execution.workflowId);
}

/**
 * Runs the query until, among the ids this file created, exactly `expected` come back (visibility is
 * eventually consistent). Other test files share the dev server, so ids that are not ours are ignored.
 */
async function expectListed(query: string, ours: string[], expected: string[], timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen: string[] = [];
  for (;;) {
    seen = (await list(query)).filter((id) => ours.includes(id)).sort();
    if (JSON.stringify(seen) === JSON.stringify([...expected].sort()) || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  expect(seen, query).toEqual([...expected].sort());
}

beforeAll(async () => {
  cli = await ensureTemporalCli();
  h = await startHarness({ worker: false });
  user = await registerUser(h);
  await syncBuiltinWorkflows(h.db, [PROBE as never]);
});
afterAll(() => h?.stop());

const startRun = async (intake: Record<string, unknown>) => {
  const res = await h.request('POST', '/v1/runs', { token: user.token, body: { templateId: PROBE.id, intake } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
};
const startOrder = async (items: Array<Record<string, unknown>>) => {
  const planned = await h.request('POST', '/v1/orders', {
    token: user.token,
    body: { workflowId: PROBE.id, variationSpec: { resolver: 'list', params: { items } } },
  });
  expect(planned.status, JSON.stringify(planned.body)).toBe(201);
  expect((await h.request('POST', `/v1/orders/${planned.body.id}/start`, { token: user.token })).status).toBe(200);
  return planned.body.id as string;
};
const childrenOf = async (orderId: string) =>
  (await h.db.selectFrom('runs').select('id').where('parent_order_id', '=', orderId).execute()).map((r) => r.id);

describe('the on-call queries of docs/operations.md, through the temporal CLI', () => {
  it('finds failed, stuck and lost runs, an order’s children, orders by status and a workspace’s runs', async () => {
    const queries = await documentedQueries();
    const query = (question: string, values: Record<string, string> = {}) => {
      const q = queries.get(question);
      if (!q) throw new Error(`docs/operations.md lists no query for "${question}" (it lists: ${[...queries.keys()].join('; ')})`);
      return fill(q, values);
    };
    expect([...queries.keys()]).toHaveLength(10);

    const worker = await h.startWorker();
    const completed = await startRun({ topic: 'a finished run' });
    const failed = await startRun({ topic: 'a failing run', fail: true });
    const done = await startOrder([{ topic: 'alpha' }, { topic: 'beta' }]);
    const short = await startOrder([{ topic: 'gamma' }, { topic: 'delta', fail: true }]);
    expect((await waitForRun(h, user.token, completed)).status).toBe('completed');
    expect(await waitForRun(h, user.token, failed)).toMatchObject({ status: 'failed', errorCode: 'step_invalid' });
    expect((await waitForOrder(h, user.token, done)).status).toBe('completed');
    expect((await waitForOrder(h, user.token, short)).status).toBe('attention');
    // Until each execution has closed; the failed run's ends Failed.
    const closed = await Promise.all([completed, failed, done, short].map((id) => executionClosed(h, id)));
    expect(closed.map((c) => c.status)).toEqual(['COMPLETED', 'FAILED', 'COMPLETED', 'COMPLETED']);
    const doneChildren = await childrenOf(done);
    const shortChildren = await childrenOf(short);
    expect(doneChildren).toHaveLength(2);
    expect(shortChildren).toHaveLength(2);

    // A run held for review: its execution waits open for the decision, then shows what was decided.
    const held = await h.request('POST', '/v1/runs', {
      token: user.token,
      body: { templateId: 'generate-product-shot', intake: { product: 'a tin cup' } },
    });
    expect((await waitForRun(h, user.token, held.body.id)).status).toBe('review');
    await expectListed(query('Runs waiting for a review decision'), [held.body.id], [held.body.id]);
    expect(
      (await h.request('POST', `/v1/queue/${held.body.id}/decision`, { token: user.token, body: { decision: 'reject' } })).status,
    ).toBe(200);
    await expectListed(query('Runs waiting for a review decision'), [held.body.id], []);
    await expectListed("ExecutionStatus = 'Completed' AND RunStatus = 'rejected'", [held.body.id], [held.body.id]);

    // A run left `running`: its worker (each model call takes 2 s here) stops during the first step and
    // nothing else polls the task queue.
    await worker.stop();
    const slow = await h.startWorker({ localLatencyMs: 2_000 });
    const stuck = await startRun({ topic: 'a stuck run' });
    await waitForRun(h, user.token, stuck, (r) => r.status === 'running');
    await slow.stop();
    const midway = await waitForRun(h, user.token, stuck, (r) => r.status === 'running');
    expect(midway.runSteps.map((s: any) => s.status)).toContain('pending');
    const cutoff = new Date().toISOString();

    const runs = [completed, failed, stuck, ...doneChildren, ...shortChildren];
    const ours = [...runs, done, short];
    const failedChild = (
      await h.db.selectFrom('runs').select('id').where('parent_order_id', '=', short).where('status', '=', 'failed').execute()
    ).map((r) => r.id);
    expect(failedChild).toHaveLength(1);

    await expectListed(query('Failed runs of a template', { 'template-id': PROBE.id }), ours, [failed, ...failedChild]);
    await expectListed(query("Run executions that ended Failed (the Web UI's failure count)", { 'template-id': PROBE.id }), ours, [
      failed,
      ...failedChild,
    ]);
    await expectListed(query('Stuck runs: started before a time, execution open, run not settled', { time: cutoff }), ours, [stuck]);
    await expectListed(query("An order's children", { 'order-id': short }), ours, shortChildren);
    await expectListed(query('Orders by status', { 'order-status': 'attention' }), ours, [short]);
    await expectListed(query('Orders by status', { 'order-status': 'completed' }), ours, [done]);
    await expectListed(query('Runs of a workspace', { 'workspace-id': user.workspaceId }), ours, runs);
    await expectListed(query('Lost runs: execution closed, run never settled'), ours, []);
    // Before a release drops a shape: what is still open from before a time, and what recorded a patch
    // (new runs record none).
    const openBefore = 'Open runs and orders started before a time (Retiring a workflow shape)';
    await expectListed(query(openBefore, { time: cutoff }), ours, [stuck]);
    await expectListed(query('Open executions that recorded a patch (Retiring a workflow shape)', { 'patch-id': 'one-marker' }), ours, []);

    // The stuck run's execution is terminated by hand: open no more, never settled.
    await h.temporal.workflow.getHandle(stuck).terminate('on-call query test');
    await expectListed(query('Stuck runs: started before a time, execution open, run not settled', { time: cutoff }), ours, []);
    await expectListed(query('Lost runs: execution closed, run never settled'), ours, [stuck]);
    await expectListed(query(openBefore, { time: cutoff }), ours, []);

    // The orders' histories (with their OrderStatus upserts) are replayed by replay.test.ts; recorded when
    // missing, or again with UPDATE_HISTORIES=1 (like replay.test.ts's own), as new orders record them
    // (OrderWorkflowInput.shape 4, its children settling by signal: `children-signal`). `*.deprecated-markers.json`
    // (shape 3, its patches deprecated) and `*.per-concurrency.json` (shape 3 with the markers patched()
    // records, b05201b's orders) stay beside them.
    for (const [name, id] of [
      ['order-completed', done],
      ['order-attention', short],
    ] as const) {
      const file = path.join(PROJECT_ROOT, 'test', 'histories', `${name}.children-signal.json`);
      if (!existsSync(file) || process.env.UPDATE_HISTORIES === '1')
        await writeFile(file, `${historyToJSON(await h.temporal.workflow.getHandle(id).fetchHistory())}\n`);
    }
  }, 180_000);
});
