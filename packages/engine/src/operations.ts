import { randomUUID } from 'node:crypto';
import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import proto from '@temporalio/proto';
import { type Db, type RunRow, enqueueEngineCommand, getRunRow, lockRun, markCancelRequested, moveRunStatus } from '@atelier/db';
import { isTerminalRunStatus } from '@atelier/domain';
import { signalRunCancel } from './client.js';

/** An operation refused because of the run's state (the API answers 409). */
export class RunStateConflict extends Error {
  constructor(
    message: string,
    readonly status: string,
  ) {
    super(message);
  }
}

/**
 * Cancels a run at its next step boundary through the workflow's `cancel` signal. A run with no live
 * workflow (never handed over, or a planned child) is settled as cancelled directly.
 */
export async function cancelRun(db: Db, temporal: Client, runId: string): Promise<RunRow> {
  const run = await getRunRow(db, runId);
  if (!run) throw new RunStateConflict(`run ${runId} not found`, 'missing');
  if (isTerminalRunStatus(run.status)) throw new RunStateConflict(`run ${runId} is already ${run.status}`, run.status);
  if ((await signalRunCancel(temporal, runId)) === 'not_running') await moveRunStatus(db, runId, 'cancelled');
  return (await getRunRow(db, runId))!;
}

/**
 * The API's cancel: records the request for the engine (delivered by the dispatcher, whatever Temporal's
 * state) in one transaction. A run with no execution yet (pending, or a planned child) is settled as
 * cancelled at once; the recorded command still reaches an execution that was being started meanwhile.
 */
export async function requestRunCancel(db: Db, runId: string): Promise<void> {
  const status = await db.transaction().execute(async (tx) => {
    // Marked first, which locks the run's sub-workflow runs before the run (as a child's settlement does,
    // child then parent), so the two cannot deadlock; a refusal below rolls the marks back.
    await markCancelRequested(tx, { runId });
    const run = await lockRun(tx, runId);
    if (!run) throw new RunStateConflict(`run ${runId} not found`, 'missing');
    if (isTerminalRunStatus(run.status)) throw new RunStateConflict(`run ${runId} is already ${run.status}`, run.status);
    await enqueueEngineCommand(tx, 'cancel_run', runId);
    return run.status;
  });
  if (status === 'pending' || status === 'planned') await moveRunStatus(db, runId, 'cancelled');
}

const { EventType, ResetReapplyType } = proto.temporal.api.enums.v1;

/**
 * Resets a run's workflow execution to its last completed workflow task, so it replays on the current
 * workflow code (the way to unstick a run after a workflow-code fix). Activities recorded before that
 * point are not run again; those after it are idempotent per (run, step). Signals are reapplied.
 */
export async function resetRunToLastWorkflowTask(temporal: Client, runId: string, reason: string): Promise<string> {
  const handle = temporal.workflow.getHandle(runId);
  let executionRunId: string;
  try {
    executionRunId = (await handle.describe()).runId;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) throw new RunStateConflict(`run ${runId} has no workflow execution to reset`, 'missing');
    throw err;
  }
  const history = await handle.fetchHistory();
  const completed = (history.events ?? []).filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED);
  const last = completed.at(-1);
  if (!last?.eventId) throw new RunStateConflict(`run ${runId} has no completed workflow task to reset to`, 'unknown');
  const response = await temporal.workflowService.resetWorkflowExecution({
    namespace: temporal.options.namespace,
    workflowExecution: { workflowId: runId, runId: executionRunId },
    reason,
    workflowTaskFinishEventId: last.eventId,
    requestId: randomUUID(),
    resetReapplyType: ResetReapplyType.RESET_REAPPLY_TYPE_SIGNAL,
  });
  return response.runId ?? '';
}
