import { sql } from 'kysely';
import { RUN_STATUSES, isForwardMove } from '@atelier/domain';
import { compiledOnce } from './compiled-once.js';
import type { Db, Executor } from './connect.js';
import { emitRunEvent, runEventType } from './event-webhooks.js';
import type { RunRow } from './runs.js';
import { announceAppended, appendedEvents } from './runs/events.js';

/** The statuses a run may move to `queued` from (forward moves only, as moveRunStatus judges them). */
const QUEUEABLE = RUN_STATUSES.filter((status) => isForwardMove(status, 'queued'));
/** Whether `queued` is announced to webhook endpoints (it is not today): that takes a transaction. */
const QUEUED_HAS_WEBHOOK = runEventType('queued') !== undefined;

/**
 * Settles a delivered `start_run` command: the run moves to `queued` with its `run.status` event (as
 * moveRunStatus writes them) and the command is done, in one statement, so both commit or neither does. A
 * crash before leaves both undone: the command comes due again and its second delivery finds the workflow
 * already started. The conditional update takes the run's lock and judges the move at once, instead of
 * reading the row first (the dispatcher has just read it to start the workflow). A run that moved on
 * meanwhile (the worker already marked it running, or it was cancelled) is left as it is, and undefined
 * comes back; the command is done all the same.
 */
export async function completeRunStart(db: Db, commandId: number, runId: string): Promise<QueuedRun | undefined> {
  return (await completeRunStarts(db, [{ commandId, runId }]))[0];
}

/** A run a hand-over moved to queued. */
export type QueuedRun = Pick<RunRow, 'id' | 'status' | 'event_seq'>;

/** A delivered `start_run`: its command and the run it started. */
export interface DeliveredRunStart {
  commandId: number;
  runId: string;
}

/**
 * completeRunStart for a batch the dispatcher delivered, in one statement whatever its size: the runs
 * still waiting move to queued (each with its event and NOTIFY), every command is done. Returns the runs
 * moved (their id, status and last event's number: not the wide row, which nobody here reads).
 */
export async function completeRunStarts(db: Db, starts: readonly DeliveredRunStart[]): Promise<QueuedRun[]> {
  if (starts.length === 0) return [];
  const work = async (ex: Executor) => {
    const { rows } = await handOver(
      ex,
      starts.map((s) => s.runId),
      starts.map((s) => s.commandId),
      new Date(),
    );
    const moved = rows.map(({ announced: _, ...row }) => row);
    if (QUEUED_HAS_WEBHOOK) {
      const movedIds = moved.map((r) => r.id);
      for (const row of await getRunRows(ex, movedIds)) await emitRunEvent(ex, row);
    }
    return moved;
  };
  return QUEUED_HAS_WEBHOOK ? db.transaction().execute(work) : work(db);
}

/** completeRunStarts' statement, whose text is the same for every batch (compiled once). */
const handOver = compiledOnce((ex: Executor, runIds: string[], commandIds: number[], now: Date) => {
  const move = ex
    .updateTable('runs')
    .set({ status: 'queued', updated_at: now, event_seq: sql`event_seq + 1` })
    .where(sql<boolean>`id = ANY(${runIds}::text[])`)
    .where('status', 'in', QUEUEABLE)
    .returning(['id', 'status', 'event_seq']);
  const done = ex
    .updateTable('engine_commands')
    .set({ done_at: now, last_error: null })
    .where(sql<boolean>`id = ANY(${commandIds}::bigint[])`);
  // A data-modifying CTE runs whatever the move finds.
  return sql<QueuedRun & { announced: unknown }>`
    WITH done AS (${done}),
    run AS (${move}),
    ${appendedEvents(sql.ref('run.id'), [{ type: 'run.status', data: { status: 'queued' } }])}
    SELECT run.*, ${announceAppended} AS announced
    FROM run JOIN appended ON appended.run_id = run.id`;
});

const runRowsById = compiledOnce((db: Executor, runIds: string[]) =>
  db.selectFrom('runs').selectAll().where(sql<boolean>`id = ANY(${runIds}::text[])`),
);

/**
 * The runs named, in one query: the hand-over's event webhooks read the runs it moved. The ids go as one
 * array, so batches of every size are one statement text (prepared once per connection).
 */
export async function getRunRows(db: Executor, runIds: readonly string[]): Promise<RunRow[]> {
  if (runIds.length === 0) return [];
  return (await runRowsById(db, [...runIds])).rows;
}
