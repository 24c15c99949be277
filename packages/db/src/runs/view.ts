import { type Selectable, sql } from 'kysely';
import { compiledOnce } from '../compiled-once.js';
import type { Executor } from '../connect.js';
import type { Database } from '../schema.js';
import type { RunRow, RunStepRow } from './row.js';

type RunDecisionRow = Selectable<Database['run_decisions']>;

/** A run whole, as one moment saw it: what GET /v1/runs/{id} and an event stream's snapshot show. */
export interface RunView {
  run: RunRow;
  steps: RunStepRow[];
  decisions: RunDecisionRow[];
  /** What the providers charged for each step, every attempt included: step index → USD. */
  spend: Map<number, number>;
}

/**
 * A run's row, its steps, its decisions and what the providers charged for each step, in one statement, so
 * from one snapshot; undefined when there is no such run. A step's settlement writes the step's row and the
 * run's spend in one statement: read by separate statements, a view could show the step settled and the
 * run's totals without it. One statement rather than a repeatable-read transaction of four: GET /v1/runs/{id}
 * is what pollers call, and the transaction's round trips cost the gateway about a quarter more CPU a request.
 */
export async function readRunView(db: Executor, runId: string): Promise<RunView | undefined> {
  const row = (await runViewById(db, runId)).rows[0];
  if (!row) return undefined;
  const { view_steps, view_decisions, view_spend, ...run } = row;
  return {
    run,
    steps: view_steps.map((s) => withColumnTypes(s, STEP_DATES, STEP_NUMERICS)),
    decisions: view_decisions.map((d) => withColumnTypes(d, DECISION_DATES, [])),
    spend: new Map(Object.entries(view_spend).map(([index, usd]) => [Number(index), usd])),
  };
}

/** A row as JSON gives it: timestamps as ISO text. (Numerics come as numbers; withColumnTypes makes them text again.) */
type AsJson<R> = { [K in keyof R]: R[K] extends Date | null ? string | Extract<R[K], null> : R[K] };

const runViewById = compiledOnce(
  (_db: Executor, runId: string) => sql<
    RunRow & { view_steps: AsJson<RunStepRow>[]; view_decisions: AsJson<RunDecisionRow>[]; view_spend: Record<string, number> }
  >`
    SELECT r.*,
      (SELECT coalesce(json_agg(s ORDER BY s.step_index), '[]') FROM run_steps s WHERE s.run_id = r.id) AS view_steps,
      (SELECT coalesce(json_agg(d ORDER BY d.created_at), '[]') FROM run_decisions d WHERE d.run_id = r.id) AS view_decisions,
      (SELECT coalesce(json_object_agg(c.step_index, c.usd), '{}')
        FROM (SELECT step_index, sum(cost_usd) AS usd FROM provider_calls WHERE run_id = r.id GROUP BY step_index) c) AS view_spend
    FROM runs r WHERE r.id = ${runId}`,
);

/** The columns of a row type that hold timestamps. */
type DateColumns<R> = { [K in keyof R]-?: R[K] extends Date | null ? K : never }[keyof R];

/** `list`, accepted only when it names every column in `All`: a timestamp column added later and left out is refused. */
const everyOne =
  <All>() =>
  <const L extends ReadonlyArray<All>>(list: L & ([Exclude<All, L[number]>] extends [never] ? unknown : never)) =>
    list;
/** The timestamp columns, which JSON gives as text. */
const STEP_DATES = everyOne<DateColumns<RunStepRow>>()(['started_at', 'finished_at']);
const DECISION_DATES = everyOne<DateColumns<RunDecisionRow>>()(['created_at']);
/** A step's numeric columns, which the driver gives as text and JSON as numbers. */
const STEP_NUMERICS = ['cost_actual_usd', 'subworkflow_actual_usd'] as const satisfies ReadonlyArray<keyof RunStepRow>;

/** A row from its JSON, its timestamps and numerics typed as the driver gives them. */
function withColumnTypes<R>(json: AsJson<R>, dates: ReadonlyArray<keyof R>, numerics: ReadonlyArray<keyof R>): R {
  const row = { ...json } as Record<keyof R, unknown>;
  for (const k of dates) if (row[k] !== null) row[k] = new Date(row[k] as string);
  for (const k of numerics) row[k] = String(row[k]);
  return row as R;
}
