import { type Client, WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import type { WorkflowDefinition } from '@atelier/contracts/workflow-definition';
import { type Db, type RunRow, getRunRow, getRunSteps } from '@atelier/db';
import { isTerminalRunStatus } from '@atelier/domain';
import { settleRunFromRecord } from './settlement.js';
import { finalizeRunUpdate } from './workflows/run-workflow.js';

/** The run cannot be finalized: it is already terminal, or steps remain to run. */
export class NotFinalizable extends Error {
  constructor(
    message: string,
    readonly status: string,
  ) {
    super(message);
  }
}

export interface FinalizeResult {
  via: 'workflow' | 'recorded_steps';
  run: RunRow;
}

/**
 * Recovery for a run whose steps all completed but whose finalization is missing (contract: States and
 * transitions). A live workflow is asked through the `finalize` update and answers once it has settled;
 * when the workflow is gone, the artifact and terminal status are written from the recorded step
 * outputs. No step runs again either way.
 */
export async function finalizeRun(db: Db, temporal: Client, runId: string): Promise<FinalizeResult> {
  const run = await getRunRow(db, runId);
  if (!run) throw new NotFinalizable(`run ${runId} not found`, 'missing');
  if (isTerminalRunStatus(run.status)) throw new NotFinalizable(`run ${runId} is already ${run.status}`, run.status);
  const definition = run.definition as WorkflowDefinition;
  const steps = await getRunSteps(db, runId);
  const done = steps.filter((s) => s.status === 'completed' || s.status === 'skipped');
  if (done.length < definition.runtimeSteps.length) {
    throw new NotFinalizable(
      `run ${runId} has ${definition.runtimeSteps.length - done.length} steps that have not completed; only runs whose steps all completed can be finalized`,
      run.status,
    );
  }

  const handle = temporal.workflow.getHandle(runId);
  let live = false;
  try {
    live = (await handle.describe()).status.name === 'RUNNING';
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
  if (live) {
    try {
      await handle.executeUpdate(finalizeRunUpdate);
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError) throw new NotFinalizable(err.cause?.message ?? err.message, run.status);
      throw err;
    }
    const settled = (await getRunRow(db, runId))!;
    // A workflow that settled long before (a run waiting open in review) answers at once with what it wrote
    // then; if the read model has lost that since, it is settled again from the recorded steps, below.
    if (isTerminalRunStatus(settled.status)) return { via: 'workflow', run: settled };
  }

  // The workflow is gone (or settled already): the same settlement rule the workflow follows decides, from
  // the recorded steps (approval → review, a failing QA → QA hold, pack membership kept).
  const { row } = await settleRunFromRecord(db, run);
  return { via: 'recorded_steps', run: row ?? (await getRunRow(db, runId))! };
}
