import { type RawBuilder, type Transaction, sql } from 'kysely';
import { isTerminalRunStatus, roundUsd } from '@atelier/domain';
import { type Db, type Executor, inTransaction } from './connect';
import { engineCommandRow } from './engine-commands';
import { artifactUpsert, moveRunStatus } from './run-moves';
import { announceRunEvent } from './run-announce';
import { type ProviderCallRecord, insertProviderCalls } from './provider-calls';
import type { Database, RunsTable } from './schema';
import type { EngineCommandKind } from './schema-engine';
import type { Insertable, Selectable } from 'kysely';

export type RunRow = Selectable<RunsTable>;
export type RunStepRow = Selectable<Database['run_steps']>;

export { type AnnouncedRunEvent, RUN_EVENTS_CHANNEL, announceRunEvent, parseRunEventAnnouncement } from './run-announce';

/**
 * Appends an event to the run's ordered log and announces it, in one statement: the event takes the next
 * number from the run's `event_seq`, and that increment's row lock orders concurrent appenders.
 */
export async function appendRunEvent(tx: Executor, runId: string, type: string, data: unknown): Promise<number> {
  const { rows } = await sql<{ seq: number }>`
    WITH run AS (UPDATE runs SET event_seq = event_seq + 1 WHERE id = ${runId} RETURNING event_seq),
    appended AS (
      INSERT INTO run_events (run_id, seq, type, data)
      SELECT ${runId}, event_seq, ${type}, ${JSON.stringify(data)}::jsonb FROM run
      RETURNING seq, type, data)
    SELECT seq, ${announceRunEvent(runId)} FROM appended`.execute(tx);
  if (!rows[0]) throw new Error(`run ${runId} is not in the database: its event ${type} has nowhere to go`);
  return rows[0].seq;
}

export async function lockRun(tx: Transaction<Database>, runId: string): Promise<RunRow | undefined> {
  return tx.selectFrom('runs').selectAll().where('id', '=', runId).forUpdate().executeTakeFirst();
}

/**
 * Inserts a run and its first event, in one statement; with `command`, the engine's command for the run
 * (start_run) is recorded by the same statement.
 */
export async function insertRun(db: Executor, run: Insertable<RunsTable>, command?: EngineCommandKind): Promise<RunRow> {
  return (await insertRunIf(db, run, command))!;
}

/**
 * insertRun, but only if `condition` holds when the statement runs; undefined when it did not (nothing
 * was written). A request judged against budgets uses it to skip their transaction when none applies.
 */
export async function insertRunIf(
  db: Executor,
  run: Insertable<RunsTable>,
  command?: EngineCommandKind,
  condition?: RawBuilder<boolean>,
): Promise<RunRow | undefined> {
  const values = { ...run, event_seq: 1 };
  const insert = condition
    ? db
        .insertInto('runs')
        .columns(columnsOf(values))
        .expression(sql`SELECT ${valuesOf(values)} WHERE ${condition}`)
        .returningAll()
    : db.insertInto('runs').values(values).returningAll();
  const recordCommand = command ? sql`, command AS (${commandFor(db, command, run.id)})` : sql``;
  const { rows } = await sql<RunRow & { announced: unknown }>`
    WITH run AS (${insert}),
    appended AS (
      INSERT INTO run_events (run_id, seq, type, data)
      SELECT id, 1, 'run.status', jsonb_build_object('status', status) FROM run
      RETURNING seq, type, data)${recordCommand}
    SELECT run.*, ${announceRunEvent(run.id)} AS announced FROM run, appended`.execute(db);
  if (!rows[0]) return undefined;
  const { announced: _, ...row } = rows[0];
  return row;
}

/** The run's engine command, recorded only with the run (the insert may have been skipped). */
function commandFor(db: Executor, command: EngineCommandKind, runId: string) {
  const row = engineCommandRow(command, runId);
  return db
    .insertInto('engine_commands')
    .columns(columnsOf(row))
    .expression(sql`SELECT ${valuesOf(row)} FROM run`);
}

/**
 * A row's columns and values for an INSERT ... SELECT (one that may insert nothing). The SELECT's untyped
 * parameters take the target columns' types, as a VALUES list's would.
 */
const columnsOf = <T extends object>(row: T) => (Object.keys(row) as Array<keyof T & string>).filter((k) => row[k] !== undefined);
const valuesOf = <T extends object>(row: T) => sql.join(columnsOf(row).map((k) => row[k]));

export async function getRunRow(db: Executor, runId: string): Promise<RunRow | undefined> {
  return db.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirst();
}

export async function getRunSteps(db: Executor, runId: string): Promise<RunStepRow[]> {
  return db.selectFrom('run_steps').selectAll().where('run_id', '=', runId).orderBy('step_index').execute();
}

/** Recomputes the run's actual cost as the sum of its steps: retries overwrite a step, never add to it. */
async function refreshActualCost(tx: Executor, runId: string): Promise<void> {
  await sql`
    update runs set actual_usd = coalesce((select sum(cost_actual_usd) from run_steps where run_id = ${runId}), 0),
      cost_status = 'provider_reported', updated_at = now()
    where id = ${runId}`.execute(tx);
}

export interface StepStart {
  runId: string;
  stepIndex: number;
  stepId: string;
  name: string;
  kind: string;
}

/**
 * Records that a step began. A retry of the same step (same run and index) reuses the row and counts the
 * attempt; a step that already settled is returned as it is so the caller can reuse its output.
 */
export async function startStep(db: Executor, s: StepStart): Promise<RunStepRow> {
  return (await startFreshStep(db, s)) ?? inTransaction(db, (tx) => startStepAgain(tx, s));
}

/**
 * The common case in one statement: a step of a run that is waiting or running, starting for the first
 * time. It locks the run, points it at the step, moves it to running when this is its first step (the
 * forward move isForwardMove allows from pending and queued, with `run.status` before `step.started`),
 * inserts the step and appends its events. Nothing happens, and undefined comes back, for a step begun
 * before or a run in any other status: startStepAgain handles those.
 */
async function startFreshStep(db: Executor, s: StepStart): Promise<RunStepRow | undefined> {
  const event = JSON.stringify({ stepIndex: s.stepIndex, stepId: s.stepId, name: s.name, kind: s.kind });
  const { rows } = await sql<RunStepRow & { announced: unknown }>`
    WITH locked AS (SELECT status FROM runs WHERE id = ${s.runId} FOR UPDATE),
    run AS (
      UPDATE runs SET current_step_index = ${s.stepIndex}, updated_at = now(), status = 'running',
        started_at = coalesce(runs.started_at, now()),
        event_seq = runs.event_seq + CASE WHEN locked.status = 'running' THEN 1 ELSE 2 END
      FROM locked
      WHERE runs.id = ${s.runId} AND locked.status IN ('pending', 'queued', 'running')
        AND NOT EXISTS (SELECT 1 FROM run_steps WHERE run_id = ${s.runId} AND step_index = ${s.stepIndex})
      RETURNING runs.event_seq, locked.status AS was),
    step AS (
      INSERT INTO run_steps (run_id, step_index, step_id, name, kind, status, started_at)
      SELECT ${s.runId}, ${s.stepIndex}, ${s.stepId}, ${s.name}, ${s.kind}, 'pending', now() FROM run
      RETURNING *),
    appended AS (
      INSERT INTO run_events (run_id, seq, type, data)
      SELECT ${s.runId}, e.seq, e.type, e.data
      FROM run CROSS JOIN LATERAL (VALUES
        (run.event_seq - 1, 'run.status', '{"status":"running"}'::jsonb, run.was <> 'running'),
        (run.event_seq, 'step.started', ${event}::jsonb, true)) AS e(seq, type, data, wanted)
      WHERE e.wanted
      RETURNING seq, type, data)
    SELECT step.*, ${announceRunEvent(s.runId)} AS announced FROM step, appended ORDER BY seq`.execute(db);
  if (!rows[0]) return undefined;
  const { announced: _, ...row } = rows[0];
  return row;
}

/** The rest: the run's first step (which moves it to running), or a step begun before (a retry). */
async function startStepAgain(tx: Transaction<Database>, s: StepStart): Promise<RunStepRow> {
  // Pointing the run at this step takes its row lock too: one statement instead of a lock and an update.
  const run = await tx
    .updateTable('runs')
    .set({ current_step_index: s.stepIndex, updated_at: new Date() })
    .where('id', '=', s.runId)
    .returning('status')
    .executeTakeFirst();
  // The first step's start is when the run starts running: one transaction instead of a bookkeeping one of its own.
  if (run && (run.status === 'pending' || run.status === 'queued')) await moveRunStatus(tx, s.runId, 'running');
  const started = await tx
    .insertInto('run_steps')
    .values({
      run_id: s.runId,
      step_index: s.stepIndex,
      step_id: s.stepId,
      name: s.name,
      kind: s.kind,
      status: 'pending',
      started_at: new Date(),
    })
    .onConflict((oc) => oc.columns(['run_id', 'step_index']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (started) {
    await appendRunEvent(tx, s.runId, 'step.started', { stepIndex: s.stepIndex, stepId: s.stepId, name: s.name, kind: s.kind });
    return started;
  }
  // A retry of a step begun before: a settled one is returned as it is, a pending one counts the attempt.
  const existing = await tx
    .selectFrom('run_steps')
    .selectAll()
    .where('run_id', '=', s.runId)
    .where('step_index', '=', s.stepIndex)
    .executeTakeFirstOrThrow();
  if (existing.status !== 'pending') return existing;
  return tx
    .updateTable('run_steps')
    .set({ attempts: existing.attempts + 1 })
    .where('run_id', '=', s.runId)
    .where('step_index', '=', s.stepIndex)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface StepSettlement {
  runId: string;
  stepIndex: number;
  status: 'completed' | 'failed' | 'skipped';
  provider?: string | null;
  model?: string | null;
  durationMs?: number;
  costActualUsd?: number;
  output?: unknown;
  error?: string | null;
  errorCode?: string | null;
  /** Answered provider calls of this attempt not recorded yet: recorded with the settlement. */
  providerCalls?: ProviderCallRecord[];
}

/**
 * Settles a step once; a second settlement of the same step is ignored. One statement: it locks the run,
 * settles the step, sets the run's spend as it is with this step settled (the sum of its steps, so a retry
 * overwrites a step's cost, never adds to it), records the provider calls the attempt has not recorded yet,
 * and appends the step's event.
 */
export async function settleStep(db: Executor, s: StepSettlement): Promise<boolean> {
  return (await settleStepStatement(db, s, false)) !== undefined;
}

/**
 * settleStep, returning the run as the settlement left it (undefined when the step was settled before):
 * a last step that settles its run next needs no read of its own.
 */
export async function settleStepReturningRun(db: Executor, s: StepSettlement): Promise<RunRow | undefined> {
  const row = await settleStepStatement(db, s, true);
  return row && 'id' in row ? (row as RunRow) : undefined;
}

async function settleStepStatement(db: Executor, s: StepSettlement, returnRun: boolean): Promise<object | undefined> {
  const costUsd = roundUsd(s.costActualUsd ?? 0);
  // Step events name the step (id, name, kind, added from its row), not only its position.
  const event = JSON.stringify({ stepIndex: s.stepIndex, costActualUsd: costUsd, ...(s.error ? { error: s.error } : {}) });
  const { rows } = await sql<{ announced: unknown }>`
    WITH locked AS (SELECT id FROM runs WHERE id = ${s.runId} FOR UPDATE),
    step AS (
      UPDATE run_steps SET status = ${s.status}, provider = ${s.provider ?? null}, model = ${s.model ?? null},
        duration_ms = ${s.durationMs ?? null}, cost_actual_usd = ${costUsd},
        output = ${s.output === undefined ? null : JSON.stringify(s.output)}::jsonb,
        error = ${s.error ?? null}, error_code = ${s.errorCode ?? null}, finished_at = now()
      FROM locked
      WHERE run_steps.run_id = ${s.runId} AND run_steps.step_index = ${s.stepIndex} AND run_steps.status = 'pending'
      RETURNING step_id, name, kind),
    run AS (
      UPDATE runs SET actual_usd = coalesce((SELECT sum(cost_actual_usd) FROM run_steps
          WHERE run_id = ${s.runId} AND step_index <> ${s.stepIndex}), 0) + ${costUsd},
        cost_status = 'provider_reported', updated_at = now(), event_seq = event_seq + 1
      FROM step WHERE runs.id = ${s.runId}
      RETURNING ${returnRun ? sql`runs.*` : sql`event_seq`}),
    calls AS (${insertProviderCalls(s.providerCalls ?? [])}),
    appended AS (
      INSERT INTO run_events (run_id, seq, type, data)
      SELECT ${s.runId}, event_seq, ${`step.${s.status}`},
        ${event}::jsonb || jsonb_build_object('stepId', step_id, 'name', name, 'kind', kind)
      FROM run, step
      RETURNING seq, type, data)
    SELECT ${announceRunEvent(s.runId)} AS announced${returnRun ? sql`, run.*` : sql``}
    FROM appended${returnRun ? sql`, run` : sql``}`.execute(db);
  if (rows[0]) {
    const { announced: _, ...row } = rows[0];
    return row;
  }
  // Settled before: the spend is what its first settlement recorded.
  await refreshActualCost(db, s.runId);
  return undefined;
}

export interface RunFilters {
  workspaceId: string;
  projectId?: string;
  status?: string;
  parentOrderId?: string;
  workerId?: string;
  includeArchived?: boolean;
  offset: number;
  limit: number;
}

/** Newest first; `total` counts every match. */
export async function listRuns(db: Db, f: RunFilters): Promise<{ items: RunRow[]; steps: RunStepRow[]; total: number }> {
  let q = db.selectFrom('runs').where('workspace_id', '=', f.workspaceId);
  if (f.projectId) q = q.where('project_id', '=', f.projectId);
  if (f.status) q = q.where('status', '=', f.status);
  if (f.parentOrderId) q = q.where('parent_order_id', '=', f.parentOrderId);
  if (f.workerId) q = q.where('worker_id', '=', f.workerId);
  if (!f.includeArchived) q = q.where('archived', '=', false);
  const [items, count] = await Promise.all([
    q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').offset(f.offset).limit(f.limit).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const steps = items.length
    ? await db
        .selectFrom('run_steps')
        .selectAll()
        .where(
          'run_id',
          'in',
          items.map((r) => r.id),
        )
        .orderBy('step_index')
        .execute()
    : [];
  return { items, steps, total: Number(count.n) };
}

export async function getArtifact(db: Db, id: string) {
  return db.selectFrom('artifacts').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Creates the run's artifact, or brings an artifact emitted earlier in the run up to date (content, QA,
 * status). Announces `artifact.created` only the first time. One statement.
 */
export async function writeArtifact(tx: Executor, runId: string, artifact: Insertable<Database['artifacts']>): Promise<void> {
  await sql`
    WITH written AS (${artifactUpsert(artifact)}),
    run AS (UPDATE runs SET event_seq = event_seq + 1 FROM written WHERE runs.id = ${runId} AND written.inserted RETURNING event_seq),
    appended AS (
      INSERT INTO run_events (run_id, seq, type, data)
      SELECT ${runId}, event_seq, 'artifact.created', ${JSON.stringify({ artifactId: artifact.id })}::jsonb FROM run
      RETURNING seq, type, data)
    SELECT ${announceRunEvent(runId)} AS announced FROM appended`.execute(tx);
}

/** Ships an artifact mid-run (emitsArtifact) so partial work survives a later failure. */
export async function emitArtifact(db: Executor, runId: string, artifact: Insertable<Database['artifacts']>): Promise<void> {
  await inTransaction(db, async (tx) => {
    const run = await lockRun(tx, runId);
    if (!run || isTerminalRunStatus(run.status)) return;
    await writeArtifact(tx, runId, artifact);
    await tx.updateTable('runs').set({ artifact_id: artifact.id, updated_at: new Date() }).where('id', '=', runId).execute();
  });
}

/** Hides a terminal run from lists; a no-op when it is already archived. */
export async function archiveRun(db: Db, runId: string): Promise<RunRow | undefined> {
  return db.updateTable('runs').set({ archived: true, updated_at: new Date() }).where('id', '=', runId).returningAll().executeTakeFirst();
}

/** Moves a run, and the artifacts it made, to another project of the same workspace (or to none). */
export async function moveRunToProject(db: Db, runId: string, projectId: string | null): Promise<RunRow | undefined> {
  return db.transaction().execute(async (tx) => {
    const row = await tx
      .updateTable('runs')
      .set({ project_id: projectId, updated_at: new Date() })
      .where('id', '=', runId)
      .returningAll()
      .executeTakeFirst();
    await tx.updateTable('artifacts').set({ project_id: projectId }).where('run_id', '=', runId).execute();
    return row;
  });
}

export async function listRunDecisions(db: Executor, runIds: string[]) {
  if (runIds.length === 0) return [];
  return db.selectFrom('run_decisions').selectAll().where('run_id', 'in', runIds).orderBy('created_at').execute();
}
