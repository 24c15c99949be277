import {
  type OrderRow,
  cancelPlannedChildren,
  enqueueEngineCommand,
  markCancelRequested,
  getOrder,
  lockOrder,
  orderChildIdsAmong,
  orderCounts,
  replanFailedChildren,
  setOrderStatus,
} from '@atelier/db';
import type { EnforcementMode } from '@atelier/domain';
import { visibleRecord } from '../access.js';
import { underBudgets } from '../budgets/enforce.js';
import { fail } from '../errors.js';
import type { Caller } from '../caller.js';

/** An order the caller may see, with their access; 404 otherwise. */
export async function visibleOrder(caller: Caller, orderId: string): Promise<OrderRow> {
  return (await visibleRecord(caller, await getOrder(caller.services.db, orderId), { noun: 'order', id: orderId })).row;
}

const notFrom = (order: OrderRow, allowed: OrderRow['status'][], action: string) => {
  if (!allowed.includes(order.status))
    throw fail.invalidTransition(`an order that is ${order.status} cannot be ${action}`, { status: order.status });
};

/** What planned children would add to spend, and what the order itself has spent so far. */
async function reservation(caller: Caller, order: OrderRow) {
  const { db } = caller.services;
  const counts = await orderCounts(db, order.id);
  const perChild = counts.planned > 0 ? Number(order.estimated_cost_usd) / Math.max(1, order.planned_count) : 0;
  return { estimate: perChild * counts.planned, perChild, spent: counts.actualCostUsd };
}

/** Budgets are re-checked against current spend; the status moves in the same transaction that holds them. */
async function underOrderBudgets(
  caller: Caller,
  order: OrderRow,
  attempted: 'order.start' | 'order.retry',
  move: Parameters<typeof underBudgets>[2],
) {
  const { estimate, perChild, spent } = await reservation(caller, order);
  const cap =
    order.budget_limit_usd === null
      ? undefined
      : {
          limitUsd: Number(order.budget_limit_usd),
          enforcementMode: order.budget_enforcement_mode as EnforcementMode,
          spentUsd: spent,
          orderId: order.id,
        };
  return underBudgets(
    caller,
    {
      workspaceId: order.workspace_id,
      projectId: order.project_id,
      estimateUsd: estimate,
      largestRunUsd: perChild,
      attempted,
      ...(cap ? { orderCap: cap } : {}),
    },
    move,
  );
}

export async function startOrder(caller: Caller, orderId: string): Promise<void> {
  const order = await visibleOrder(caller, orderId);
  notFrom(order, ['planned'], 'started');
  await underOrderBudgets(caller, order, 'order.start', async (tx) => {
    const locked = await lockOrder(tx, order.id);
    if (locked?.status !== 'planned')
      throw fail.invalidTransition(`order ${order.id} is already ${locked?.status}`, { status: locked?.status });
    await setOrderStatus(tx, order.id, 'running', { started_at: new Date() });
    await enqueueEngineCommand(tx, 'start_order', order.id);
  });
  caller.services.dispatcher?.wake();
}

export async function retryFailed(
  caller: Caller,
  orderId: string,
  req: { all?: boolean; runIds?: string[]; includeDeterministic?: boolean },
): Promise<string[]> {
  const { db } = caller.services;
  const order = await visibleOrder(caller, orderId);
  notFrom(order, ['running', 'attention', 'failed'], 'retried');
  if (req.runIds?.length && !req.all) {
    const children = new Set(await orderChildIdsAmong(db, order.id, req.runIds));
    const unknown = req.runIds.filter((id) => !children.has(id));
    if (unknown.length)
      throw fail.validation([
        { type: 'value_error', loc: ['body', 'runIds'], msg: `not children of ${order.id}: ${unknown.join(', ')}`, input: unknown },
      ]);
  }
  // The fresh attempts add spend, so the budgets judge them (at most every eligible failure) first.
  const counts = await orderCounts(db, order.id);
  const eligible = req.includeDeterministic ? counts.failed : counts.failed - counts.failedDeterministic;
  const retries = req.all ? eligible : Math.min(eligible, req.runIds?.length ?? 0);
  const perChild = Number(order.estimated_cost_usd) / Math.max(1, order.planned_count);
  const cap =
    order.budget_limit_usd === null
      ? undefined
      : {
          limitUsd: Number(order.budget_limit_usd),
          enforcementMode: order.budget_enforcement_mode as EnforcementMode,
          spentUsd: counts.actualCostUsd,
          orderId: order.id,
        };
  const fresh = await underBudgets(
    caller,
    {
      workspaceId: order.workspace_id,
      projectId: order.project_id,
      estimateUsd: perChild * retries,
      largestRunUsd: perChild,
      attempted: 'order.retry',
      ...(cap ? { orderCap: cap } : {}),
    },
    async (tx) => {
      await lockOrder(tx, order.id);
      const ids = await replanFailedChildren(tx, order.id, {
        runIds: req.all ? undefined : req.runIds,
        includeDeterministic: req.includeDeterministic === true,
      });
      if (ids.length > 0) {
        await setOrderStatus(tx, order.id, 'running');
        await enqueueEngineCommand(tx, 'start_order', order.id);
      }
      return ids;
    },
  );
  if (fresh.length > 0) caller.services.dispatcher?.wake();
  return fresh;
}

export async function acceptGap(caller: Caller, orderId: string, reason: string): Promise<void> {
  const order = await visibleOrder(caller, orderId);
  notFrom(order, ['attention'], 'settled short');
  await caller.services.db.transaction().execute(async (tx) => {
    await cancelPlannedChildren(tx, order.id);
    await setOrderStatus(tx, order.id, 'completed', { accept_gap_reason: reason });
  });
}

/**
 * A running order is asked to stop through the engine (its children in flight stop at a step boundary);
 * one with nothing in flight is settled here at once.
 */
export async function cancelOrder(caller: Caller, orderId: string): Promise<void> {
  const { db } = caller.services;
  const order = await visibleOrder(caller, orderId);
  notFrom(order, ['planned', 'running', 'attention'], 'cancelled');
  const viaEngine = await db.transaction().execute(async (tx) => {
    const locked = await lockOrder(tx, order.id);
    if (!locked || !['planned', 'running', 'attention'].includes(locked.status)) {
      throw fail.invalidTransition(`an order that is ${locked?.status} cannot be cancelled`, { status: locked?.status });
    }
    if (locked.status === 'running') {
      await enqueueEngineCommand(tx, 'cancel_order', order.id);
      await markCancelRequested(tx, { orderId: order.id });
      return true;
    }
    await cancelPlannedChildren(tx, order.id);
    await setOrderStatus(tx, order.id, 'cancelled');
    return false;
  });
  if (viaEngine) caller.services.dispatcher?.wake();
}
