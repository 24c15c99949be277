/**
 * The definition by reference, as the run workflow reads its input. A run started now carries its plan and
 * the definition's content hash; a run started before carries the frozen definition whole, and its
 * recorded history replays with it. Which one is decided by the input's shape, which is part of the
 * history, so the decision is deterministic without a patch marker. Pure: imported by workflow code.
 */
import type { Step } from '@atelier/contracts/workflow-definition';
import { type PlannedStep, type RunPlan, runPlanOf } from '@atelier/domain/run-plan';
import type { ExecuteStepInput, RunWorkflowInput, StepReference } from '../run-types.js';

/** The plan the workflow interprets: the input's own, or one made from the definition it carries whole. */
export function planOf(input: RunWorkflowInput): RunPlan {
  return 'plan' in input ? input.plan : runPlanOf(input.definition);
}

/** The template a run input runs (a child run's `TemplateId` search attribute). */
export function templateIdOf(input: RunWorkflowInput): string {
  return 'plan' in input ? input.plan.id : input.definition.id;
}

/**
 * The step and the run's artifact as executeStep is sent them. The step is named by the definition's hash,
 * so the history carries no prompt, jsonSchema or params (the worker reads those from its cache): by its
 * id, name and kind with the artifact whole, or (`lean`, shape 5) by its id with the artifact's id, the
 * worker reading the rest from the same definition. A run whose input carried the definition whole sends
 * the step whole (the worker holds no hash for it).
 */
export function stepForActivity(
  input: RunWorkflowInput,
  index: number,
  artifact: ExecuteStepInput['artifact'],
  lean: boolean,
): StepReference {
  if (!('plan' in input)) return { step: input.definition.runtimeSteps[index]!, artifact };
  const { id, name, kind } = input.plan.runtimeSteps[index]!;
  const { definitionHash } = input;
  return lean ? { step: { id }, definitionHash, artifactId: artifact.id } : { step: { id, name, kind }, definitionHash, artifact };
}

/** The step as the bookkeeping activities (skipStep, prepareChildRun) are sent it: whole as before, or as planned. */
export function stepForBookkeeping(input: RunWorkflowInput, index: number): Step | PlannedStep {
  return 'plan' in input ? input.plan.runtimeSteps[index]! : input.definition.runtimeSteps[index]!;
}
