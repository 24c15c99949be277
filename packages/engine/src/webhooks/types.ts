/**
 * Types of the shared outbound webhook machinery that workflow code may import: pure, no I/O. A message
 * is delivered by one `webhookDeliveryWorkflow` (workflow id = message id); its attempts are one activity
 * retried by Temporal under the retry settings fixed when the message was started.
 */

/** Backoff of one message's attempts. Network errors, timeouts, 5xx and 429 are retried; other 4xx are final. */
export interface WebhookRetrySettings {
  /** Delay before the second attempt (each later one doubles, up to maximumIntervalMs). */
  initialIntervalMs: number;
  backoffCoefficient: number;
  maximumIntervalMs: number;
  /** Attempts in all, the first included. */
  maximumAttempts: number;
  /** Longest one attempt may take before Temporal gives it up and retries (a worker killed mid-send). */
  attemptTimeoutMs: number;
}

/** About 15 attempts over roughly 9 hours: 5 s, 10 s, 20 s … capped at 1 h between attempts. */
export const DEFAULT_WEBHOOK_RETRY: Readonly<WebhookRetrySettings> = Object.freeze({
  initialIntervalMs: 5_000,
  backoffCoefficient: 2,
  maximumIntervalMs: 60 * 60_000,
  maximumAttempts: 15,
  attemptTimeoutMs: 60_000,
});

export interface WebhookDeliveryInput {
  messageId: string;
  retry: WebhookRetrySettings;
  /**
   * Started on the webhook task queue (webhookTaskQueue): its activities run on the workflow's own queue.
   * Every delivery says so; those started on the run queue without it were retired (docs/operations.md,
   * Retiring a workflow shape).
   */
  ownQueue: true;
}

export interface WebhookDeliveryResult {
  messageId: string;
  status: 'delivered' | 'failed';
  /** The delivering attempt's number (Temporal's activity attempt). */
  attempts?: number;
  lastStatusCode: number | null;
  error?: string;
}

/** The activities the delivery workflow calls (created by createWebhookActivities). */
export interface WebhookActivities {
  /**
   * One attempt: reads the target's current URL and secret, signs afresh (new webhook-timestamp), sends,
   * records the attempt and the target's health. Resolves when delivered; throws a retryable failure
   * (honouring Retry-After) or a non-retryable `webhook_final` one.
   */
  attemptWebhookDelivery(input: { messageId: string; maximumAttempts: number }): Promise<{ statusCode: number; attempt: number }>;
  /** Settles a message the workflow gave up on without a final attempt record (e.g. every attempt timed out). */
  settleWebhookMessage(input: { messageId: string; status: 'delivered' | 'failed'; error: string | null }): Promise<void>;
}

/** ApplicationFailure types thrown by the attempt activity. */
export const WEBHOOK_FINAL = 'webhook_final';
export const WEBHOOK_RETRY = 'webhook_retry';

/**
 * The task queue webhook deliveries run on, beside a deployment's run queue: served by a worker of its own
 * in each worker process (createRunWorker), so attempts that hang for their whole timeout hold that
 * worker's slots and never the ones run steps need.
 */
export const webhookTaskQueue = (runQueue: string) => `${runQueue}-webhooks`;
