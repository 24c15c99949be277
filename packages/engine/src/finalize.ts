import { type Client, WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import type { WorkflowDefinition } from '@atelier/contracts/workflow-definition';
import { type Db, type RunRow, getArtifact, getRunRow, getRunSteps, moveRunStatus } from '@atelier/db';
import { isTerminalRunStatus, newArtifactId } from '@atelier/domain';
import { artifactRow } from './artifacts';
import type { RunOutcome } from './run-types';

/** The run cannot be finalized: it is already terminal, or steps remain to run. */
export class NotFinalizable extends Error {
  constructor(message: string, readonly status: string) {
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
    throw new NotFinalizable(`run ${runId} has ${definition.runtimeSteps.length - done.length} steps that have not completed; only runs whose steps all completed can be finalized`, run.status);
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
      await handle.executeUpdate<RunOutcome, []>('finalize');
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError) throw new NotFinalizable(err.cause?.message ?? err.message, run.status);
      throw err;
    }
    return { via: 'workflow', run: (await getRunRow(db, runId))! };
  }

  const last = steps.find((s) => s.step_index === definition.runtimeSteps.length - 1);
  const approvalStep = definition.runtimeSteps.find((s) => s.gateId && definition.gates.find((g) => g.id === s.gateId)?.type === 'approval');
  const approvalGate = approvalStep ? definition.gates.find((g) => g.id === approvalStep.gateId) : undefined;
  const content = approvalStep ? steps.find((s) => s.step_id === approvalStep.id)?.output : last?.output;
  const status = approvalGate ? 'review' : 'completed';
  const reportId = await sourceReportOf(db, run, steps.map((s) => s.output));
  await moveRunStatus(
    db,
    runId,
    status,
    approvalGate
      ? { review_gate_id: approvalGate.id, review_gate_name: approvalGate.name, hold_fields: approvalGate.holdFields ? JSON.stringify(approvalGate.holdFields) : null }
      : {},
    artifactRow(run, { id: run.artifact_id ?? newArtifactId(), content }, status === 'review' ? 'review' : 'ready', reportId),
  );
  return { via: 'recorded_steps', run: (await getRunRow(db, runId))! };
}

async function sourceReportOf(db: Db, run: RunRow, outputs: unknown[]): Promise<string | null> {
  for (const id of Object.values(run.source_artifact_ids ?? {})) {
    if ((await getArtifact(db, id))?.artifact_type === 'research-report') return id;
  }
  for (const output of outputs) {
    const o = output as { artifactId?: unknown; type?: unknown } | null;
    if (o && o.type === 'research-report' && typeof o.artifactId === 'string') return o.artifactId;
  }
  return null;
}
