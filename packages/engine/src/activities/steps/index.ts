/**
 * The step kinds the executeStep activity runs, one file each. Adding a kind means its file here, its
 * entry in STEP_EXECUTORS and its traits in the contract (STEP_KIND_TRAITS); the type below makes a kind
 * the contract says an activity runs, but that has no executor, a compile error.
 */
import type { ActivityStepKind } from '@atelier/contracts/workflow-definition';
import { isJudgedGate } from '@atelier/domain';
import { foreignFileKeys } from '@atelier/domain/artifact-files';
import { PermanentProviderError } from '../../providers/index.js';
import type { ExecuteStepInput } from '../../run-types.js';
import { runAgent } from './agent.js';
import { executeCode } from './code.js';
import { generateImageStep } from './image.js';
import { judgeGate } from './judge-gate.js';
import { executeLlm } from './llm.js';
import { type ExecutorDeps, StepFailure, type StepExecution, type StepExecutor, invalid } from './shared.js';
import { executeTool } from './tool.js';

export * from './shared.js';

export const STEP_EXECUTORS: Readonly<Record<ActivityStepKind, StepExecutor>> = {
  llm: executeLlm,
  code: executeCode,
  tool: executeTool,
  image: generateImageStep,
  agent: runAgent,
};

/**
 * Runs a step by its kind, then checks what every kind shares: `requireTrue` on its output, and the
 * quality or safety gate it carries, judged on that output.
 */
export async function executeStepKind(input: ExecuteStepInput, deps: ExecutorDeps, signal: AbortSignal): Promise<StepExecution> {
  const { step } = input;
  const execute = STEP_EXECUTORS[step.kind as ActivityStepKind] as StepExecutor | undefined;
  if (!execute) throw invalid(`step ${step.id}: ${step.kind} steps are run by the workflow, not by an activity`);
  let result: StepExecution;
  try {
    result = await execute(input, deps, signal);
  } catch (err) {
    if (err instanceof PermanentProviderError)
      throw new StepFailure(`step ${step.id}: the provider refused the call: ${err.message}`, 'provider_refused', 0);
    throw err;
  }
  const foreign = foreignFileKeys(result.output, input.artifact);
  if (foreign.length > 0) {
    // Keys are the engine's to assign (domain/artifact-files.ts): an output naming another file would let
    // the artifact pass that file off as its own, and its signed URL would hand it out.
    throw new StepFailure(
      `step ${step.id}: its output names a stored file that is not this artifact's (${foreign.join(', ')}); files are assigned by the engine`,
      'step_invalid',
      result.costUsd,
      result.provider,
      result.model,
      undefined,
      result.fallbacks,
    );
  }
  if (step.requireTrue && (result.output as Record<string, unknown> | null)?.[step.requireTrue] !== true) {
    throw new StepFailure(
      step.failMessage ?? `${step.requireTrue} was not true`,
      'requirement_failed',
      result.costUsd,
      result.provider,
      result.model,
      undefined,
      result.fallbacks,
    );
  }
  if (isJudgedGate(input.gate)) {
    const judged = await judgeGate(input.gate, input, result, deps, signal);
    result.costUsd += judged.costUsd;
    if (judged.fallbacks) result.fallbacks = judged.fallbacks;
  }
  return result;
}
