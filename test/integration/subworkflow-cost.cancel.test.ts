import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncBuiltinWorkflows } from '@atelier/db';
import { isTerminalRunStatus } from '@atelier/domain';
import { type Harness, registerUser, startHarness, waitForRun } from '../support/harness';

/**
 * A parent cancelled while its sub-workflow child has a model call in flight: the child finishes that step
 * (billed on the child) and settles on its own time, possibly after the parent. What it spent must still
 * reach the parent's subWorkflow step and total, up every level of the tree.
 */
let h: Harness;

function workflow(id: string, runtimeSteps: unknown[]) {
  return {
    id,
    name: id,
    version: '2026.11.01',
    artifactClass: 'knowledge',
    cadence: 'on-demand',
    intakeSchema: { fields: [{ name: 'text', type: 'string', required: true }] },
    runtimeSteps,
    gates: [],
    providers: { textGenerator: 'local/text-1' },
    budgetPolicy: {},
    artifactSchema: { artifactClass: 'knowledge', artifactType: 'article', files: ['application/json'], metadata: [] },
    outputShape: [{ artifactClass: 'knowledge', artifactType: 'article' }],
  };
}

const write = (id: string) => ({ id, name: `Write ${id}`, kind: 'llm', role: 'textGenerator', prompt: 'Write about "{{intake.text}}"' });
const child = (templateId: string) => ({
  id: 'child',
  name: `Run ${templateId}`,
  kind: 'subWorkflow',
  templateId,
  templateVersion: '2026.11.01',
  intakeMapping: { text: 'intake.text' },
});

const WORKFLOWS = [
  workflow('plan-cancel-leaf', [write('leaf'), write('leaf-again')]),
  workflow('compose-cancel-middle', [write('middle'), child('plan-cancel-leaf'), write('middle-after')]),
  workflow('compose-cancel-top', [write('top'), child('compose-cancel-middle'), write('top-after')]),
];

beforeAll(async () => {
  // Slow enough for the cancel to land while the leaf's first model call is in flight.
  h = await startHarness({ localLatencyMs: 1_500 });
  await syncBuiltinWorkflows(h.db, WORKFLOWS as never);
});
afterAll(() => h?.stop());

/** The run's sub-workflow child's id, once it is recorded. */
async function childIdOf(runId: string): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const row = await h.db.selectFrom('runs').select('id').where('parent_run_id', '=', runId).executeTakeFirst();
    if (row) return row.id;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`run ${runId} started no child`);
}

const stepOf = (run: any, id: string) => run.runSteps.find((s: any) => s.id === id);

/** A tree of compose-cancel-top whose leaf has its first model call in flight: the three ids, top first. */
async function treeInFlight(token: string): Promise<[string, string, string]> {
  const created = await h.request('POST', '/v1/runs', { token, body: { templateId: 'compose-cancel-top', intake: { text: 'kelp' } } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const topId = created.body.id;
  const middleId = await childIdOf(topId);
  const leafId = await childIdOf(middleId);
  // Its row written (startedAt), not only shown pending: a step's start is recorded 250 ms in
  // (STEP_START_DEFER_MS), and a stop before that is a different case, the step never having begun in the record.
  await waitForRun(
    h,
    token,
    leafId,
    (r) => r.status === 'running' && stepOf(r, 'leaf')?.status === 'pending' && !!stepOf(r, 'leaf')?.startedAt,
  );
  return [topId, middleId, leafId];
}

describe('a parent cancelled while its sub-workflow child spends', () => {
  it('shows the child’s spend on its subWorkflow step and in its total once the child settles, at every level', async () => {
    const u = await registerUser(h);
    const [topId, middleId, leafId] = await treeInFlight(u.token);
    const cancel = await h.request('POST', `/v1/runs/${topId}/cancel`, { token: u.token });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);

    const leaf = await waitForRun(h, u.token, leafId);
    const middle = await waitForRun(h, u.token, middleId);
    // A cancel reaches the whole tree: each parent ends cancelled, not failed by its cancelled child.
    expect((await waitForRun(h, u.token, topId)).status).toBe('cancelled');
    expect(middle.status).toBe('cancelled');
    // The leaf's step in flight finished and was billed, on the leaf.
    expect(stepOf(leaf, 'leaf').status).toBe('completed');
    expect(leaf.totalCosts.ownActualUsd).toBeGreaterThan(0);
    expect(isTerminalRunStatus(leaf.status)).toBe(true);

    // Read again: every run of the tree has settled now, whichever settled first.
    const read = async (id: string) => (await h.request('GET', `/v1/runs/${id}`, { token: u.token })).body;
    const [top, mid, lf] = [await read(topId), await read(middleId), await read(leafId)];
    expect(lf.totalCosts).toEqual(leaf.totalCosts);
    expect(mid.totalCosts).toEqual(middle.totalCosts);
    expect(stepOf(mid, 'child').costActualUsd).toBeCloseTo(lf.totalCosts.actualUsd, 6);
    expect(mid.totalCosts.actualUsd).toBeCloseTo(mid.totalCosts.ownActualUsd + lf.totalCosts.actualUsd, 6);
    expect(stepOf(top, 'child').costActualUsd).toBeCloseTo(mid.totalCosts.actualUsd, 6);
    expect(top.totalCosts.actualUsd).toBeCloseTo(top.totalCosts.ownActualUsd + mid.totalCosts.ownActualUsd + lf.totalCosts.ownActualUsd, 6);

    // Sums across runs still count each dollar once: every run adds its own spend.
    const own = top.totalCosts.ownActualUsd + mid.totalCosts.ownActualUsd + lf.totalCosts.ownActualUsd;
    const costs = await h.request('GET', `/v1/costs?workspaceId=${u.workspaceId}`, { token: u.token });
    expect(costs.body.totalUsd).toBeCloseTo(own, 6);
  });

  it('reaches a parent settled before its child, when the tree’s executions are gone', async () => {
    const u = await registerUser(h);
    const [topId, middleId, leafId] = await treeInFlight(u.token);
    // An operator ends the tree's executions: the gateway's cancel then settles each run from the read model,
    // the top first, while the leaf's model call is still in flight. (The top's close alone would only ask its
    // child to cancel, ParentClosePolicy REQUEST_CANCEL, and the child would settle itself.)
    for (const id of [topId, middleId, leafId])
      await h.temporal.workflow
        .getHandle(id)
        .terminate('test: the tree is stopped')
        .catch(() => undefined);
    for (const id of [topId, middleId, leafId]) {
      const cancel = await h.request('POST', `/v1/runs/${id}/cancel`, { token: u.token });
      expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
      await waitForRun(h, u.token, id);
    }
    const leaf = await waitForRun(h, u.token, leafId, (r) => stepOf(r, 'leaf').status === 'completed');
    expect(leaf.totalCosts.ownActualUsd).toBeGreaterThan(0);
    const read = async (id: string) => (await h.request('GET', `/v1/runs/${id}`, { token: u.token })).body;
    const [top, middle] = [await read(topId), await read(middleId)];
    expect(stepOf(middle, 'child').costActualUsd).toBeCloseTo(leaf.totalCosts.actualUsd, 6);
    expect(stepOf(top, 'child').costActualUsd).toBeCloseTo(middle.totalCosts.actualUsd, 6);
    expect(top.totalCosts.actualUsd).toBeCloseTo(
      top.totalCosts.ownActualUsd + middle.totalCosts.ownActualUsd + leaf.totalCosts.ownActualUsd,
      6,
    );
  });
});
