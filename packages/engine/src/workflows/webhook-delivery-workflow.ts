/**
 * One durable delivery of one webhook message (workflow id = message id), whatever its target kind. The
 * attempt activity signs and sends afresh each time; Temporal retries it with exponential backoff for
 * network errors, timeouts, 5xx and 429 (a Retry-After becomes the next delay) and stops at a final answer
 * (another 4xx, a redirect) or the last attempt. The webhook-id is the message id on every attempt.
 *
 * Deliveries run on the webhook task queue (webhookTaskQueue), whose worker has slots of its own, so an
 * integrator that hangs never holds a slot a run step needs; their activities run on the workflow's own queue.
 * That is the one shape left (`ownQueue` in the input): deliveries started on the run queue, with or without
 * the `webhook-queue` patch, were retired (docs/operations.md, Retiring a workflow shape).
 */
import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import { WEBHOOK_FINAL, type WebhookActivities, type WebhookDeliveryInput, type WebhookDeliveryResult } from '../webhooks/types.js';

export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  const { messageId, retry } = input;
  const { attemptWebhookDelivery } = proxyActivities<WebhookActivities>({
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
