import { RunStateConflict, requestRunCancel } from '@atelier/engine/operations';
import { NotFinalizable } from '@atelier/engine/finalize';
import { fail } from '../errors.js';
import type { Caller } from '../caller.js';
import { visibleRun } from './visible-run.js';

/** The engine refuses an operation because of the run's state: the contract's 409 invalid_transition. */
export async function asConflict(operation: () => Promise<unknown>): Promise<void> {
  try {
    await operation();
  } catch (err) {
    if (err instanceof RunStateConflict || err instanceof NotFinalizable) throw fail.invalidTransition(err.message, { status: err.status });
    throw err;
  }
}

/**
 * POST /v1/runs/{run_id}/cancel, and each run of a bulk cancel: a run the caller may see (404 otherwise) is
 * asked to stop at its next step boundary; one already ended is 409. The dispatcher is woken so the
 * engine hears of it now rather than at its next poll.
 */
export async function cancelRun(caller: Caller, runId: string): Promise<void> {
  const { db, dispatcher } = caller.services;
  const { run } = await visibleRun(caller, runId);
  await asConflict(() => requestRunCancel(db, run.id));
  dispatcher?.wake();
}
