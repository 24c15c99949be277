import { STEP_KIND_TRAITS, type StepKindTraits } from '@atelier/contracts/step-kinds';
import type { Gate, Step, StepKind } from '@atelier/contracts/workflow-definition';
import { type Bindings, primaryModel } from './bindings.js';
import { verdictReadsAsked } from './gate-types.js';
import type { StepReads } from './run-context.js';

/** Whether steps of this kind call a model bound to a role (llm, image, agent). */
export const kindNeedsRole = (kind: StepKind): boolean => STEP_KIND_TRAITS[kind].needsRole;

/** Whether the run workflow runs steps of this kind itself instead of the executeStep activity. */
export const runByWorkflow = (kind: StepKind): boolean => STEP_KIND_TRAITS[kind].runBy === 'workflow';

/** Whether steps of this kind are quick enough to run in a local activity (run shape 7; STEP_KIND_TRAITS). */
export const quickKind = (kind: StepKind): boolean => STEP_KIND_TRAITS[kind].quick;

/** A role-using step's missing role, or its role without a model in `providers`. */
export function roleProblem(step: Pick<Step, 'kind' | 'role'>, providers: Bindings): string | undefined {
  if (!kindNeedsRole(step.kind)) return undefined;
  if (!step.role) return `a ${step.kind} step needs a role`;
  if (!primaryModel(providers[step.role])) return `role "${step.role}" has no model in providers`;
  return undefined;
}

/** The fields the step's kind cannot do without, when absent. */
export function requiredFieldsProblem(step: Step): string | undefined {
  const requires: StepKindTraits['requires'] = STEP_KIND_TRAITS[step.kind].requires;
  if (!requires) return undefined;
  const present = requires.fields.filter((f) => Boolean(step[f as keyof Step]));
  const satisfied = requires.oneOf ? present.length > 0 : present.length === requires.fields.length;
  return satisfied ? undefined : requires.message;
}

/** What a step reads of the run context, by its kind's traits; a gate whose verdict reads what was asked (safety) reads the whole intake too. */
export function stepReads(step: Step, gate?: Pick<Gate, 'type'>): StepReads {
  const reads: StepKindTraits['reads'] = STEP_KIND_TRAITS[step.kind].reads;
  const declaresInput = step.params !== undefined || step.inputPath !== undefined;
  return {
    prompt: step.prompt,
    params: step.params,
    inputPath: step.inputPath,
    whole: reads === 'whole' || (reads === 'declaredInput' && !declaresInput),
    wholeIntake: verdictReadsAsked(gate),
  };
}
