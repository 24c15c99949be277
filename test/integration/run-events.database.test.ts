import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ANNOUNCED_DATA_MAX_BYTES,
  type AnnouncedRunEvent,
  appendRunEvent,
  createBudget,
  emitArtifact,
  insertRun,
  insertRunIf,
  markCancelRequested,
  moveRunStatus,
  settleStep,
  settleStepReturningRun,
  startStep,
} from '@atelier/db';
import { type Harness, type TestUser, registerUser, startHarness } from '../support/harness';
import { researchDefinition, researchRunRow } from '../support/run-rows';

/**
 * A run's event log against real PostgreSQL: numbers are taken from the run's counter (runs.event_seq),
 * so appenders that hold no lock of their own still get distinct, gapless numbers, and a step's start
 * and settlement (one statement each) write their events in the order the run went through them.
 */
let h: Harness;
let user: TestUser;
const definition = researchDefinition;

async function queuedRun(): Promise<string> {
  const id = `run-${randomBytes(4).toString('hex')}`;
  await insertRun(h.db, runRow(id));
  return id;
}

function runRow(id: string, workspaceId = user.workspaceId) {
  return researchRunRow(id, workspaceId, 'queued', 'event numbers');
}

const events = (runId: string) =>
  h.db.selectFrom('run_events').select(['seq', 'type', 'data']).where('run_id', '=', runId).orderBy('seq').execute();

beforeAll(async () => {
  h = await startHarness({ worker: false });
  user = await registerUser(h);
});
afterAll(() => h?.stop());

describe('run event numbers', () => {
  it('are distinct and gapless for concurrent appenders holding no lock', async () => {
    const runId = await queuedRun();
    const seqs = await Promise.all(Array.from({ length: 24 }, (_, i) => appendRunEvent(h.db, runId, 'test.concurrent', { i })));
    expect([...seqs].sort((a, b) => a - b)).toEqual(Array.from({ length: 24 }, (_, i) => i + 2));
    const run = await h.db.selectFrom('runs').select('event_seq').where('id', '=', runId).executeTakeFirstOrThrow();
    expect(run.event_seq).toBe(25);
  });

  it('follow a run through its first step, a retried start, a settlement and a repeated one', async () => {
    const runId = await queuedRun();
    const step = { runId, stepIndex: 0, stepId: 'step-1', name: 'Outline the report', kind: 'llm' };
    const first = await startStep(h.db, step);
    expect(first).toMatchObject({ status: 'pending', attempts: 1, step_id: 'step-1' });
    const running = await h.db.selectFrom('runs').select(['status', 'started_at']).where('id', '=', runId).executeTakeFirstOrThrow();
    expect(running.status).toBe('running');
    expect(running.started_at).toBeInstanceOf(Date);

    expect(await startStep(h.db, step)).toMatchObject({ status: 'pending', attempts: 2 });
    const calls = [
      { runId, stepIndex: 0, stepAttempt: 2, callKey: `${runId}:0:a`, provider: 'local', model: 'local/text-1', costUsd: 0.0012 },
    ];
    expect(
      await settleStep(h.db, {
        runId,
        stepIndex: 0,
        status: 'completed',
        costActualUsd: 0.001,
        output: { title: 'T' },
        providerCalls: calls,
      }),
    ).toBe(true);
    expect(await settleStep(h.db, { runId, stepIndex: 0, status: 'completed', costActualUsd: 0.5, output: { title: 'again' } })).toBe(
      false,
    );
    await startStep(h.db, { ...step, stepIndex: 1, stepId: 'step-2', name: 'Write the sections' });

    expect((await events(runId)).map((e) => [e.seq, e.type])).toEqual([
      [1, 'run.status'],
      [2, 'run.status'],
      [3, 'step.started'],
      [4, 'step.completed'],
      [5, 'step.started'],
    ]);
    const [, movedTo, , completed] = await events(runId);
    expect(movedTo!.data).toEqual({ status: 'running' });
    expect(completed!.data).toEqual({ stepIndex: 0, stepId: 'step-1', name: 'Outline the report', kind: 'llm', costActualUsd: 0.001 });
    const run = await h.db
      .selectFrom('runs')
      .select(['actual_usd', 'current_step_index'])
      .where('id', '=', runId)
      .executeTakeFirstOrThrow();
    expect(Number(run.actual_usd)).toBe(0.001);
    expect(run.current_step_index).toBe(1);
    const recorded = await h.db
      .selectFrom('provider_calls')
      .select(['call_key', 'step_attempt', 'cost_usd'])
      .where('run_id', '=', runId)
      .execute();
    expect(recorded.map((c) => [c.call_key, c.step_attempt, Number(c.cost_usd)])).toEqual([[`${runId}:0:a`, 2, 0.0012]]);
  });

  it('number a settlement’s artifact.created before its run.status, and leave a backward or repeated move alone', async () => {
    const runId = await queuedRun();
    const artifact = (id: string, status: string, title: string) => ({
      id,
      run_id: runId,
      workspace_id: user.workspaceId,
      project_id: null,
      template_id: definition.id,
      title,
      status,
      artifact_class: 'research',
      artifact_type: 'research-report',
      content: JSON.stringify({ title }),
      qa: JSON.stringify([]),
    });
    expect(await moveRunStatus(h.db, runId, 'pending')).toBeUndefined();
    const running = await moveRunStatus(h.db, runId, 'running');
    expect(running).toMatchObject({ id: runId, status: 'running', event_seq: 2 });
    expect(running!.started_at).toBeInstanceOf(Date);

    const draftId = `artifact-${randomBytes(4).toString('hex')}`;
    await emitArtifact(h.db, runId, artifact(draftId, 'draft', 'Draft'));
    const settled = await moveRunStatus(h.db, runId, 'completed', {}, artifact(draftId, 'ready', 'Final'));
    expect(settled).toMatchObject({ status: 'completed', artifact_id: draftId, event_seq: 4 });
    expect(settled!.finished_at).toBeInstanceOf(Date);
    // A settlement after the run ended writes nothing, not even its artifact.
    expect(await moveRunStatus(h.db, runId, 'failed', { error: 'late' }, artifact(draftId, 'draft', 'Late'))).toBeUndefined();

    const other = await queuedRun();
    const newId = `artifact-${randomBytes(4).toString('hex')}`;
    expect(await moveRunStatus(h.db, other, 'completed', {}, artifact(newId, 'ready', 'New'))).toMatchObject({ event_seq: 3 });

    expect((await events(runId)).map((e) => [e.seq, e.type, e.data])).toEqual([
      [1, 'run.status', { status: 'queued' }],
      [2, 'run.status', { status: 'running' }],
      [3, 'artifact.created', { artifactId: draftId }],
      [4, 'run.status', { status: 'completed' }],
    ]);
    expect((await events(other)).map((e) => [e.seq, e.type])).toEqual([
      [1, 'run.status'],
      [2, 'artifact.created'],
      [3, 'run.status'],
    ]);
    const written = await h.db
      .selectFrom('artifacts')
      .select(['id', 'title', 'status'])
      .where('run_id', 'in', [runId, other])
      .orderBy('title')
      .execute();
    expect(written).toEqual([
      { id: draftId, title: 'Final', status: 'ready' },
      { id: newId, title: 'New', status: 'ready' },
    ]);
  });

  it('are announced with their number, type, status, time and data as recorded, so a stream need not read them back', async () => {
    const runId = await queuedRun();
    const heard: AnnouncedRunEvent[] = [];
    // The run's first event (seq 1, its insert) may be heard late: only what the steps append counts.
    const unsubscribe = await h.events.subscribe(runId, (event) => {
      if (event && event.seq >= 2) heard.push(event);
    });
    try {
      await startStep(h.db, { runId, stepIndex: 0, stepId: 'step-1', name: 'Outline the report', kind: 'llm' });
      await settleStep(h.db, { runId, stepIndex: 0, status: 'completed', output: { title: 'Rivers' }, costActualUsd: 0 });
      await moveRunStatus(h.db, runId, 'completed');
      await vi.waitFor(() => expect(heard).toHaveLength(4), { timeout: 10_000 });
    } finally {
      unsubscribe();
    }
    heard.sort((a, b) => a.seq - b.seq);
    expect(heard.map(({ data: _d, at: _a, ...named }) => named)).toEqual([
      { runId, seq: 2, type: 'run.status', status: 'running' },
      { runId, seq: 3, type: 'step.started' },
      { runId, seq: 4, type: 'step.completed' },
      { runId, seq: 5, type: 'run.status', status: 'completed' },
    ]);
    // What the stream sends from an announcement is what it would send from the row: same data, same time.
    const rows = await h.db.selectFrom('run_events').selectAll().where('run_id', '=', runId).where('seq', '>=', 2).orderBy('seq').execute();
    expect(heard.map((e) => ({ data: JSON.parse(e.data!), at: new Date(e.at!).toISOString() }))).toEqual(
      rows.map((r) => ({ data: r.data, at: r.created_at.toISOString() })),
    );
  });

  it('are announced without their data when it is too large for a notification, to be read from the table', async () => {
    const runId = await queuedRun();
    const heard: AnnouncedRunEvent[] = [];
    // The run's first event (seq 1, its insert) may be heard late: only what this test appends counts.
    const unsubscribe = await h.events.subscribe(runId, (event) => {
      if (event && event.seq >= 2) heard.push(event);
    });
    try {
      await appendRunEvent(h.db, runId, 'test.large', { text: 'x'.repeat(ANNOUNCED_DATA_MAX_BYTES) });
      await appendRunEvent(h.db, runId, 'test.small', { text: 'x'.repeat(ANNOUNCED_DATA_MAX_BYTES - 20) });
      await vi.waitFor(() => expect(heard).toHaveLength(2), { timeout: 10_000 });
    } finally {
      unsubscribe();
    }
    expect(heard[0]).toEqual({ runId, seq: 2, type: 'test.large' });
    expect(JSON.parse(heard[1]!.data!)).toEqual({ text: 'x'.repeat(ANNOUNCED_DATA_MAX_BYTES - 20) });
  });

  it('record a run with its start command in one guarded statement only while no budget applies', async () => {
    const other = await registerUser(h);
    const guard = () => ({ workspaceId: other.workspaceId, projectId: null });
    const first = `run-${randomBytes(4).toString('hex')}`;
    expect(await insertRunIf(h.db, runRow(first, other.workspaceId), 'start_run', guard())).toMatchObject({ id: first, event_seq: 1 });
    await createBudget(h.db, {
      id: `budget-${randomBytes(8).toString('hex')}`,
      workspace_id: other.workspaceId,
      project_id: null,
      scope: 'workspace',
      limit_usd: 10,
      period: 'month',
      enforcement_mode: 'hard_stop',
    });
    const second = `run-${randomBytes(4).toString('hex')}`;
    expect(await insertRunIf(h.db, runRow(second, other.workspaceId), 'start_run', guard())).toBeUndefined();
    const commands = await h.db
      .selectFrom('engine_commands')
      .select(['kind', 'target_id'])
      .where('target_id', 'in', [first, second])
      .execute();
    expect(commands).toEqual([{ kind: 'start_run', target_id: first }]);
    const runs = await h.db.selectFrom('runs').select('id').where('id', 'in', [first, second]).execute();
    expect(runs).toEqual([{ id: first }]);
    expect((await events(first)).map((e) => e.type)).toEqual(['run.status']);
  });

  it('leave a run whose cancel was asked for to its workflow when the move says so', async () => {
    const runId = await queuedRun();
    await startStep(h.db, { runId, stepIndex: 0, stepId: 'step-1', name: 'Outline the report', kind: 'llm' });
    await markCancelRequested(h.db, { runId });
    expect(await moveRunStatus(h.db, runId, 'completed', {}, undefined, { unlessCancelRequested: true })).toBeUndefined();
    const row = await h.db.selectFrom('runs').select(['status', 'cancel_requested_at']).where('id', '=', runId).executeTakeFirstOrThrow();
    expect(row.status).toBe('running');
    expect(row.cancel_requested_at).toBeInstanceOf(Date);
    expect(await moveRunStatus(h.db, runId, 'cancelled')).toMatchObject({ status: 'cancelled' });
    // A settled run is left alone by a later request.
    await markCancelRequested(h.db, { runId: await queuedRun() });
    const other = await queuedRun();
    await moveRunStatus(h.db, other, 'completed');
    await markCancelRequested(h.db, { runId: other });
    expect(
      (await h.db.selectFrom('runs').select('cancel_requested_at').where('id', '=', other).executeTakeFirstOrThrow()).cancel_requested_at,
    ).toBeNull();
  });

  it('settle a step and return the run as it left it, once', async () => {
    const runId = await queuedRun();
    await startStep(h.db, { runId, stepIndex: 0, stepId: 'step-1', name: 'Outline the report', kind: 'llm' });
    const settled = { runId, stepIndex: 0, status: 'completed' as const, output: { title: 'Rivers' }, costActualUsd: 0.25 };
    const run = await settleStepReturningRun(h.db, settled);
    expect(run).toMatchObject({ id: runId, status: 'running', actual_usd: '0.250000', event_seq: 4 });
    expect(run?.definition).toEqual(definition);
    expect((await events(runId)).map((e) => e.type)).toEqual(['run.status', 'run.status', 'step.started', 'step.completed']);
    expect(await settleStepReturningRun(h.db, settled)).toBeUndefined();
    expect(await events(runId)).toHaveLength(4);
  });
});
