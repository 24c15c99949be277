import { ApplicationFailure } from '@temporalio/common';
import {
  type Db,
  cancelPlannedChildren,
  cancelUnstartedChildren,
  claimPlannedChildren,
  getOrder,
  orderCounts,
  setOrderStatus,
} from '@atelier/db';
import { runWorkflowInputOf } from '../run-input.js';
import type { OrderProgress, RunShape, RunWorkflowInput, SettleOrderInput } from '../run-types.js';
import { CHILD_SHAPE_UNNAMED } from '../workflows/shapes.js';

/** The activities of the order workflow: claiming children, reading progress, settling the order. */
export function createOrderActivities(db: Db) {
  const orderOrThrow = async (orderId: string) => {
    const order = await getOrder(db, orderId);
    if (!order) throw ApplicationFailure.nonRetryable(`order ${orderId} is not in the database`, 'order_missing');
    return order;
  };

  return {
    /**
     * Claims the next planned children (planned → pending) and returns their run workflow inputs. A retry
     * of the same `claim` returns what its first attempt claimed, if that attempt committed. The children
     * take the shape the order names (an order of shape 3 names none: its children take 5).
     */
    async claimOrderChildren(input: { orderId: string; limit: number; claim: string; runShape?: RunShape }): Promise<RunWorkflowInput[]> {
      const rows = await claimPlannedChildren(db, input.orderId, input.limit, input.claim);
      return rows.map((row) => runWorkflowInputOf(row, input.runShape ?? CHILD_SHAPE_UNNAMED));
    },

    async orderProgress(input: { orderId: string }): Promise<OrderProgress> {
      const order = await orderOrThrow(input.orderId);
      const counts = await orderCounts(db, input.orderId);
      return { targetCount: order.target_count, succeeded: counts.succeeded, status: order.status };
    },

    /**
     * Settles the order. `decide` (nothing left to run) chooses: completed when enough children
     * succeeded; failed when none did and every failure would fail again (deterministic); otherwise
     * attention, for a person to retry the failed children or accept the gap.
     */
    async settleOrder(input: SettleOrderInput): Promise<{ status: string }> {
      const order = await orderOrThrow(input.orderId);
      if (order.status === 'cancelled' || (order.status === 'completed' && input.status !== 'cancelled')) {
        // Settled already (by a cancel or the reconciler): children claimed for it still must not stay pending.
        if (input.unstarted?.length) await cancelUnstartedChildren(db, input.orderId, input.unstarted);
        return { status: order.status };
      }
      let status: 'completed' | 'cancelled' | 'attention' | 'failed';
      if (input.status === 'decide') {
        const c = await orderCounts(db, input.orderId);
        if (c.succeeded >= order.target_count) status = 'completed';
        else if (c.succeeded === 0 && c.failed > 0 && c.failedDeterministic === c.failed) status = 'failed';
        else status = 'attention';
      } else status = input.status;
      await db.transaction().execute(async (tx) => {
        if (status === 'completed' || status === 'cancelled') await cancelPlannedChildren(tx, input.orderId);
        if (input.unstarted?.length) await cancelUnstartedChildren(tx, input.orderId, input.unstarted);
        const reason =
          input.status === 'failed'
            ? (input.reason ?? 'engine_error: the order could not be carried through')
            : 'every child failed with a failure that would repeat; retry with includeDeterministic to try again';
        await setOrderStatus(tx, input.orderId, status, status === 'failed' ? { failure_reason: reason } : {});
      });
      return { status };
    },
  };
}

export type OrderActivities = ReturnType<typeof createOrderActivities>;
