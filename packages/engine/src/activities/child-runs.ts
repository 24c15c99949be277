import type { WorkflowDefinition } from '@atelier/contracts/workflow-definition';
import { type Db, getRunRow, getWorkflowVersion, insertRun, newRunRow } from '@atelier/db';
import { type ModelRegistry, readPath, resolveIntake } from '@atelier/domain';
import { plannedRunInput } from '../run-input';
import type { PrepareChildInput, RunWorkflowInput } from '../run-types';
import { StepFailure } from './steps/shared';

const inputOf = (
  runId: string,
  workspaceId: string,
  definition: WorkflowDefinition,
  intake: Record<string, unknown>,
  bindings: Record<string, string>,
): RunWorkflowInput => plannedRunInput({ runId, workspaceId, intake, inputs: {}, bindings }, definition);

/**
 * Records the child run of a subWorkflow step: the pinned template version, the intake mapped from the
 * parent's context and validated against the child's intake contract, `parentRunId` set. Idempotent: a
 * retry finds the child it already recorded.
 */
export async function prepareChildRun(db: Db, models: ModelRegistry, input: PrepareChildInput): Promise<RunWorkflowInput> {
  const { step, parentRunId, childRunId } = input;
  const existing = await getRunRow(db, childRunId);
  if (existing) {
    if (existing.parent_run_id !== parentRunId)
      throw new StepFailure(`step ${step.id}: child run id ${childRunId} is taken`, 'step_invalid', 0);
    return inputOf(existing.id, existing.workspace_id, existing.definition as WorkflowDefinition, existing.intake, existing.bindings);
  }
  const parent = await getRunRow(db, parentRunId);
  if (!parent) throw new StepFailure(`run ${parentRunId} is not in the database`, 'step_invalid', 0);
  if (!step.templateId || !step.templateVersion)
    throw new StepFailure(`step ${step.id}: a subWorkflow step needs templateId and templateVersion`, 'step_invalid', 0);
  const version = await getWorkflowVersion(db, step.templateId, step.templateVersion);
  if (!version || version.state !== 'published') {
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
      },
      models,
    ),
  );
  return inputOf(childRunId, parent.workspace_id, definition, resolution.intake, bindings);
}
