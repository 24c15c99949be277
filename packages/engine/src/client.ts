import type { DecidedRunStatus } from '@atelier/domain/review';
import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import type { SignalDefinition } from '@temporalio/common';
import type { TemporalPriority } from '@atelier/domain/priority';
import type { RunWorkflowInput } from './run-types.js';
import { cancelOrderSignal, orderWorkflow, wakeOrderSignal } from './workflows/order-workflow.js';
import { cancelRunSignal, providerJobEndedSignal, reviewDecidedSignal, runWorkflow } from './workflows/run-workflow.js';
import { SEARCH_ATTRIBUTES } from './workflows/search-attributes.js';
import { ORDER_SHAPE } from './workflows/shapes.js';

export interface StartRunOptions {
  taskQueue: string;
  templateId: string;
  orderId?: string | null;
  /** Its priority and fairness keys (domain/priority.ts); its activities and sub-workflow children inherit them. */
  priority: TemporalPriority;
}

/**
 * Starts the run's Temporal workflow (by function reference, so renaming it is a compile error); its
 * workflow id is the run id, so a second start is refused.
 */
export async function startRunWorkflow(client: Client, input: RunWorkflowInput, opts: StartRunOptions): Promise<void> {
  await client.workflow.start(runWorkflow, {
    workflowId: input.runId,
    taskQueue: opts.taskQueue,
    args: [input],
    priority: opts.priority,
    typedSearchAttributes: [
      { key: SEARCH_ATTRIBUTES.WorkspaceId, value: input.workspaceId },
      { key: SEARCH_ATTRIBUTES.TemplateId, value: opts.templateId },
      { key: SEARCH_ATTRIBUTES.RunStatus, value: 'queued' },
      ...(opts.orderId ? [{ key: SEARCH_ATTRIBUTES.OrderId, value: opts.orderId }] : []),
    ],
  });
}

/**
 * Asks a run to stop at its next step boundary. The signal stops it; the cancellation request lets its
 * execution end `Canceled` in Temporal (a workflow can end so only when cancelled through Temporal).
 * Reports whether a live workflow received it.
 */
export async function signalRunCancel(client: Client, runId: string): Promise<'signalled' | 'not_running'> {
  if (!(await signalOpenRun(client, runId, cancelRunSignal))) return 'not_running';
  // The run may have settled between the two calls: then there is nothing left to cancel.
  await client.workflow
    .getHandle(runId)
    .cancel()
    .catch((err: unknown) => {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    });
  return 'signalled';
}

/** Signals a run's open execution; false when there is none to take it (closed, or never started). */
async function signalOpenRun<Args extends unknown[]>(
  client: Client,
  runId: string,
  signal: SignalDefinition<Args>,
  ...args: Args
): Promise<boolean> {
  try {
    await client.workflow.getHandle(runId).signal(signal, ...args);
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

/**
 * Tells a run waiting in review (run shape 6) the status its review decision settled it with; false when
 * no execution waits: it closed as it settled (an older shape), or was terminated.
 */
export function signalReviewDecided(client: Client, runId: string, status: DecidedRunStatus): Promise<boolean> {
  return signalOpenRun(client, runId, reviewDecidedSignal, { status });
}

/** Tells a run waiting for a provider job that the provider announced its end; false when the run is not live. */
export function signalProviderJobEnded(client: Client, runId: string, jobId: string): Promise<boolean> {
  return signalOpenRun(client, runId, providerJobEndedSignal, { jobId });
}

export interface StartOrderOptions {
  taskQueue: string;
  workspaceId: string;
  templateId: string;
  concurrency: number;
  /** The order's priority and fairness keys (domain/priority.ts): every child and activity of it inherits them. */
  priority: TemporalPriority;
  /** The order's status as recorded (`running`), shown as `OrderStatus` from the start; the workflow keeps it current. */
  status?: string;
}

/**
 * Starts (or, after a retry, starts again) the order workflow whose id is the order id. When an
 * execution is still running, it is woken instead so it picks up the freshly planned children.
 */
export async function startOrWakeOrderWorkflow(client: Client, orderId: string, opts: StartOrderOptions): Promise<'started' | 'woken'> {
  try {
    await client.workflow.getHandle(orderId).signal(wakeOrderSignal);
    return 'woken';
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
  await client.workflow.start(orderWorkflow, {
    workflowId: orderId,
    taskQueue: opts.taskQueue,
    args: [{ orderId, concurrency: opts.concurrency, shape: ORDER_SHAPE }],
    priority: opts.priority,
    typedSearchAttributes: [
      { key: SEARCH_ATTRIBUTES.OrderId, value: orderId },
      { key: SEARCH_ATTRIBUTES.WorkspaceId, value: opts.workspaceId },
      { key: SEARCH_ATTRIBUTES.TemplateId, value: opts.templateId },
      ...(opts.status ? [{ key: SEARCH_ATTRIBUTES.OrderStatus, value: opts.status }] : []),
    ],
  });
  return 'started';
}

/** Asks a running order to stop: no new children start, those in flight are cancelled at a step boundary. */
export async function signalOrderCancel(client: Client, orderId: string): Promise<'signalled' | 'not_running'> {
  try {
    await client.workflow.getHandle(orderId).signal(cancelOrderSignal);
    return 'signalled';
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return 'not_running';
    throw err;
  }
}
