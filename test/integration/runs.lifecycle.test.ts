import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetRunToLastWorkflowTask } from '@atelier/engine/operations';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun, executionClosed } from '../support/harness';

let h: Harness;
let user: TestUser;

beforeAll(async () => {
  h = await startHarness({ localLatencyMs: 150 });
  user = await registerUser(h);
});
afterAll(() => h?.stop());

const create = async (templateId: string, intake: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
  const res = await h.request('POST', '/v1/runs', { token: user.token, body: { templateId, intake, ...extra } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
};

/** What a lost finalization looks like: every step recorded, no artifact, no terminal status. */
async function loseFinalization(runId: string) {
  await h.db.updateTable('runs').set({ status: 'running', artifact_id: null, finished_at: null }).where('id', '=', runId).execute();
  await h.db.deleteFrom('artifacts').where('run_id', '=', runId).execute();
}

describe('finalize', () => {
  it('writes the artifact and terminal status from the recorded steps when the workflow is gone, running no step again', async () => {
    const runId = await create('plan-research-report', { topic: 'finalization' });
    const done = await waitForRun(h, user.token, runId);
    await executionClosed(h, runId);
    const before = await h.db.selectFrom('run_steps').selectAll().where('run_id', '=', runId).orderBy('step_index').execute();
    await loseFinalization(runId);

    const res = await h.request('POST', `/v1/runs/${runId}/finalize`, { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('completed');
    const artifact = await h.request('GET', `/v1/artifacts/${res.body.artifactId}`, { token: user.token });
    expect(artifact.body.content).toEqual(before[2]!.output);
    const after = await h.db.selectFrom('run_steps').selectAll().where('run_id', '=', runId).orderBy('step_index').execute();
    expect(after.map((s) => [s.attempts, s.cost_actual_usd, s.finished_at?.getTime()])).toEqual(
      before.map((s) => [s.attempts, s.cost_actual_usd, s.finished_at?.getTime()]),
    );
    expect(res.body.totalCosts.actualUsd).toBe(done.totalCosts.actualUsd);
  });

  it('puts a run with an approval gate back in review', async () => {
    const runId = await create('generate-product-shot', { product: 'a kettle' });
    await waitForRun(h, user.token, runId);
    // Its execution stays open, waiting for the decision: the live workflow answers the update with the
    // review it settled, and the read model, lost since, is settled again from the recorded steps.
    expect((await h.temporal.workflow.getHandle(runId).describe()).status.name).toBe('RUNNING');
    await loseFinalization(runId);
    const res = await h.request('POST', `/v1/runs/${runId}/finalize`, { token: user.token });
    expect(res.body).toMatchObject({ status: 'review', reviewGate: { id: 'client-approval' } });
  });

  it('refuses a terminal run, and a run with steps still to run (checked by the live workflow too)', async () => {
    const done = await create('plan-research-report', { topic: 'done already' });
    await waitForRun(h, user.token, done);
    const terminal = await h.request('POST', `/v1/runs/${done}/finalize`, { token: user.token });
    expect(terminal.status).toBe(409);
    expect(terminal.body.detail).toMatchObject({ code: 'invalid_transition', status: 'completed' });

    const slow = await create('plan-research-report', { topic: 'still going' });
    await waitForRun(h, user.token, slow, (r) => r.status === 'running');
    const early = await h.request('POST', `/v1/runs/${slow}/finalize`, { token: user.token });
    expect(early.status).toBe(409);
    expect(early.body.detail.message).toMatch(/steps that have not completed/);

    // The read model claims every step is done; the live workflow knows better and refuses the update.
    const liar = await create('plan-research-report', { topic: 'a lying read model' });
    await waitForRun(h, user.token, liar, (r) => r.status === 'running');
    // Lock the run first, in the same order as the worker's step writes, so the two never deadlock.
    await h.db.transaction().execute(async (tx) => {
      await tx.selectFrom('runs').select('id').where('id', '=', liar).forUpdate().execute();
      for (const [index, id] of ['step-1', 'step-2', 'step-3'].entries()) {
        await tx
          .insertInto('run_steps')
          .values({ run_id: liar, step_index: index, step_id: id, name: id, kind: 'llm', status: 'completed' })
          .onConflict((oc) => oc.columns(['run_id', 'step_index']).doUpdateSet({ status: 'completed' }))
          .execute();
      }
    });
    const refused = await h.request('POST', `/v1/runs/${liar}/finalize`, { token: user.token });
    expect(refused.status).toBe(409);
    expect(refused.body.detail.message).toMatch(/still to run/);
  });
});

describe('archive and move', () => {
  it('archives only terminal runs, hides them from lists, and shows them with includeArchived', async () => {
    const runId = await create('plan-research-report', { topic: 'archiving' });
    const early = await h.request('POST', `/v1/runs/${runId}/archive`, { token: user.token });
    expect(early.status).toBe(409);
    await waitForRun(h, user.token, runId);
    const archived = await h.request('POST', `/v1/runs/${runId}/archive`, { token: user.token });
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ archived: true, status: 'completed' });
    expect((await h.request('POST', `/v1/runs/${runId}/archive`, { token: user.token })).status).toBe(200);
    const listed = await h.request('GET', '/v1/runs?limit=100', { token: user.token });
    expect(listed.body.items.map((r: any) => r.id)).not.toContain(runId);
    const all = await h.request('GET', '/v1/runs?limit=100&includeArchived=true', { token: user.token });
    expect(all.body.items.map((r: any) => r.id)).toContain(runId);
  });

  it('moves a run and its artifact between projects of its workspace, or to workspace level', async () => {
    const project = await h.request('POST', `/v1/workspaces/${user.workspaceId}/projects`, {
      token: user.token,
      body: { name: 'Spring campaign' },
    });
    expect(project.status).toBe(201);
    const runId = await create('plan-research-report', { topic: 'moving' });
    const run = await waitForRun(h, user.token, runId);
    const moved = await h.request('PATCH', `/v1/runs/${runId}/project`, { token: user.token, body: { projectId: project.body.id } });
    expect(moved.status).toBe(200);
    expect(moved.body.projectId).toBe(project.body.id);
    expect((await h.request('GET', `/v1/artifacts/${run.artifactId}`, { token: user.token })).body.projectId).toBe(project.body.id);
    const filtered = await h.request('GET', `/v1/runs?projectId=${project.body.id}`, { token: user.token });
    expect(filtered.body.items.map((r: any) => r.id)).toEqual([runId]);
    const back = await h.request('PATCH', `/v1/runs/${runId}/project`, { token: user.token, body: { projectId: null } });
    expect(back.body.projectId).toBeNull();

    const missingKey = await h.request('PATCH', `/v1/runs/${runId}/project`, { token: user.token, body: {} });
    expect(missingKey.status).toBe(422);
    expect(missingKey.body.detail[0].loc).toEqual(['body', 'projectId']);
    const other = await registerUser(h, 'Other');
    const foreignProject = await h.request('POST', `/v1/workspaces/${other.workspaceId}/projects`, {
      token: other.token,
      body: { name: 'Theirs' },
    });
    const crossing = await h.request('PATCH', `/v1/runs/${runId}/project`, {
      token: user.token,
      body: { projectId: foreignProject.body.id },
    });
    expect(crossing.status).toBe(404);
  });
});

describe('reset', () => {
  it('replays a live run from its last completed workflow task without running or billing a completed step twice', async () => {
    const runId = await create('plan-research-report', { topic: 'a stuck run' });
    const deadline = Date.now() + 30_000;
    while (
      !(await h.db
        .selectFrom('run_steps')
        .select('status')
        .where('run_id', '=', runId)
        .where('step_index', '=', 0)
        .where('status', '=', 'completed')
        .executeTakeFirst())
    ) {
      if (Date.now() > deadline) throw new Error('step 1 never completed');
      await new Promise((r) => setTimeout(r, 50));
    }
    const before = (await h.temporal.workflow.getHandle(runId).describe()).runId;
    const executionId = await resetRunToLastWorkflowTask(h.temporal, runId, 'test reset');
    expect(executionId).not.toBe(before);
    const run = await waitForRun(h, user.token, runId);
    expect(run.status).toBe('completed');
    const events = await h.db.selectFrom('run_events').selectAll().where('run_id', '=', runId).execute();
    for (const index of [0, 1, 2])
      expect(events.filter((e) => e.type === 'step.completed' && (e.data as any).stepIndex === index)).toHaveLength(1);
    const steps = await h.db.selectFrom('run_steps').selectAll().where('run_id', '=', runId).execute();
    expect(run.totalCosts.actualUsd).toBeCloseTo(
      steps.reduce((s, x) => s + Number(x.cost_actual_usd), 0),
      6,
    );
  });
});
