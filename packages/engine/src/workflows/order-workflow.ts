/**
 * The order workflow (workflow id = order id): starts the order's planned children as child run
 * workflows with bounded concurrency, stops starting new ones once `targetCount` succeeded, and settles
 * the order when nothing is left to run. After a few hundred children it continues as new, so its
 * history stays bounded for orders of any size; counts always come from the children's own records.
 */
import {
  CancellationScope,
  ContinueAsNew,
  condition,
  continueAsNew,
  defineSignal,
  executeChild,
  getExternalWorkflowHandle,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { OrderActivities } from '../activities/orders.js';
import type { OrderWorkflowInput, RunWorkflowInput, SettleOrderInput } from '../run-types.js';
import { cancelRunSignal, runWorkflow } from './run-workflow.js';
import { SEARCH_ATTRIBUTES } from './search-attributes.js';

/** Children started by one execution before it continues as new. */
export const CHILDREN_PER_EXECUTION = 400;

/**
 * Shape 3: at least twice the concurrency, so an order allowed more than 400 children at once has them (at
 * 1,000, its largest, an execution's history holds 2,000 children: a few MB, under Temporal's limits).
 */
function childrenPerExecution(input: OrderWorkflowInput): number {
  return input.shape === 3 ? Math.max(CHILDREN_PER_EXECUTION, 2 * input.concurrency) : CHILDREN_PER_EXECUTION;
}

/**
 * A claimed child's template (its `TemplateId`). Orders' shapes are not retired with runs' (docs/operations.md,
 * Retiring a workflow shape): histories of orders recorded before the definition went by reference claimed
 * children carrying the definition whole, and still replay.
 */
function templateIdOf(child: RunWorkflowInput | { definition: { id: string } }): string {
  return 'plan' in child ? child.plan.id : child.definition.id;
}

const { claimOrderChildren } = proxyActivities<OrderActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', nonRetryableErrorTypes: ['order_missing'] },
});
const { orderProgress, settleOrder } = proxyLocalActivities<OrderActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '10 seconds', nonRetryableErrorTypes: ['order_missing'] },
});

export const cancelOrderSignal = defineSignal('cancel');
/** Sent after retry-failed planned fresh children while this execution is still running. */
export const wakeOrderSignal = defineSignal('wake');

/** Marks the cancel that also requests Temporal cancellation of the children in flight, which end Canceled (run-failures.ts, closeAs). */
export const CANCEL_CHILDREN_PATCH = 'cancel-children-through-temporal';

/** Guards the path that settles the order on an unexpected failure, as a run is (RunProgress.settleFailure). */
export const SETTLE_ORDER_FAILURE_PATCH = 'settle-order-failure';
/**
 * Guards the `OrderStatus` search attribute upserts: histories recorded before them (no marker) replay
 * without them (test/histories/order-*-before-status-attribute.json).
 */
export const ORDER_STATUS_ATTRIBUTE_PATCH = 'order-status-attribute';

/**
 * Shows the order's status as this workflow read or wrote it in the `OrderStatus` search attribute, so
 * on-call finds orders by status in Temporal (`OrderStatus = 'attention'`). PostgreSQL stays the record:
 * a change made after the execution closed (accept-gap, a cancel of an order in attention, the
 * reconciler) cannot reach a closed execution's attributes.
 */
function showOrderStatus(status: string): void {
  if (patched(ORDER_STATUS_ATTRIBUTE_PATCH)) upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.OrderStatus, value: status }]);
}

/** Settles the order through the activity and shows the status it wrote (or found already settled). */
async function settle(input: SettleOrderInput): Promise<{ status: string }> {
  const written = await settleOrder(input);
  showOrderStatus(written.status);
  return written;
}

export async function orderWorkflow(input: OrderWorkflowInput): Promise<{ orderId: string; status: string }> {
  const { orderId } = input;
  const inFlight = new Set<string>();
  // Shape 1 claims children ahead, a batch as large as the concurrency, so most children start without a
  // claim (an activity, a database round trip) of their own; those claimed and never started are cancelled
  // with the order's settlement. Shape 2 claims the next batch as soon as one is used up, while its
  // children run, so a slot that frees up never waits for a claim.
  const claimAhead = input.shape === 1;
  const prefetch = input.shape === 2 || input.shape === 3;
  const perExecution = childrenPerExecution(input);
  const ready: RunWorkflowInput[] = [];
  const unstarted = () => {
    const ids = ready.splice(0).map((c) => c.runId);
    return ids.length > 0 ? { unstarted: ids } : {};
  };
  // Each claim's id, unique to this execution and the same on replay: a retried claim activity finds its children by it.
  let claims = 0;
  const nextClaim = () => `${workflowInfo().runId}/${++claims}`;
  let cancelRequested = false;
  let changed = false;
  let exhausted = false;
  /** Shape 2: a claim under way, how it failed, and wakes since it began (it may have missed their children). */
  let claiming = false;
  let claimFailure: unknown;
  let wakes = 0;
  const claim = (limit: number) => {
    claiming = true;
    const wakesBefore = wakes;
    void claimOrderChildren({ orderId, limit, claim: nextClaim() })
      .then(
        (batch) => {
          if (batch.length > 0) ready.push(...batch);
          else if (wakes === wakesBefore) exhausted = true;
        },
        (err) => {
          claimFailure = err;
        },
      )
      .finally(() => {
        claiming = false;
        changed = true;
      });
  };

  setHandler(cancelOrderSignal, () => {
    cancelRequested = true;
    // Children stop at their next step boundary; the cancellation request lets their executions end Canceled.
    const requestCancel = patched(CANCEL_CHILDREN_PATCH);
    for (const child of inFlight) {
      const handle = getExternalWorkflowHandle(child);
      void handle.signal(cancelRunSignal).catch(() => undefined);
      if (requestCancel) void handle.cancel().catch(() => undefined);
    }
  });
  setHandler(wakeOrderSignal, () => {
    wakes += 1;
    exhausted = false;
    changed = true;
  });

  try {
    const progress = await orderProgress({ orderId });
    showOrderStatus(progress.status);
    if (progress.status === 'cancelled') return { orderId, status: 'cancelled' };
    let succeeded = progress.succeeded;
    let targetReached = succeeded >= progress.targetCount;
    let started = 0;

    for (;;) {
      changed = false;
      if (cancelRequested) {
        await condition(() => inFlight.size === 0 && !claiming);
        return { orderId, ...(await settle({ orderId, status: 'cancelled', ...unstarted() })) };
      }
      while (!targetReached && !exhausted && inFlight.size < input.concurrency && started < perExecution) {
        // Shape 2 claims below, once, whether the loop ran out of children or of free slots.
        if (ready.length === 0 && prefetch) break;
        if (ready.length === 0) {
          const batch = await claimOrderChildren({
            orderId,
            claim: nextClaim(),
            limit: Math.min(claimAhead ? input.concurrency : input.concurrency - inFlight.size, perExecution - started),
          });
          if (batch.length === 0) {
            exhausted = true;
            break;
          }
          ready.push(...batch);
        }
        while (ready.length > 0 && inFlight.size < input.concurrency) {
          const child = ready.shift()!;
          started += 1;
          inFlight.add(child.runId);
          void executeChild(runWorkflow, {
            workflowId: child.runId,
            args: [child],
            typedSearchAttributes: [
              { key: SEARCH_ATTRIBUTES.OrderId, value: orderId },
              { key: SEARCH_ATTRIBUTES.WorkspaceId, value: child.workspaceId },
              { key: SEARCH_ATTRIBUTES.TemplateId, value: templateIdOf(child) },
              { key: SEARCH_ATTRIBUTES.RunStatus, value: 'pending' },
            ],
          })
            .then(
              (outcome) => {
                if (outcome.status === 'completed' || outcome.status === 'review') succeeded += 1;
              },
              () => undefined, // a child that errored has recorded its own failure
            )
            .finally(() => {
              inFlight.delete(child.runId);
              changed = true;
            });
        }
      }
      if (prefetch && ready.length === 0 && !claiming && !exhausted && !targetReached && started < perExecution)
        claim(Math.min(input.concurrency, perExecution - started));
      if (claimFailure !== undefined) throw claimFailure;
      if (!targetReached && succeeded >= progress.targetCount) {
        targetReached = true;
        // The order is complete; children not yet started are cancelled, those in flight finish.
        if (claiming) await condition(() => !claiming);
        await settle({ orderId, status: 'completed', ...unstarted() });
      }
      if (inFlight.size === 0 && !claiming) {
        if (targetReached) return { orderId, status: 'completed' };
        if (exhausted) return { orderId, ...(await settle({ orderId, status: 'decide' })) };
        if (started >= perExecution) await continueAsNew<typeof orderWorkflow>(input);
      }
      await condition(() => changed || cancelRequested);
    }
  } catch (err) {
    if (err instanceof ContinueAsNew || !patched(SETTLE_ORDER_FAILURE_PATCH)) throw err;
    // Any other failure settles the order before the execution closes: children in flight finish and
    // settle themselves first, then the order is failed with the reason (the reconciler is the backstop).
    return CancellationScope.nonCancellable(async () => {
      await condition(() => inFlight.size === 0 && !claiming);
      if (isCancellation(err)) return { orderId, ...(await settle({ orderId, status: 'cancelled', ...unstarted() })) };
      const message =
        err instanceof Error ? (err.cause instanceof Error ? `${err.message}: ${err.cause.message}` : err.message) : String(err);
      return {
        orderId,
        ...(await settle({ orderId, status: 'failed', reason: `engine_error: the order's workflow failed: ${message}`, ...unstarted() })),
      };
    });
  }
}
