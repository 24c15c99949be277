import type { Client } from '@temporalio/client';
import pg from 'pg';
import { presentRun } from '@atelier/api/presenters/run';
import { type Db, RUN_EVENTS_CHANNEL, getRunRow, getRunSteps } from '@atelier/db';
import { isTerminalRunStatus } from '@atelier/domain';
import { NotFinalizable, finalizeRun } from '@atelier/engine/finalize';
import { RunStateConflict, cancelRun, resetRunToLastWorkflowTask } from '@atelier/engine/operations';
import { reconcileOnce, reconcilerSettingsFromEnv } from '@atelier/engine/reconciler';

export async function showRun(db: Db, runId: string): Promise<number> {
  const run = await getRunRow(db, runId);
  if (!run) {
    console.error(`run ${runId} not found`);
    return 1;
  }
  console.log(JSON.stringify(presentRun(run, await getRunSteps(db, runId)), null, 2));
  return 0;
}

/**
 * Follows a run live: prints its recorded events, then each new one as the database announces it, and
 * returns when the run reaches a terminal status.
 */
export async function watchRun(db: Db, databaseUrl: string, runId: string, print: (line: string) => void = console.log): Promise<number> {
  const run = await getRunRow(db, runId);
  if (!run) {
    console.error(`run ${runId} not found`);
    return 1;
  }
  const listener = new pg.Client({ connectionString: databaseUrl });
  await listener.connect();
  let lastSeq = 0;
  let wake: () => void = () => undefined;
  listener.on('notification', (msg) => {
    if (msg.payload?.startsWith(`${runId}:`)) wake();
  });
  await listener.query(`LISTEN ${RUN_EVENTS_CHANNEL}`);
  try {
    for (;;) {
      const events = await db
        .selectFrom('run_events')
        .selectAll()
        .where('run_id', '=', runId)
        .where('seq', '>', lastSeq)
        .orderBy('seq')
        .execute();
      for (const e of events) {
        lastSeq = e.seq;
        print(`${e.created_at.toISOString()} #${e.seq} ${e.type} ${JSON.stringify(e.data)}`);
        const status = (e.data as { status?: string }).status;
        if (e.type === 'run.status' && status && isTerminalRunStatus(status)) {
          const final = await getRunRow(db, runId);
          print(`run ${runId} ended ${status}${final?.error ? `: ${final.error}` : ''}`);
          return status === 'failed' ? 2 : 0;
        }
      }
      // Woken by NOTIFY; the timeout only guards against a notification lost with a dropped connection.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 5_000);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    await listener.end();
  }
}

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
export async function reconcileRunsCommand(db: Db, temporal: Client, opts: { dryRun: boolean }, print: (line: string) => void = console.log): Promise<number> {
  const { staleAfterMs } = reconcilerSettingsFromEnv(process.env);
  const report = await reconcileOnce(db, temporal, { staleAfterMs, dryRun: opts.dryRun });
  const verb = report.dryRun ? 'would settle' : 'settled';
  for (const a of report.settled) {
    print(`${verb} ${a.kind} ${a.id}: ${a.from} -> ${a.to}${a.errorCode ? ` (${a.errorCode})` : ''}; ${a.reason}`);
  }
  print(`${report.dryRun ? 'dry run: ' : ''}${report.settled.length} ${verb} of ${report.examined.runs} runs and ${report.examined.orders} orders not terminal`);
  return 0;
}
