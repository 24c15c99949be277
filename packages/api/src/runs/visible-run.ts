import { getRunRow, getRunSteps, listRunDecisions, providerSpendByStep } from '@atelier/db';
import { resourceAccess } from '../access.js';
import { fail } from '../errors.js';
import { presentRun } from '../presenters/run.js';
import type { Caller } from '../caller.js';

/** Loads a run the caller may see, with their role in its workspace; 404 otherwise. */
export async function visibleRun(caller: Caller, runId: string) {
  const run = await getRunRow(caller.services.db, runId);
  if (!run) throw fail.notFound(`run ${runId} not found`);
  const access = await resourceAccess(caller, run.workspace_id, `run ${runId} not found`);
  return { run, access };
}

/** The run as the contract shows it, read fresh from the database. */
export async function runResponse(caller: Caller, runId: string) {
  const { db } = caller.services;
  const run = await getRunRow(db, runId);
  if (!run) throw fail.notFound(`run ${runId} not found`);
  const [steps, decisions, spend] = await Promise.all([
    getRunSteps(db, runId),
    listRunDecisions(db, [runId]),
    providerSpendByStep(db, runId),
  ]);
  return presentRun(run, steps, decisions, spend);
}
