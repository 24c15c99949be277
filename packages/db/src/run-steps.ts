/**
 * A run's steps in the read model: each step's start and settlement, with its events, its run's spend and
 * the provider calls it made, each one statement in the common case.
 */
import { type Transaction, sql } from 'kysely';
import { TERMINAL_RUN_STATUSES, roundUsd, runTotalUsd } from '@atelier/domain';
import { type Executor, inTransaction } from './connect.js';
import { moveRunStatus } from './run-moves.js';
import { announceAppended, appendedEvents } from './runs/events.js';
import { subWorkflowRollup } from './runs/subworkflow-rollup.js';
import { type ProviderCallRecord, insertProviderCalls } from './provider-calls.js';
import { type RunRow, type RunStepRow, appendRunEvent } from './runs.js';
import type { Database } from './schema.js';

/**
 * Recomputes the run's actual cost as the sum of its steps (retries overwrite a step, never add to it), and
 * its sub-workflow children's spend the same way, apart: actual_usd stays the run's own.
 */
async function refreshActualCost(tx: Executor, runId: string): Promise<void> {
  await sql`
    update runs set actual_usd = coalesce(spent.own, 0), subworkflow_actual_usd = coalesce(spent.children, 0),
      cost_status = 'provider_reported', updated_at = now()
    from (select sum(cost_actual_usd) as own, sum(subworkflow_actual_usd) as children from run_steps where run_id = ${runId}) spent
    where id = ${runId}`.execute(tx);
}

export interface StepStart {
  runId: string;
  stepIndex: number;
  stepId: string;
  name: string;
  kind: string;
  /** What the step was given, resolved against its run; absent for a step with no input of its own. */
  input?: unknown;
}

/**
 * The most of a step's input kept, as JSON bytes. A step may read whole earlier outputs (a report, an
 * article's draft); kept in full, every step after such a one would copy it into its row again.
 */
export const STEP_INPUT_MAX_BYTES = 64 * 1024;

/** A step's input as its two columns hold it: its JSON, or null with `omitted` when over the limit. */
export function stepInputColumns(input: unknown): { json: string | null; omitted: boolean } {
  if (input === undefined) return { json: null, omitted: false };
  const json = JSON.stringify(input);
  // JSON.stringify answers undefined for a function or symbol: nothing to keep.
  if (json === undefined) return { json: null, omitted: false };
  if (Buffer.byteLength(json, 'utf8') > STEP_INPUT_MAX_BYTES) return { json: null, omitted: true };
  return { json, omitted: false };
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
  const events = [
    { type: 'run.status', data: { status: 'running' }, when: sql<boolean>`run.was <> 'running'` },
    { type: 'step.started', data: { stepIndex: s.stepIndex, stepId: s.stepId, name: s.name, kind: s.kind } },
  ];
  const input = stepInputColumns(s.input);
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
      INSERT INTO run_steps (run_id, step_index, step_id, name, kind, status, started_at, input, input_omitted)
      SELECT ${s.runId}, ${s.stepIndex}, ${s.stepId}, ${s.name}, ${s.kind}, 'pending', now(), ${input.json}::jsonb, ${input.omitted} FROM run
      RETURNING *),
    ${appendedEvents(s.runId, events)}
    SELECT step.*, ${announceAppended} AS announced FROM step, appended ORDER BY appended.seq`.execute(db);
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
  const input = stepInputColumns(s.input);
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
      input: input.json,
      input_omitted: input.omitted,
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
  /** Models of a role binding skipped before the one that ran (`{ role, model, reason, error }`); absent or empty: none. */
  fallbacks?: readonly object[];
  /**
   * A subWorkflow step's child run's total spend. Kept apart from costActualUsd (what this run is billed,
   * which the child's spend is not: the child is billed for it) and only by settleStep.
   */
  subWorkflowUsd?: number;
}

/** A settlement's fallbacks as the column holds them: null when there were none. */
export const fallbacksJson = (s: StepSettlement) => (s.fallbacks && s.fallbacks.length > 0 ? JSON.stringify(s.fallbacks) : null);

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

/**
 * A settlement's event data, without the step's id, name and kind (each statement adds them). Its
 * costActualUsd is the step's cost as GET /v1/runs/{id} shows it: a subWorkflow step's is its child's total.
 */
export const settledEvent = (s: StepSettlement, costUsd: number) => ({
  stepIndex: s.stepIndex,
  costActualUsd: costUsd,
  ...(s.error ? { error: s.error } : {}),
});

/** The run's spend with this step settled: the sum of its steps, so a retry overwrites a step's cost, never adds to it. */
export const spendWith = (runId: string, stepIndex: number, costUsd: number) =>
  sql`coalesce((SELECT sum(cost_actual_usd) FROM run_steps WHERE run_id = ${runId} AND step_index <> ${stepIndex}), 0) + ${costUsd}`;

/** The run's sub-workflow spend with this step settled: as its own spend, the sum of its steps. */
const subWorkflowSpendWith = (s: StepSettlement, childUsd: number) =>
  sql`coalesce((SELECT sum(subworkflow_actual_usd) FROM run_steps WHERE run_id = ${s.runId} AND step_index <> ${s.stepIndex}), 0) + ${childUsd}`;

async function settleStepStatement(db: Executor, s: StepSettlement, returnRun: boolean): Promise<object | undefined> {
  const costUsd = roundUsd(s.costActualUsd ?? 0);
  const childUsd = roundUsd(s.subWorkflowUsd ?? 0);
  // Step events name the step (id, name, kind, added from its row), not only its position.
  const event = {
    type: `step.${s.status}`,
    data: sql`${JSON.stringify(settledEvent(s, runTotalUsd(costUsd, childUsd)))}::jsonb || jsonb_build_object('stepId', step.step_id, 'name', step.name, 'kind', step.kind)`,
  };
  const { rows } = await sql<{ announced: unknown }>`
    WITH RECURSIVE locked AS (SELECT id FROM runs WHERE id = ${s.runId} FOR UPDATE),
    step AS (
      UPDATE run_steps SET status = ${s.status}, provider = ${s.provider ?? null}, model = ${s.model ?? null},
        duration_ms = ${s.durationMs ?? null}, cost_actual_usd = ${costUsd}, subworkflow_actual_usd = ${childUsd},
        output = ${s.output === undefined ? null : JSON.stringify(s.output)}::jsonb,
        error = ${s.error ?? null}, error_code = ${s.errorCode ?? null}, finished_at = now(),
        fallbacks = ${fallbacksJson(s)}::jsonb
      FROM locked
      WHERE run_steps.run_id = ${s.runId} AND run_steps.step_index = ${s.stepIndex} AND run_steps.status = 'pending'
      RETURNING step_id, name, kind),
    run AS (
      UPDATE runs SET actual_usd = ${spendWith(s.runId, s.stepIndex, costUsd)},
        ${s.subWorkflowUsd === undefined ? sql`` : sql`subworkflow_actual_usd = ${subWorkflowSpendWith(s, childUsd)},`}
        cost_status = 'provider_reported', updated_at = now(), event_seq = event_seq + 1
      FROM step WHERE runs.id = ${s.runId}
      RETURNING ${returnRun ? sql`runs.*` : sql`event_seq, id, parent_run_id, status, actual_usd, subworkflow_actual_usd`}),
    calls AS (${insertProviderCalls(s.providerCalls ?? [])}),
    -- A step billed after its run settled (a sub-workflow child whose parent stopped waiting for it) still
    -- reaches the parents' totals, as the run's settlement would have carried it.
    ${subWorkflowRollup(sql`SELECT id, parent_run_id, actual_usd + subworkflow_actual_usd AS total FROM run
      WHERE status = ANY(${[...TERMINAL_RUN_STATUSES]}::text[])`)},
    ${appendedEvents(s.runId, [event], { alsoFrom: sql`step` })}
    SELECT ${announceAppended} AS announced${returnRun ? sql`, run.*` : sql``}
    FROM appended${returnRun ? sql`, run` : sql``}`.execute(db);
  if (rows[0]) {
    const { announced: _, ...row } = rows[0];
    return row;
  }
  // Settled before: the spend is what its first settlement recorded.
  await refreshActualCost(db, s.runId);
  return undefined;
}

/**
 * Keeps the models a step skipped while it waits for a provider job on the next one: the execution that
 * resumes it does not ask them again (engine/src/activities/steps/fallbacks.ts). Only a pending step.
 */
export async function recordStepFallbacks(db: Executor, runId: string, stepIndex: number, fallbacks: readonly object[]): Promise<void> {
  if (fallbacks.length === 0) return;
  await db
    .updateTable('run_steps')
    .set({ fallbacks: JSON.stringify(fallbacks) })
    .where('run_id', '=', runId)
    .where('step_index', '=', stepIndex)
    .where('status', '=', 'pending')
    .execute();
}

/** A step that ran before its start was recorded: who it is and when it began. */
export interface StepStartedAt extends StepStart {
  at: Date;
}

/**
 * The recorded outputs of a run's steps named by id (completed, skipped or settled from a child), for a
 * step that reads outputs the run workflow holds by reference and that its worker does not have at hand.
 */
export async function getStepOutputs(db: Executor, runId: string, stepIds: readonly string[]): Promise<Map<string, unknown>> {
  const rows = await db
    .selectFrom('run_steps')
    .select(['step_id', 'output'])
    .where('run_id', '=', runId)
    .where('step_id', 'in', [...stepIds])
    .where('status', 'in', ['completed', 'skipped'])
    .execute();
  return new Map(rows.map((r) => [r.step_id, r.output]));
}
