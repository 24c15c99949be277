import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRun, moveRunStatus, settleStartedStep, startStep } from '@atelier/db';
import { StepStartRecord } from '@atelier/engine/activities/step-start';
import { completedWithStep } from '@atelier/engine/settlement';
import { type Harness, type TestUser, registerUser, startHarness } from '../support/harness';
import { researchDefinition, researchRunRow } from '../support/run-rows';

/**
 * A step's start written late (StepStartRecord) against real PostgreSQL: a quick step's start goes in its
 * settlement's statement with the same rows and events, in the same order, as two statements would
 * write; a slow step's start is written on its own while it runs, and so is a start something else of the
 * step must follow (a provider call's record).
 */
let h: Harness;
let user: TestUser;
const outline = { stepIndex: 0, stepId: 'step-1', name: 'Outline the report', kind: 'llm' };

async function queuedRun(): Promise<string> {
  const id = `run-${randomBytes(4).toString('hex')}`;
  await insertRun(h.db, researchRunRow(id, user.workspaceId, 'queued', 'late starts'));
  return id;
}

const events = (runId: string) =>
  h.db.selectFrom('run_events').select(['seq', 'type', 'data']).where('run_id', '=', runId).orderBy('seq').execute();
const stepRow = (runId: string, stepIndex = 0) =>
  h.db.selectFrom('run_steps').selectAll().where('run_id', '=', runId).where('step_index', '=', stepIndex).executeTakeFirst();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  h = await startHarness({ worker: false });
  user = await registerUser(h);
});
afterAll(() => h?.stop());

describe('a step started and settled in one statement', () => {
  it('writes the start, the settlement, the run’s move and spend, the provider calls and the events in order', async () => {
    const runId = await queuedRun();
    const at = new Date(Date.now() - 40);
    const call = { runId, stepIndex: 0, stepAttempt: 1, callKey: `${runId}:0:a`, provider: 'local', model: 'local/text-1', costUsd: 0.002 };
    const settlement = {
      runId,
      stepIndex: 0,
      status: 'completed' as const,
      durationMs: 40,
      costActualUsd: 0.002,
      output: { title: 'Rivers' },
      providerCalls: [call],
      start: { runId, ...outline, at },
    };
    const run = await settleStartedStep(h.db, settlement, true);
    expect(run).toMatchObject({ id: runId, status: 'running', current_step_index: 0, actual_usd: '0.002000', event_seq: 4 });
    expect(run !== true && run?.started_at?.getTime()).toBe(at.getTime());
    expect((await events(runId)).map((e) => [e.seq, e.type, e.data])).toEqual([
      [1, 'run.status', { status: 'queued' }],
      [2, 'run.status', { status: 'running' }],
      [3, 'step.started', { stepIndex: 0, stepId: 'step-1', name: 'Outline the report', kind: 'llm' }],
      [4, 'step.completed', { stepIndex: 0, stepId: 'step-1', name: 'Outline the report', kind: 'llm', costActualUsd: 0.002 }],
    ]);
    const step = await stepRow(runId);
    expect(step).toMatchObject({ status: 'completed', attempts: 1, duration_ms: 40, output: { title: 'Rivers' } });
    expect(step?.started_at?.getTime()).toBe(at.getTime());
    expect(step?.finished_at).toBeInstanceOf(Date);

    // Begun before: nothing is written, the provider calls included.
    expect(await settleStartedStep(h.db, settlement, false)).toBeUndefined();
    expect(await events(runId)).toHaveLength(4);
    const calls = await h.db.selectFrom('provider_calls').select('call_key').where('run_id', '=', runId).execute();
    expect(calls.map((c) => c.call_key)).toEqual([call.callKey]);

    // The next step of the running run: its two events only.
    const next = { runId, stepIndex: 1, stepId: 'step-2', name: 'Write the sections', kind: 'llm', at: new Date() };
    expect(
      await settleStartedStep(
        h.db,
        { runId, stepIndex: 1, status: 'failed', error: 'no', errorCode: 'schema_violation', start: next },
        false,
      ),
    ).toBe(true);
    expect((await events(runId)).slice(4).map((e) => [e.seq, e.type])).toEqual([
      [5, 'step.started'],
      [6, 'step.failed'],
    ]);
  });

  it('leaves a run that is no longer waiting or running to the two statements', async () => {
    const runId = await queuedRun();
    await moveRunStatus(h.db, runId, 'cancelled');
    const start = { runId, ...outline, at: new Date() };
    expect(await settleStartedStep(h.db, { runId, stepIndex: 0, status: 'completed', output: {}, start }, false)).toBeUndefined();
    expect(await stepRow(runId)).toBeUndefined();
  });
});

describe('StepStartRecord', () => {
  it('writes a quick step’s start with its settlement', async () => {
    const runId = await queuedRun();
    const record = new StepStartRecord(h.db, { runId, ...outline }, 10_000);
    expect(await stepRow(runId)).toBeUndefined();
    const written = await record.settle({ runId, stepIndex: 0, status: 'completed', output: { title: 'T' }, costActualUsd: 0 }, false);
    expect(written).toEqual({});
    expect((await events(runId)).map((e) => e.type)).toEqual(['run.status', 'run.status', 'step.started', 'step.completed']);
    expect((await stepRow(runId))?.started_at?.getTime()).toBe(record.at.getTime());
  });

  it('writes a slow step’s start once it has run a while, so the step shows running', async () => {
    const runId = await queuedRun();
    const record = new StepStartRecord(h.db, { runId, ...outline }, 30);
    await sleep(10);
    expect(await stepRow(runId)).toBeUndefined();
    await sleep(120);
    expect(await stepRow(runId)).toMatchObject({ status: 'pending' });
    const written = await record.settle({ runId, stepIndex: 0, status: 'completed', output: {}, costActualUsd: 0 }, true);
    expect(written.run).toMatchObject({ id: runId, event_seq: 4 });
    expect((await stepRow(runId))?.status).toBe('completed');
  });

  it('writes the start first when something of the step must follow it, and returns a step settled earlier as it was', async () => {
    const runId = await queuedRun();
    const record = new StepStartRecord(h.db, { runId, ...outline }, 10_000);
    expect(await record.now()).toMatchObject({ status: 'pending', attempts: 1 });
    expect(await record.now()).toMatchObject({ status: 'pending', attempts: 1 });
    await record.settle({ runId, stepIndex: 0, status: 'completed', output: { title: 'first' }, costActualUsd: 0 }, false);

    // Another execution of the settled step (a reset workflow): the first settlement stands.
    const again = new StepStartRecord(h.db, { runId, ...outline }, 10_000);
    const written = await again.settle({ runId, stepIndex: 0, status: 'completed', output: { title: 'second' }, costActualUsd: 0 }, false);
    expect(written.earlier).toMatchObject({ status: 'completed', output: { title: 'first' } });
    expect((await startStep(h.db, { runId, ...outline })).output).toEqual({ title: 'first' });
    expect(await events(runId)).toHaveLength(4);
  });
});

/**
 * A quick step (its start never written) still in flight when its run was settled from the read model (a
 * cancel of a run with no execution, the dispatcher or the reconciler): what the provider billed it stays
 * billed to the run. The one-statement start and settlement write nothing for a settled run; the fallback
 * (startStep, then settleStep) records the step, its provider calls and its spend, without reopening the run.
 */
describe('a quick step of a run settled while it ran', () => {
  const calls = (runId: string, stepIndex: number) => [
    { runId, stepIndex, stepAttempt: 1, callKey: `${runId}:${stepIndex}:a`, provider: 'local', model: 'local/text-1', costUsd: 0.001 },
    { runId, stepIndex, stepAttempt: 1, callKey: `${runId}:${stepIndex}:b`, provider: 'local', model: 'local/text-1', costUsd: 0.002 },
  ];
  const runRow = (runId: string) =>
    h.db.selectFrom('runs').select(['status', 'actual_usd', 'finished_at']).where('id', '=', runId).executeTakeFirstOrThrow();
  const callKeys = async (runId: string) =>
    (await h.db.selectFrom('provider_calls').select('call_key').where('run_id', '=', runId).orderBy('call_key').execute()).map(
      (c) => c.call_key,
    );

  it('records the step, its provider calls and its spend on the cancelled run, once, and leaves the run cancelled', async () => {
    const runId = await queuedRun();
    const first = { runId, ...outline, at: new Date() };
    await settleStartedStep(h.db, { runId, stepIndex: 0, status: 'completed', output: {}, costActualUsd: 0.001, start: first }, false);
    const second = { runId, stepIndex: 1, stepId: 'step-2', name: 'Write the sections', kind: 'llm' };
    const record = new StepStartRecord(h.db, second, 10_000);
    await moveRunStatus(h.db, runId, 'cancelled');
    const cancelled = await runRow(runId);
    const seen = (await events(runId)).length;

    const settlement = {
      runId,
      stepIndex: 1,
      status: 'completed' as const,
      durationMs: 40,
      costActualUsd: 0.003,
      output: { sections: [] },
      providerCalls: calls(runId, 1),
    };
    expect(await record.settle(settlement, false)).toEqual({});
    expect(await stepRow(runId, 1)).toMatchObject({ status: 'completed', cost_actual_usd: '0.003000', attempts: 1 });
    expect(await runRow(runId)).toEqual({ ...cancelled, actual_usd: '0.004000' });
    expect(await callKeys(runId)).toEqual([`${runId}:1:a`, `${runId}:1:b`]);
    // The step's events, and no `run.status` running on a cancelled run.
    expect((await events(runId)).slice(seen).map((e) => e.type)).toEqual(['step.started', 'step.completed']);

    // Settled again (another execution of the step): the first settlement stands, nothing counted twice.
    const again = new StepStartRecord(h.db, second, 10_000);
    expect((await again.settle({ ...settlement, costActualUsd: 0.005 }, true)).earlier).toMatchObject({ status: 'completed' });
    expect((await runRow(runId)).actual_usd).toBe('0.004000');
    expect(await callKeys(runId)).toHaveLength(2);
    expect(await events(runId)).toHaveLength(seen + 2);
  });

  it('bills a last step that would have settled its run, the run as the cancel left it', async () => {
    const runId = await queuedRun();
    const record = new StepStartRecord(h.db, { runId, ...outline }, 10_000);
    await moveRunStatus(h.db, runId, 'cancelled');
    const cancelled = await runRow(runId);
    const settlement = {
      runId,
      stepIndex: 0,
      status: 'completed' as const,
      durationMs: 40,
      costActualUsd: 0.003,
      output: { title: 'Rivers' },
      providerCalls: calls(runId, 0),
    };
    const settles = completedWithStep(researchDefinition.artifactSchema, { id: `art-${runId}`, content: { title: 'Rivers' } }, null);
    const written = await record.settle(settlement, true, settles);
    expect(written.settled).toBeUndefined();
    expect(written.run).toMatchObject({ id: runId, status: 'cancelled', actual_usd: '0.003000' });
    expect(await runRow(runId)).toEqual({ ...cancelled, actual_usd: '0.003000' });
    expect(await stepRow(runId)).toMatchObject({ status: 'completed', cost_actual_usd: '0.003000' });
    expect(await callKeys(runId)).toEqual([`${runId}:0:a`, `${runId}:0:b`]);
    expect((await events(runId)).map((e) => e.type)).toEqual(['run.status', 'run.status', 'step.started', 'step.completed']);
  });
});
