import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { settleWebhookMessage } from '@atelier/db';
import type { WorkerMetrics } from '../metrics.js';
import { type WebhookAttemptDeps, attemptWebhook } from './attempt.js';
import { WEBHOOK_FINAL, WEBHOOK_RETRY, type WebhookActivities } from './types.js';

/**
 * The delivery workflow's activities. The attempt activity is retried by Temporal (exponential backoff
 * from the workflow's retry settings); its attempt number is Temporal's, so a worker killed mid-send is
 * just one more attempt, and the message is never lost.
 */
export function createWebhookActivities(
  deps: WebhookAttemptDeps & { maximumRetryAfterMs?: number; metrics?: Pick<WorkerMetrics, 'webhookDeliveries'> },
): WebhookActivities {
  return {
    async attemptWebhookDelivery({ messageId, maximumAttempts }) {
      const attempt = Context.current().info.attempt;
      const r = await attemptWebhook(deps, { messageId, attempt, lastAttempt: attempt >= maximumAttempts });
      if (!r.alreadySettled) deps.metrics?.webhookDeliveries.inc({ outcome: r.outcome, attempt: String(attempt) });
      if (r.outcome === 'delivered') return { statusCode: r.statusCode ?? 0, attempt };
      if (r.outcome === 'failed' || r.alreadySettled) {
        throw ApplicationFailure.create({ type: WEBHOOK_FINAL, nonRetryable: true, message: r.error ?? 'not delivered' });
      }
      const delay = r.retryAfterMs === undefined ? undefined : Math.min(r.retryAfterMs, deps.maximumRetryAfterMs ?? 6 * 60 * 60_000);
      throw ApplicationFailure.create({
        type: WEBHOOK_RETRY,
        message: r.error ?? 'not delivered',
        ...(delay !== undefined ? { nextRetryDelay: Math.max(delay, 1) } : {}),
      });
    },
    async settleWebhookMessage({ messageId, status, error }) {
      await settleWebhookMessage(deps.db, messageId, status, error);
    },
  };
}
