import type { Client } from '@temporalio/client';
import type { Db } from '@atelier/db';
import { NotFinalizable, finalizeRun } from '@atelier/engine/finalize';
import { RunStateConflict, cancelRun, resetRunToLastWorkflowTask } from '@atelier/engine/operations';
import { reconcileOnce, reconcilerSettingsFromEnv } from '@atelier/engine/reconciler';

/** Runs an operator action, turning a refusal because of the run's state into a message and exit code 1. */
async function refusable(action: () => Promise<string>): Promise<number> {
  try {
    console.log(await action());
    return 0;
  } catch (err) {
    if (err instanceof RunStateConflict || err instanceof NotFinalizable) {
      console.error(err.message);
      return 1;
    }
    throw err;
  }
}

export const cancelRunCommand = (db: Db, temporal: Client, runId: string) =>
  refusable(async () => {
    const run = await cancelRun(db, temporal, runId);
    return `run ${runId} is ${run.status}${run.status === 'cancelled' ? '' : '; it stops at its next step boundary'}`;
  });

export const finalizeRunCommand = (db: Db, temporal: Client, runId: string) =>
  refusable(async () => {
    const { via, run } = await finalizeRun(db, temporal, runId);
    return `run ${runId} finalized as ${run.status} (${via === 'workflow' ? 'by its live workflow' : 'from its recorded steps'})`;
  });

export const resetRunCommand = (temporal: Client, runId: string, reason: string) =>
  refusable(async () => {
    const executionId = await resetRunToLastWorkflowTask(temporal, runId, reason || 'reset by on-call with atelier runs reset');
    return `run ${runId} reset to its last completed workflow task; new execution ${executionId}`;
  });

/**
 * One reconciler pass (the same the worker's schedule runs): settles runs and orders that are not
 * terminal although their workflow execution closed, or that have had none for too long
 * (ATELIER_RECONCILE_STALE_MINUTES). `--dry-run` prints what would be settled and writes nothing.
 */
export async function reconcileRunsCommand(
  db: Db,
  temporal: Client,
  opts: { dryRun: boolean },
  print: (line: string) => void = console.log,
): Promise<number> {
  const { staleAfterMs } = reconcilerSettingsFromEnv(process.env);
  const report = await reconcileOnce(db, temporal, { staleAfterMs, dryRun: opts.dryRun });
  const verb = report.dryRun ? 'would settle' : 'settled';
  for (const a of report.settled) {
    print(`${verb} ${a.kind} ${a.id}: ${a.from} -> ${a.to}${a.errorCode ? ` (${a.errorCode})` : ''}; ${a.reason}`);
  }
  print(
    `${report.dryRun ? 'dry run: ' : ''}${report.settled.length} ${verb} of ${report.examined.runs} runs and ${report.examined.orders} orders not terminal`,
  );
  return 0;
}
