/**
 * The order workflow (workflow id = order id): starts the order's planned children as child run
 * workflows with bounded concurrency, stops starting new ones once `targetCount` succeeded, and settles
 * the order when nothing is left to run. After a few hundred children it continues as new, so its
 * history stays bounded for orders of any size; counts always come from the children's own records.
 */
import {
  CancellationScope,
  ContinueAsNew,
  ParentClosePolicy,
  condition,
  continueAsNew,
  defineSignal,
  deprecatePatch,
  executeChild,
  getExternalWorkflowHandle,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { OrderActivities } from '../activities/orders.js';
import type { OrderWorkflowInput, RunOutcome, RunWorkflowInput, SettleOrderInput } from '../run-types.js';
import { cancelRunSignal, childSettledSignal, runWorkflow } from './run-workflow.js';
import { SEARCH_ATTRIBUTES } from './search-attributes.js';
import { RUN_SHAPE, hearsChildrenSettle } from './shapes.js';

/** Children started by one execution before it continues as new, at the least. */
export const CHILDREN_PER_EXECUTION = 400;

/**
 * At least twice the concurrency, so an order allowed more than 400 children at once has them (at 1,000, its
 * largest, an execution's history holds 2,000 children: a few MB, under Temporal's limits).
 */
function childrenPerExecution(input: OrderWorkflowInput): number {
  return Math.max(CHILDREN_PER_EXECUTION, 2 * input.concurrency);
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

/*
 * Deprecated patches: every execution records their markers where it meets them, the previous release's by
 * patched(), so they stay, as deprecatePatch, until no order started before this release can be open (core
 * fails a plain marker no call matches, and ignores a deprecated one); the branches for histories without
 * them (orders of retired shapes) are gone (docs/operations.md, Retiring a workflow shape).
 */
/** Marks the cancel that also requests Temporal cancellation of the children in flight, which end Canceled (run-failures.ts, closeAs). */
export const CANCEL_CHILDREN_PATCH = 'cancel-children-through-temporal';
/** Marks the path that settles the order on an unexpected failure, as a run is (RunProgress.settleFailure). */
export const SETTLE_ORDER_FAILURE_PATCH = 'settle-order-failure';
/** Marks the `OrderStatus` search attribute upserts, once per execution (the first). */
export const ORDER_STATUS_ATTRIBUTE_PATCH = 'order-status-attribute';

/**
 * Shows the order's status as this workflow read or wrote it in the `OrderStatus` search attribute, so
 * on-call finds orders by status in Temporal (`OrderStatus = 'attention'`). PostgreSQL stays the record:
 * a change made after the execution closed (accept-gap, a cancel of an order in attention, the
 * reconciler) cannot reach a closed execution's attributes.
 */
function showOrderStatus(status: string): void {
  deprecatePatch(ORDER_STATUS_ATTRIBUTE_PATCH);
  upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.OrderStatus, value: status }]);
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
  // Children are claimed ahead, a batch as large as the concurrency, so most children start without a claim
  // (an activity, a database round trip) of their own; those claimed and never started are cancelled with the
  // order's settlement. The next batch is claimed as soon as one is used up, while its children run, so a
  // slot that frees up never waits for a claim.
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
  /** A claim under way, how it failed, and wakes since it began (it may have missed their children). */
  let claiming = false;
  let claimFailure: unknown;
  let wakes = 0;
  // Shape 4: children wait open in review and say they settled (childSettledSignal); they outlive the order,
  // whose close asks the rest to cancel (run-types.ts, RunShape).
  const signalled = hearsChildrenSettle(input.shape);
  const claim = (limit: number) => {
    claiming = true;
    const wakesBefore = wakes;
    void claimOrderChildren({ orderId, limit, claim: nextClaim(), ...(signalled ? { runShape: RUN_SHAPE } : {}) })
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

  let succeeded = 0;
  let started = 0;
  /** Children that said they settled before their execution closed: counted then, not again at the close. */
  const settledOpen = new Set<string>();
  const countSucceeded = (outcome: RunOutcome) => {
    if (outcome.status === 'completed' || outcome.status === 'review') succeeded += 1;
  };
  const start = (child: RunWorkflowInput) => {
    started += 1;
    inFlight.add(child.runId);
    void executeChild(runWorkflow, {
      workflowId: child.runId,
      args: [child],
      ...(signalled ? { parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL } : {}),
      typedSearchAttributes: [
        { key: SEARCH_ATTRIBUTES.OrderId, value: orderId },
        { key: SEARCH_ATTRIBUTES.WorkspaceId, value: child.workspaceId },
        { key: SEARCH_ATTRIBUTES.TemplateId, value: child.plan.id },
        { key: SEARCH_ATTRIBUTES.RunStatus, value: 'pending' },
      ],
    })
      .then(
        (outcome) => {
          if (!settledOpen.has(child.runId)) countSucceeded(outcome);
        },
        () => undefined, // a child that errored has recorded its own failure
      )
      .finally(() => {
        inFlight.delete(child.runId);
        changed = true;
      });
  };

  setHandler(cancelOrderSignal, () => {
    cancelRequested = true;
    // Children stop at their next step boundary; the cancellation request lets their executions end Canceled.
    deprecatePatch(CANCEL_CHILDREN_PATCH);
    for (const child of inFlight) {
      const handle = getExternalWorkflowHandle(child);
      void handle.signal(cancelRunSignal).catch(() => undefined);
      void handle.cancel().catch(() => undefined);
    }
  });
  setHandler(childSettledSignal, (outcome) => {
    if (!inFlight.delete(outcome.runId)) return;
    settledOpen.add(outcome.runId);
    countSucceeded(outcome);
    changed = true;
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
    succeeded = progress.succeeded;
    let targetReached = succeeded >= progress.targetCount;

    for (;;) {
      changed = false;
      if (cancelRequested) {
        await condition(() => inFlight.size === 0 && !claiming);
        return { orderId, ...(await settle({ orderId, status: 'cancelled', ...unstarted() })) };
      }
      // Claimed children start while slots are free (a batch never holds more than the execution may start);
      // once the target is reached, those left are cancelled with the settlement.
      while (!targetReached && ready.length > 0 && inFlight.size < input.concurrency) start(ready.shift()!);
      // The next batch is claimed once this one is used up, whether the loop ran out of children or of slots.
      if (ready.length === 0 && !claiming && !exhausted && !targetReached && started < perExecution)
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
    if (err instanceof ContinueAsNew) throw err;
    deprecatePatch(SETTLE_ORDER_FAILURE_PATCH);
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
