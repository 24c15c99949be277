/**
 * A step that ran before its start was written (a quick one; the engine's StepStartRecord), recorded begun
 * and settled at once: on its own (settleStartedStep) or with its run's settlement (last-step.ts). They are
 * the worker's largest statements and nearly every step makes one, so both are compiled once per shape
 * (compiled-once.ts) from the flat values startedStepValues works out.
 */
import { sql } from 'kysely';
import { roundUsd } from '@atelier/domain';
import { compiledPerShape } from '../compiled-once.js';
import type { Executor } from '../connect.js';
import { insertProviderCallRows, providerCallRows } from '../provider-calls.js';
import { type StepSettlement, type StepStartedAt, fallbacksJson, settledEvent, spendWith, stepInputColumns } from '../run-steps.js';
import { announceAppended, appendedEvents } from './events.js';
import type { RunRow } from './row.js';

/** A step begun and settled at once, as its statements bind it: its columns, its events' data as JSON text. */
export type StartedStepValues = ReturnType<typeof startedStepValues>;

export function startedStepValues(s: StepSettlement & { start: StepStartedAt }) {
  const { start } = s;
  const costUsd = roundUsd(s.costActualUsd ?? 0);
  // Step events name the step (id, name, kind), not only its position.
  const identity = { stepId: start.stepId, name: start.name, kind: start.kind };
  const input = stepInputColumns(start.input);
  return {
    runId: s.runId,
    stepIndex: s.stepIndex,
    stepId: start.stepId,
    name: start.name,
    kind: start.kind,
    status: s.status,
    startedAt: start.at,
    provider: s.provider ?? null,
    model: s.model ?? null,
    durationMs: s.durationMs ?? null,
    costUsd,
    output: s.output === undefined ? null : JSON.stringify(s.output),
    error: s.error ?? null,
    errorCode: s.errorCode ?? null,
    fallbacks: fallbacksJson(s),
    input: input.json,
    inputOmitted: input.omitted,
    providerCalls: providerCallRows(s.providerCalls ?? []),
    startedEvent: JSON.stringify({ stepIndex: s.stepIndex, ...identity }),
    settledType: `step.${s.status}`,
    settledEvent: JSON.stringify({ ...settledEvent(s, costUsd), ...identity }),
  };
}

/** The events of a step begun and settled at once, in their order: `run.status` running for a run's first step. */
export const startedStepEvents = (v: StartedStepValues) => [
  { type: 'run.status', data: { status: 'running' }, when: sql<boolean>`run.was <> 'running'` },
  { type: 'step.started', data: sql`${v.startedEvent}::jsonb` },
  { type: v.settledType, data: sql`${v.settledEvent}::jsonb` },
];

/**
 * The CTEs `step` and `calls` of a statement that records a step begun and settled at once: the step's row
 * (for each row of the statement's `run`, so only when the run was updated) and its provider calls.
 */
export const insertStartedStep = (v: StartedStepValues) => sql`
    step AS (
      INSERT INTO run_steps (run_id, step_index, step_id, name, kind, status, started_at, finished_at,
        provider, model, duration_ms, cost_actual_usd, output, error, error_code, fallbacks, input, input_omitted)
      SELECT ${v.runId}, ${v.stepIndex}, ${v.stepId}, ${v.name}, ${v.kind}, ${v.status}, ${v.startedAt}, now(),
        ${v.provider}, ${v.model}, ${v.durationMs}, ${v.costUsd}, ${v.output}::jsonb, ${v.error}, ${v.errorCode},
        ${v.fallbacks}::jsonb, ${v.input}::jsonb, ${v.inputOmitted}
      FROM run
      RETURNING step_index),
    calls AS (${insertProviderCallRows(v.providerCalls, sql`EXISTS (SELECT 1 FROM step)`)})`;

/**
 * Records a step's start and its settlement together, in one statement, for a step that ran before its
 * start was written. As startFreshStep it applies only to a step not begun before of a run that is waiting
 * or running; it then does what startFreshStep and the settlement would have done one after the other: the
 * step's row (settled), the run pointed at it, moved to running when this is its first step, its spend, the
 * provider calls, and the events in their order (`run.status`, `step.started`, `step.<status>`). Returns
 * undefined, having written nothing, otherwise; with `returnRun`, the run row as it left it.
 */
export async function settleStartedStep(
  db: Executor,
  s: StepSettlement & { start: StepStartedAt },
  returnRun: boolean,
): Promise<RunRow | true | undefined> {
  const { rows } = await startedStepStatement(db, startedStepValues(s), returnRun);
  if (!rows[0]) return undefined;
  if (!returnRun) return true;
  const { announced: _, was: __, ...row } = rows[0];
  return row as RunRow;
}

const startedStepStatement = compiledPerShape(
  (_db: Executor, v: StartedStepValues, returnRun: boolean) => sql<RunRow & { was: string; announced: unknown }>`
    WITH locked AS (SELECT status FROM runs WHERE id = ${v.runId} FOR UPDATE),
    run AS (
      UPDATE runs SET current_step_index = ${v.stepIndex}, updated_at = now(), status = 'running',
        started_at = coalesce(runs.started_at, ${v.startedAt}),
        actual_usd = ${spendWith(v.runId, v.stepIndex, v.costUsd)}, cost_status = 'provider_reported',
        event_seq = runs.event_seq + CASE WHEN locked.status = 'running' THEN 2 ELSE 3 END
      FROM locked
      WHERE runs.id = ${v.runId} AND locked.status IN ('pending', 'queued', 'running')
        AND NOT EXISTS (SELECT 1 FROM run_steps WHERE run_id = ${v.runId} AND step_index = ${v.stepIndex})
      RETURNING ${returnRun ? sql`runs.*` : sql`runs.event_seq`}, locked.status AS was),
    ${insertStartedStep(v)},
    ${appendedEvents(v.runId, startedStepEvents(v))}
    SELECT ${announceAppended} AS announced${returnRun ? sql`, run.*` : sql``}
    FROM appended${returnRun ? sql`, run` : sql``} ORDER BY appended.seq`,
);
