import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import type { RunWorkflowInput } from './run-types';
import { SEARCH_ATTRIBUTES } from './workflows/search-attributes';

export interface StartRunOptions {
  taskQueue: string;
  templateId: string;
  orderId?: string | null;
}

/** Starts the run's Temporal workflow; its workflow id is the run id, so a second start is refused. */
export async function startRunWorkflow(client: Client, input: RunWorkflowInput, opts: StartRunOptions): Promise<void> {
  await client.workflow.start('runWorkflow', {
    workflowId: input.runId,
    taskQueue: opts.taskQueue,
    args: [input],
    typedSearchAttributes: [
      { key: SEARCH_ATTRIBUTES.WorkspaceId, value: input.workspaceId },
      { key: SEARCH_ATTRIBUTES.TemplateId, value: opts.templateId },
      { key: SEARCH_ATTRIBUTES.RunStatus, value: 'queued' },
      ...(opts.orderId ? [{ key: SEARCH_ATTRIBUTES.OrderId, value: opts.orderId }] : []),
    ],
  });
}

/** Asks a run to stop at its next step boundary. Reports whether a live workflow received the signal. */
export async function signalRunCancel(client: Client, runId: string): Promise<'signalled' | 'not_running'> {
  try {
    await client.workflow.getHandle(runId).signal('cancel');
    return 'signalled';
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return 'not_running';
    throw err;
  }
}
