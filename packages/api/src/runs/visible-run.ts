import { type Db, type RunRow, getRunRow, getRunSteps, listRunDecisions, providerSpendByStep } from '@atelier/db';
import { resourceAccess } from '../access.js';
import { fail } from '../errors.js';
import { presentRun } from '../presenters/run.js';
import type { Caller } from '../caller.js';

/** Loads a run the caller may see, with their role in its workspace; 404 otherwise. */
export async function visibleRun(caller: Caller, runId: string) {
  const run = await getRunRow(caller.services.db, runId);
  if (!run) throw fail.notFound('run', runId);
  const access = await resourceAccess(caller, run.workspace_id, 'run', runId);
  return { run, access };
}

/** The run as the contract shows it, read fresh from the database. */
export async function runResponse(caller: Caller, runId: string) {
  const { db } = caller.services;
  const run = await getRunRow(db, runId);
  if (!run) throw fail.notFound('run', runId);
  return runSnapshot(db, run);
}

/** Statuses of a run waiting for its first step. */
const WAITING: readonly string[] = ['planned', 'pending', 'queued'];

/**
 * The run as the contract shows it from a row already read: its steps, decisions and spend are read after it.
 * A run still waiting whose first step never began (every statement that writes a step's row sets the run's
 * `started_at`) has none of them, so nothing is read: a client that follows a run it just created gets its
 * snapshot from the one row.
 */
export async function runSnapshot(db: Db, run: RunRow) {
  if (run.started_at === null && WAITING.includes(run.status)) return presentRun(run, [], [], new Map());
  const [steps, decisions, spend] = await Promise.all([
    getRunSteps(db, run.id),
    listRunDecisions(db, [run.id]),
    providerSpendByStep(db, run.id),
  ]);
  return presentRun(run, steps, decisions, spend);
}
