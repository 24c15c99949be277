import { type RawBuilder, isExpression, sql } from 'kysely';
import type { Executor } from '../connect.js';
import { announceRunEvent } from '../run-announce.js';

/**
 * The one way a run event is appended: every statement that writes `run_events` builds its part from here,
 * so the column list, the numbering and the announcement are written once.
 *
 * Numbering: a run's events are numbered 1, 2, 3... by the run's `event_seq`, the number of its last event.
 * A statement that appends events advances `event_seq` by as many as it appends, in a CTE (`run` unless
 * named otherwise) that returns the run rows and takes the row lock that orders concurrent appenders, and
 * the events take the numbers up to the new value, in the order listed. Each appended event is announced on
 * RUN_EVENTS_CHANNEL (announceRunEvent) by the same statement, so a listener hears of it when the
 * transaction commits; the events of an order's children before they start (planned, claimed) are the
 * exception, appended unannounced as they always were.
 *
 * appendRunEvents is the statement on its own; a statement that appends events along with other writes
 * (a step's start, a run's move) puts appendedEvents among its CTEs and selects announceAppended from it.
 */

/** An event to append: its type and its data (a value, stored as JSON). */
export interface RunEvent {
  type: string;
  data: unknown;
}

/**
 * An event a statement appends: `data` may also be an SQL expression (jsonb) over the statement's `run`
 * (and `alsoFrom`); `when`, if given, appends it only when the condition holds for that row.
 */
export interface AppendedEvent extends RunEvent {
  when?: RawBuilder<boolean>;
}

const dataOf = (data: unknown) => (isExpression(data) ? data : sql`${JSON.stringify(data)}::jsonb`);

/**
 * An event's number: the run's new `event_seq` less the events appended after it (those with a `when`
 * counted only when it holds), so the numbers run up to `event_seq` without gaps.
 */
function seqOf(eventSeq: RawBuilder<number>, events: readonly AppendedEvent[], index: number): RawBuilder<number> {
  const later = events.slice(index + 1);
  const always = later.filter((e) => !e.when).length;
  const sometimes = later.flatMap((e) => (e.when ? [sql`(${e.when})::int`] : []));
  if (sometimes.length === 0) return always === 0 ? eventSeq : sql`${eventSeq} - ${sql.lit(always)}`;
  return sql`${eventSeq} - (${sql.join([...(always ? [sql.lit(always)] : []), ...sometimes], sql` + `)})`;
}

/**
 * The CTE `appended` of a statement that appends run events: for each row of the statement's CTE `run`
 * (or `opts.runs`), whose `event_seq` it advanced by the number of events appended, the events in order,
 * numbered up to that `event_seq`. `runId` is the run's id, or the column that holds it when the statement
 * appends events of several runs; `alsoFrom` names CTEs the events' data reads besides the runs'. It returns
 * `run_id, seq, type, data, created_at`, what announceAppended reads.
 */
export function appendedEvents(
  runId: string | RawBuilder<unknown>,
  events: readonly AppendedEvent[],
  opts: { runs?: string; alsoFrom?: RawBuilder<unknown> } = {},
): RawBuilder<unknown> {
  if (events.length === 0) throw new Error('appendedEvents: no events to append');
  const runs = opts.runs ?? 'run';
  const eventSeq = sql.ref<number>(`${runs}.event_seq`);
  const from = sql`${sql.table(runs)}${opts.alsoFrom ? sql` CROSS JOIN ${opts.alsoFrom}` : sql``}`;
  const [only] = events;
  const select =
    events.length === 1 && only
      ? sql`SELECT ${runId}, ${seqOf(eventSeq, events, 0)}, ${only.type}, ${dataOf(only.data)} FROM ${from}${only.when ? sql` WHERE ${only.when}` : sql``}`
      : sql`SELECT ${runId}, e.seq, e.type, e.data
      FROM ${from} CROSS JOIN LATERAL (VALUES ${sql.join(
        events.map((e, i) => sql`(${seqOf(eventSeq, events, i)}, ${e.type}, ${dataOf(e.data)}, ${e.when ?? sql`true`})`),
      )}) AS e(seq, type, data, wanted)
      WHERE e.wanted`;
  return sql`appended AS (
      INSERT INTO run_events (run_id, seq, type, data)
      ${select}
      RETURNING run_id, seq, type, data, created_at)`;
}

/** The announcement of each row of `appended` (appendedEvents): select it from `appended`. */
export const announceAppended: RawBuilder<unknown> = announceRunEvent(sql.ref('appended.run_id'));

/**
 * Appends events to the run's ordered log and announces them, in one statement: they take the next numbers
 * from the run's `event_seq`, whose increment's row lock orders concurrent appenders. Returns their numbers,
 * in order. `announce: false` appends without announcing: an order's child before it starts.
 */
export async function appendRunEvents(
  tx: Executor,
  runId: string,
  events: readonly RunEvent[],
  opts: { announce?: boolean } = {},
): Promise<number[]> {
  if (events.length === 0) return [];
  const { rows } = await sql<{ seq: number }>`
    WITH run AS (UPDATE runs SET event_seq = event_seq + ${sql.lit(events.length)} WHERE id = ${runId} RETURNING event_seq),
    ${appendedEvents(runId, events)}
    SELECT seq${opts.announce === false ? sql`` : sql`, ${announceAppended}`} FROM appended ORDER BY seq`.execute(tx);
  if (rows.length === 0) throw new Error(`run ${runId} is not in the database: its event ${events[0]?.type} has nowhere to go`);
  return rows.map((r) => r.seq);
}
