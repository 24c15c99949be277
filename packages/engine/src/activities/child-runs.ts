import type { WorkflowDefinition } from '@atelier/contracts/workflow-definition';
import { createHash } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import {
  type Db,
  getArtifact,
  getRunRow,
  getWorkflowVersion,
  insertRun,
  newRunRow,
  runTotalSpend,
  settleStep,
  startStep,
} from '@atelier/db';
import { type Bindings, type ModelRegistry, readPath, resolveIntake } from '@atelier/domain';
import { plannedRunInput } from '../run-input.js';
import type { PrepareChildInput, RunShape, RunWorkflowInput, SettleChildStepInput, StepResult } from '../run-types.js';
import { CHILD_SHAPE_UNNAMED } from '../workflows/shapes.js';
import type { ActivityDeps } from './deps.js';
import { StepFailure } from './steps/shared.js';

const inputOf = (
  runId: string,
  workspaceId: string,
  definition: WorkflowDefinition,
  intake: Record<string, unknown>,
  bindings: Bindings,
  shape: RunShape,
): RunWorkflowInput => plannedRunInput({ runId, workspaceId, intake, inputs: {}, bindings }, definition, shape);

/** How many ids a child run may take: the one its parent drew, then two derived from it. */
const CHILD_RUN_ID_CANDIDATES = 3;

/**
 * The ids a subWorkflow step's child run may be recorded under, in order: the one its parent's workflow
 * drew (`run-` and 8 hex, 32 random bits, as every run id), then ids derived from it. They depend on the
 * drawn id alone, so a retried activity tries the same ones and finds the child it recorded.
 */
export function childRunIdCandidates(drawn: string): string[] {
  const derived = (n: number) => `run-${createHash('sha256').update(`${drawn}/${n}`).digest('hex').slice(0, 8)}`;
  return [drawn, ...Array.from({ length: CHILD_RUN_ID_CANDIDATES - 1 }, (_, i) => derived(i + 1))];
}

/**
 * Records the child run of a subWorkflow step: the pinned template version, the intake mapped from the
 * parent's context and validated against the child's intake contract, `parentRunId` set. Idempotent: a
 * retry finds the child it already recorded. An id already taken by another run (ids are short, so one
 * in tens of thousands is) gives way to the next candidate; the parent starts the child under the runId of
 * the input returned.
 */
export async function prepareChildRun(db: Db, models: ModelRegistry, input: PrepareChildInput): Promise<RunWorkflowInput> {
  const { step, parentRunId } = input;
  // A parent that does not name the child's shape waits for its execution to close (workflows/shapes.ts).
  const shape = input.runShape ?? CHILD_SHAPE_UNNAMED;
  let childRunId: string | undefined;
  for (const candidate of childRunIdCandidates(input.childRunId)) {
    const existing = await getRunRow(db, candidate);
    if (!existing) {
      childRunId = candidate;
      break;
    }
    if (existing.parent_run_id === parentRunId) {
      return inputOf(
        existing.id,
        existing.workspace_id,
        existing.definition as WorkflowDefinition,
        existing.intake,
        existing.bindings,
        shape,
      );
    }
  }
  if (!childRunId)
    throw new StepFailure(`step ${step.id}: child run ids ${input.childRunId} and the ones after it are taken`, 'step_invalid', 0);
  const parent = await getRunRow(db, parentRunId);
  if (!parent) throw new StepFailure(`run ${parentRunId} is not in the database`, 'step_invalid', 0);
  if (!step.templateId || !step.templateVersion)
    throw new StepFailure(`step ${step.id}: a subWorkflow step needs templateId and templateVersion`, 'step_invalid', 0);
  const version = await getWorkflowVersion(db, step.templateId, step.templateVersion);
  if (version?.state !== 'published') {
    throw new StepFailure(
      `step ${step.id}: ${step.templateId} version ${step.templateVersion} is not a published workflow version`,
      'step_invalid',
      0,
    );
  }
  const definition = version.definition as WorkflowDefinition;
  const mapped: Record<string, unknown> = {};
  for (const [field, path] of Object.entries(step.intakeMapping ?? {})) {
    const value = readPath(input.context, path);
    if (value !== undefined) mapped[field] = value;
  }
  const resolution = resolveIntake(definition.intakeSchema.fields, mapped);
  if (!resolution.ok) {
    throw new StepFailure(
      `step ${step.id}: the intake mapped to ${step.templateId} is invalid: ${resolution.errors.join('; ')}`,
      'step_invalid',
      0,
    );
  }
  const bindings = { ...definition.providers };
  await insertRun(
    db,
    newRunRow(
      {
        id: childRunId,
        workspaceId: parent.workspace_id,
        projectId: parent.project_id,
        definition,
        intake: resolution.intake,
        bindings,
        createdVia: parent.created_via,
        apiKeyId: parent.api_key_id,
        apiKeyName: parent.api_key_name,
        createdBy: parent.created_by,
        parentRunId,
        status: 'queued',
        // A sub-workflow's run is part of its parent's work: found by the same labels.
        tags: parent.tags,
        metadata: parent.metadata,
      },
      models,
    ),
  );
  return inputOf(childRunId, parent.workspace_id, definition, resolution.intake, bindings, shape);
}

/** A subWorkflow step's two ends: its child run recorded before it starts, and settled from the child's outcome. */
export function createChildRunActivities(deps: ActivityDeps) {
  const { db } = deps;
  return {
    async prepareChildRun(input: PrepareChildInput): Promise<RunWorkflowInput> {
      await startStep(db, {
        runId: input.parentRunId,
        stepIndex: input.stepIndex,
        stepId: input.step.id,
        name: input.step.name,
        kind: input.step.kind,
      });
      try {
        return await prepareChildRun(db, deps.models, input);
      } catch (err) {
        if (!(err instanceof StepFailure)) throw err;
        await settleStep(db, {
          runId: input.parentRunId,
          stepIndex: input.stepIndex,
          status: 'failed',
          error: err.message,
          errorCode: err.errorCode,
        });
        throw ApplicationFailure.nonRetryable(err.message, err.errorCode);
      }
    },

    /** Settles a subWorkflow step from its child run: the child's artifact becomes the step output. */
    async settleChildStep(input: SettleChildStepInput): Promise<StepResult> {
      const artifact = input.artifactId ? await getArtifact(db, input.artifactId) : undefined;
      const output = {
        runId: input.childRunId,
        status: input.childStatus,
        artifactId: input.artifactId ?? null,
        ...((artifact?.content as object) ?? {}),
      };
      // The child's spend is billed on the child run: the parent's step shows it (subWorkflowUsd, rolled into
      // the parent's total) but bills none of it (costActualUsd 0), so sums across runs count it once.
      const subWorkflowUsd = await runTotalSpend(db, input.childRunId);
      await settleStep(db, {
        runId: input.runId,
        stepIndex: input.stepIndex,
        status: 'completed',
        output,
        costActualUsd: 0,
        subWorkflowUsd,
      });
      return { output, costUsd: 0 };
    },
  };
}
