import { type Db, type RunRow, getRunRow, readRunView } from '@atelier/db';
import { visibleRecord } from '../access.js';
import { fail } from '../errors.js';
import { presentRun } from '../presenters/run.js';
import type { Caller } from '../caller.js';

/** Loads a run the caller may see, with their role in its workspace; 404 otherwise. */
export async function visibleRun(caller: Caller, runId: string) {
  const { row: run, access } = await visibleRecord(caller, await getRunRow(caller.services.db, runId), { noun: 'run', id: runId });
  return { run, access };
}

/** The run as the contract shows it, read fresh from the database. */
export async function runResponse(caller: Caller, runId: string) {
  const run = await getRunRow(caller.services.db, runId);
  if (!run) throw fail.notFound('run', runId);
  return (await runSnapshot(caller.services.db, run)).shown;
}

/** Statuses of a run waiting for its first step. */
const WAITING: readonly string[] = ['planned', 'pending', 'queued'];

/**
 * The run as the contract shows it (`shown`), no older than a row already read, and the number of the last
 * event it reflects (`eventSeq`: the statement that records an event writes it on the run's row). A run still
 * waiting whose first step never began (every statement that writes a step's row sets the run's
 * `started_at`) has no steps, decisions or spend, so the row is the whole run: a client that follows a run it
 * just created gets its snapshot from the one row. Any other run is read again whole, in one statement
 * (readRunView), so its totals agree with its steps and with its event number.
 */
export async function runSnapshot(db: Db, run: RunRow) {
  if (run.started_at === null && WAITING.includes(run.status)) {
    return { shown: presentRun(run, [], [], new Map()), eventSeq: run.event_seq };
  }
  const view = await readRunView(db, run.id);
  // A run is never deleted, only archived: the row read before is still there.
  if (!view) throw fail.notFound('run', run.id);
  return { shown: presentRun(view.run, view.steps, view.decisions, view.spend), eventSeq: view.run.event_seq };
}
