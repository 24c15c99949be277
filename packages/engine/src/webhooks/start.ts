import { type Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import { webhookDeliveryWorkflow } from '../workflows/webhook-delivery-workflow.js';
import { type WebhookDeliveryInput, type WebhookRetrySettings, webhookTaskQueue } from './types.js';

/**
 * Starts the one delivery workflow of a message (workflow id = message id) on the webhook task queue beside
 * the run queue `taskQueue`, served by the webhook worker of each worker process. Idempotent: a second start,
 * even after the first finished, is refused by Temporal and ignored here, so a message is delivered once
 * however often the outbox hands it over.
 */
export async function startWebhookDelivery(
  client: Client,
  messageId: string,
  opts: { taskQueue: string; retry: WebhookRetrySettings },
): Promise<'started' | 'already_started'> {
  const input: WebhookDeliveryInput = { messageId, retry: opts.retry, ownQueue: true };
  try {
    await client.workflow.start(webhookDeliveryWorkflow, {
      workflowId: messageId,
      taskQueue: webhookTaskQueue(opts.taskQueue),
      args: [input],
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    });
    return 'started';
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return 'already_started';
    throw err;
  }
}
