import { ApplicationFailure } from '@temporalio/common';
import {
  type Db,
  type RunRow,
  checkCharacterUse,
  emitArtifact,
  getRunRow,
  providerSpendByStep,
  runTotalSpend,
  settleStep,
  startStep,
} from '@atelier/db';
import { type CharacterVerdict, isTerminalRunStatus, runCharacterUse, utcDay } from '@atelier/domain';
import { decideRunSettlement } from '@atelier/domain/run-settlement';
import { artifactRow } from '../artifacts.js';
import { observeSettlement } from '../metrics.js';
import type { EmitArtifactInput, SettleRunInput } from '../run-types.js';
import { definitionOf, packOf, writeRunSettlement } from '../settlement.js';
import type { ActivityDeps } from './deps.js';

/** What a settlement wrote: the run's status, or that a cancel was asked for first (nothing written). */
export type RunSettled = { status: string; cancelRequested?: true };

export type SettleRunAs = (input: SettleRunInput, opts?: { unlessCancelRequested?: boolean; run?: RunRow }) => Promise<RunSettled>;

export async function runOrThrow(db: Db, runId: string) {
  const run = await getRunRow(db, runId);
  if (!run) throw ApplicationFailure.nonRetryable(`run ${runId} is not in the database`, 'run_missing');
  return run;
}

/** The run's own lifecycle: it starts, it is judged against its character, its artifact is emitted, it settles. */
export function createRunActivities(deps: ActivityDeps) {
  const { db } = deps;

  /**
   * The run's settlement as the workflow decided it, under the one settlement rule (decideRunSettlement:
   * the QA hold). With `unlessCancelRequested` (a last step settling its run) nothing is written once a
   * cancel was asked for, and the answer says so: the workflow then settles the run cancelled.
   */
  const settleRunAs: SettleRunAs = async (input, opts = {}) => {
    const run = opts.run ?? (await runOrThrow(db, input.runId));
    if (input.failedStepIndex !== undefined) {
      // A step refused before it ran (a locked gate, a child that failed) still shows as the failed one.
      const step = (run.definition as { runtimeSteps: Array<{ id: string; name: string; kind: string }> }).runtimeSteps[
        input.failedStepIndex
      ];
      if (step)
        await startStep(db, { runId: input.runId, stepIndex: input.failedStepIndex, stepId: step.id, name: step.name, kind: step.kind });
      // A step that gave up after its attempts (transient_failure) still cost what its calls were charged:
      // a failed run carries the cost of provider calls already made (a step settled before keeps its own).
      const spent = (await providerSpendByStep(db, input.runId)).get(input.failedStepIndex) ?? 0;
      // A child that failed still spent: its subWorkflow step shows it, as a completed child's does.
      const childRunId = step?.kind === 'subWorkflow' ? input.failureDetails?.childRunId : undefined;
      await settleStep(db, {
        runId: input.runId,
        stepIndex: input.failedStepIndex,
        status: 'failed',
        error: input.error ?? 'step failed',
        errorCode: input.errorCode ?? null,
        costActualUsd: spent,
        ...(typeof childRunId === 'string' ? { subWorkflowUsd: await runTotalSpend(db, childRunId) } : {}),
      });
    }
    const settlement = decideRunSettlement({
      definition: definitionOf(run),
      steps: [],
      decision: {
        status: input.status,
        error: input.error,
        errorCode: input.errorCode,
        failureDetails: input.failureDetails,
        ...(input.artifact ? { artifact: { content: input.artifact.content } } : {}),
        review: input.review,
      },
    });
    const written = await writeRunSettlement(db, run, settlement, {
      artifactId: input.artifact?.id,
      sourceReportArtifactId: input.sourceReportArtifactId,
      ...opts,
    });
    if (written && !isTerminalRunStatus(written.status) && written.cancel_requested_at)
      return { status: written.status, cancelRequested: true };
    observeSettlement(deps.metrics, run, input, written?.status ?? settlement.status);
    return { status: written?.status ?? settlement.status };
  };

  const activities = {
    /** The character gate again, as the gateway judged it, for a run about to start after waiting. */
    async recheckCharacter(input: { runId: string }): Promise<CharacterVerdict> {
      const run = await runOrThrow(db, input.runId);
      const intake = run.intake as Record<string, unknown>;
      const definition = run.definition as { artifactSchema: { artifactClass: string } };
      return checkCharacterUse(db, {
        workspaceId: run.workspace_id,
        characterId: String(intake.characterId),
        ...runCharacterUse({
          artifactClass: definition.artifactSchema.artifactClass,
          bindings: run.bindings,
          intake,
          on: utcDay(),
        }),
      });
    },

    async emitArtifact(input: EmitArtifactInput): Promise<void> {
      const run = await runOrThrow(db, input.runId);
      await emitArtifact(db, input.runId, artifactRow(run, input.artifact, 'draft', null, await packOf(db, run)));
    },

    /**
     * Writes the run's terminal status, and its artifact when there is one. A run whose artifact fails QA
     * is held for review instead of completing; the status written is returned.
     */
    async settleRun(input: SettleRunInput): Promise<{ status: SettleRunInput['status'] }> {
      const settled = await settleRunAs(input);
      return { status: settled.status as SettleRunInput['status'] };
    },
  };
  return { activities, settleRunAs };
}
