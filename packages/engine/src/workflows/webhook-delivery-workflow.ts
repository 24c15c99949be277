/**
 * One durable delivery of one webhook message (workflow id = message id), whatever its target kind. The
 * attempt activity signs and sends afresh each time; Temporal retries it with exponential backoff for
 * network errors, timeouts, 5xx and 429 (a Retry-After becomes the next delay) and stops at a final answer
 * (another 4xx, a redirect) or the last attempt. The webhook-id is the message id on every attempt.
 *
 * Deliveries run on the webhook task queue (webhookTaskQueue), whose worker has slots of its own, so an
 * integrator that hangs never holds a slot a run step needs.
 */
import { ActivityFailure, patched, proxyActivities, workflowInfo } from '@temporalio/workflow';
import {
  WEBHOOK_FINAL,
  type WebhookActivities,
  type WebhookDeliveryInput,
  type WebhookDeliveryResult,
  webhookTaskQueue,
} from '../webhooks/types.js';

/**
 * Marks a delivery started on the run task queue (by a gateway from before the webhook queue) that sends its
 * activities to the webhook queue beside it. One recorded without it (before the webhook queue) replays with
 * its activities on the run queue, where they were scheduled; the run worker still runs them.
 */
export const WEBHOOK_QUEUE_PATCH = 'webhook-queue';

/**
 * The queue of the delivery's activities; undefined for the workflow's own. A delivery started on the webhook
 * queue says so in its input (`ownQueue`) and asks no patch, so it records no marker; the input is in the
 * history, so deciding from it is deterministic.
 */
function activityQueue(input: WebhookDeliveryInput): string | undefined {
  if (input.ownQueue) return undefined;
  return patched(WEBHOOK_QUEUE_PATCH) ? webhookTaskQueue(workflowInfo().taskQueue) : undefined;
}

export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  const { messageId, retry } = input;
  const queue = activityQueue(input);
  const { attemptWebhookDelivery } = proxyActivities<WebhookActivities>({
    ...(queue ? { taskQueue: queue } : {}),
    startToCloseTimeout: retry.attemptTimeoutMs,
    retry: {
      initialInterval: retry.initialIntervalMs,
      backoffCoefficient: retry.backoffCoefficient,
      maximumInterval: retry.maximumIntervalMs,
      maximumAttempts: retry.maximumAttempts,
      nonRetryableErrorTypes: [WEBHOOK_FINAL],
    },
  });
  const { settleWebhookMessage } = proxyActivities<WebhookActivities>({
    ...(queue ? { taskQueue: queue } : {}),
    startToCloseTimeout: '30 seconds',
    retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
  });
  try {
    const done = await attemptWebhookDelivery({ messageId, maximumAttempts: retry.maximumAttempts });
    return { messageId, status: 'delivered', attempts: done.attempt, lastStatusCode: done.statusCode };
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    const error = err.cause?.message ?? err.message;
    // Usually already settled by the final attempt's record; this covers attempts that never reported (timeouts).
    await settleWebhookMessage({ messageId, status: 'failed', error });
    return { messageId, status: 'failed', lastStatusCode: null, error };
  }
}
