/**
 * The reconciler: the backstop that leaves no run or order stuck. It looks for runs and orders that are
 * not terminal in PostgreSQL although their Temporal execution has closed (terminated, timed out, or
 * failed before it could settle), or that have had no execution at all for longer than `staleAfterMs`,
 * and settles them from what was recorded — with the same settlement rule the workflow follows
 * (decideRunSettlement). The worker runs it on a Temporal Schedule (ensureReconcilerSchedule); on-call
 * runs one pass with `atelier runs reconcile [--dry-run]`.
 */
import { Context } from '@temporalio/activity';
import { type Client, ScheduleAlreadyRunning, ScheduleOverlapPolicy, WorkflowNotFoundError } from '@temporalio/client';
import type { Logger } from 'pino';
import {
  type Db,
  cancelPlannedChildren,
  engineCommandsFor,
  getOrder,
  getRunRow,
  idleRunningOrders,
  idleRunsInFlight,
  lockOrder,
  orderCounts,
  orderHasChildrenInFlight,
  setOrderStatus,
} from '@atelier/db';
import { isTerminalRunStatus } from '@atelier/domain';
import { ENGINE_ERROR } from '@atelier/domain/run-settlement';
import { settleRunFromRecord } from './settlement.js';
import type { ReconcileAction, ReconcileInput, ReconcileReport, ReconcilerActivities } from './reconcile-types.js';
import { reconcileWorkflow } from './workflows/reconcile-workflow.js';

export type { ReconcileAction, ReconcileInput, ReconcileReport, ReconcilerActivities } from './reconcile-types.js';

export interface ReconcileOptions {
  /** A run or order with no Temporal execution is settled once it has not moved for this long. */
  staleAfterMs: number;
  /** Rows updated more recently than this are left alone (a workflow may be settling them right now). */
  graceMs?: number;
  /** Report what would be settled without writing anything. */
  dryRun?: boolean;
  /** At most this many runs and this many orders looked at per pass. */
  limit?: number;
  logger?: Logger;
}

/** The reconciler's settings: ATELIER_RECONCILE_EVERY_MINUTES (5; 0 turns the schedule off), ATELIER_RECONCILE_STALE_MINUTES (10). */
export function reconcilerSettingsFromEnv(env: NodeJS.ProcessEnv): { everyMs: number; staleAfterMs: number } {
  const minutes = (name: string, fallback: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number of minutes (got "${raw}")`);
    return n;
  };
  return {
    everyMs: minutes('ATELIER_RECONCILE_EVERY_MINUTES', 5) * 60_000,
    staleAfterMs: minutes('ATELIER_RECONCILE_STALE_MINUTES', 10) * 60_000,
  };
}

type Execution = { state: 'running' } | { state: 'closed'; status: string } | { state: 'missing' };

async function executionOf(temporal: Client, workflowId: string): Promise<Execution> {
  try {
    const status = (await temporal.workflow.getHandle(workflowId).describe()).status.name;
    // Describing by workflow id gives the newest execution: a continued-as-new one is still going.
    return status === 'RUNNING' || status === 'CONTINUED_AS_NEW' ? { state: 'running' } : { state: 'closed', status };
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return { state: 'missing' };
    throw err;
  }
}

const minutes = (ms: number) => (ms >= 60_000 ? `${Math.floor(ms / 60_000)} minutes` : `${Math.round(ms / 1000)} seconds`);

/**
 * Why `execution` means the run or order will never settle itself, or null while it still may: a live
 * execution, a start command not yet delivered (the dispatcher is still trying), or a missing execution
 * that has not been missing for `staleAfterMs` yet.
 */
function stuckBecause(execution: Execution, pendingStart: boolean, idleMs: number, staleAfterMs: number): string | null {
  if (execution.state === 'running' || pendingStart) return null;
  if (execution.state === 'closed') return `its workflow execution closed (${execution.status}) without settling it`;
  if (idleMs < staleAfterMs) return null;
  return `it has had no workflow execution for ${minutes(idleMs)} (the limit is ${minutes(staleAfterMs)})`;
}

/** One reconciliation pass: runs first (an order's children settle before the order is judged), then orders. */
export async function reconcileOnce(db: Db, temporal: Client, opts: ReconcileOptions): Promise<ReconcileReport> {
  const graceMs = opts.graceMs ?? 60_000;
  const limit = opts.limit ?? 500;
  const dryRun = opts.dryRun === true;
  const settled: ReconcileAction[] = [];

  // Why an idle run or order is stuck (nothing, while its execution lives), with its engine commands.
  const diagnose = async (candidate: { id: string; updated_at: Date }, start: 'start_run' | 'start_order') => {
    const commands = await engineCommandsFor(db, candidate.id);
    const because = stuckBecause(
      await executionOf(temporal, candidate.id),
      commands.some((c) => c.kind === start && !c.done),
      Date.now() - candidate.updated_at.getTime(),
      opts.staleAfterMs,
    );
    return { commands, because };
  };

  const runs = await idleRunsInFlight(db, graceMs, limit);
  const unsettledChildrenOf = new Set<string>();
  for (const candidate of runs) {
    const { commands, because } = await diagnose(candidate, 'start_run');
    if (!because) continue;
    const run = await getRunRow(db, candidate.id);
    if (!run || isTerminalRunStatus(run.status)) continue;
    const { settlement, row } = await settleRunFromRecord(db, run, {
      closedBecause: `the engine lost the run: ${because}`,
      cancelRequested: commands.some((c) => c.kind === 'cancel_run'),
      dryRun,
    });
    if (!dryRun && row && !isTerminalRunStatus(row.status)) continue;
    settled.push({
      kind: 'run',
      id: run.id,
      from: run.status,
      to: dryRun ? settlement.status : row!.status,
      reason: because,
      errorCode: settlement.errorCode,
      error: settlement.error,
    });
    opts.logger?.warn(
      { runId: run.id, from: run.status, to: settlement.status, reason: because, dryRun },
      'reconciler settled a stuck run',
    );
    if (dryRun && run.parent_order_id) unsettledChildrenOf.add(run.parent_order_id);
  }

  const orders = await idleRunningOrders(db, graceMs, limit);
  for (const candidate of orders) {
    const { commands, because } = await diagnose(candidate, 'start_order');
    if (!because) continue;
    const order = await getOrder(db, candidate.id);
    if (order?.status !== 'running') continue;
    const counts = await orderCounts(db, order.id);
    // Children still under way (pending, queued or running) settle first, here or in a later pass.
    const underWay = await orderHasChildrenInFlight(db, order.id);
    if (underWay && !(dryRun && unsettledChildrenOf.has(order.id))) continue;
    const cancelled = commands.some((c) => c.kind === 'cancel_order');
    const to = cancelled ? 'cancelled' : counts.succeeded >= order.target_count ? 'completed' : 'failed';
    const error =
      to === 'failed'
        ? `${ENGINE_ERROR}: the engine lost the order: ${because}; ${counts.succeeded} of ${order.target_count} children succeeded. Retry its failed children (includeDeterministic if needed) to carry it on, or cancel it.`
        : null;
    if (!dryRun) {
      const written = await db.transaction().execute(async (tx) => {
        const locked = await lockOrder(tx, order.id);
        if (locked?.status !== 'running') return false;
        if (to !== 'failed') await cancelPlannedChildren(tx, order.id);
        await setOrderStatus(tx, order.id, to, error ? { failure_reason: error } : {});
        return true;
      });
      if (!written) continue;
    }
    settled.push({
      kind: 'order',
      id: order.id,
      from: order.status,
      to,
      reason: because,
      errorCode: to === 'failed' ? ENGINE_ERROR : null,
      error,
    });
    opts.logger?.warn({ orderId: order.id, to, reason: because, dryRun }, 'reconciler settled a stuck order');
  }
  return { dryRun, examined: { runs: runs.length, orders: orders.length }, settled };
}

/** The reconciler's activity, for the scheduled reconcile workflow; Temporal comes from the worker's own client. */
export function createReconcilerActivities(db: Db, logger?: Logger): ReconcilerActivities {
  return {
    async reconcileStuck(input: ReconcileInput): Promise<ReconcileReport> {
      return reconcileOnce(db, Context.current().client, { ...input, logger });
    },
  };
}

export const reconcilerScheduleId = (taskQueue: string) => `atelier-reconciler-${taskQueue}`;

/**
 * Creates the Temporal Schedule that runs the reconcile workflow every `everyMs` on `taskQueue`, or
 * brings an existing one up to date: idempotent, so every worker calls it at start. Overlaps are
 * skipped (one pass at a time, whatever the number of workers).
 */
export async function ensureReconcilerSchedule(
  client: Client,
  opts: { taskQueue: string; everyMs: number; staleAfterMs: number },
): Promise<'created' | 'updated'> {
  const scheduleId = reconcilerScheduleId(opts.taskQueue);
  const spec = { intervals: [{ every: opts.everyMs }] };
  const args: Parameters<typeof reconcileWorkflow> = [{ staleAfterMs: opts.staleAfterMs }];
  const action = {
    type: 'startWorkflow' as const,
    workflowType: reconcileWorkflow,
    workflowId: `reconcile-${opts.taskQueue}`,
    taskQueue: opts.taskQueue,
    args,
    workflowExecutionTimeout: '30 minutes',
  };
  try {
    await client.schedule.create({
      scheduleId,
      spec,
      action,
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
    });
    return 'created';
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
  await client.schedule.getHandle(scheduleId).update((previous) => ({ ...previous, spec, action }));
  return 'updated';
}
