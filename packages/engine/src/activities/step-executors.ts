import { ApplicationFailure } from '@temporalio/common';
import type { Step } from '@atelier/contracts/workflow-definition';
import { type ModelRegistry, readPath, renderTemplate } from '@atelier/domain';
import type { RunContext } from '@atelier/domain/run-context';
import type { ProviderSet } from '../providers/index';
import { CODE_FUNCTIONS, CodeStepError } from '../steps/code-functions';
import { compileSchema } from './json-schema';

/** What one execution of a step produced: its output and, for model steps, who answered and the cost. */
export interface StepExecution {
  output: unknown;
  provider?: string;
  model?: string;
  costUsd: number;
}

/** A deterministic failure that has already cost something: the cost is recorded before the run fails. */
export class StepFailure extends Error {
  constructor(
    message: string,
    readonly errorCode: string,
    readonly costUsd: number,
    readonly provider?: string,
    readonly model?: string,
  ) {
    super(message);
  }
}

export interface ExecutorDeps {
  models: ModelRegistry;
  providers: ProviderSet;
  /** How many answers an llm step may try before its jsonSchema is declared violated. */
  schemaAttempts: number;
}

const invalid = (message: string) => ApplicationFailure.nonRetryable(message, 'step_invalid');

function stepInput(step: Step, context: RunContext): unknown {
  return step.inputPath ? readPath(context, step.inputPath) : context;
}

async function executeLlm(step: Step, context: RunContext, bindings: Record<string, string>, deps: ExecutorDeps, signal: AbortSignal): Promise<StepExecution> {
  const modelId = step.role ? bindings[step.role] : undefined;
  if (!step.role || !modelId) throw invalid(`step ${step.id} has no model bound to role ${step.role ?? '(none)'}`);
  const model = deps.models.get(modelId);
  if (!model) throw invalid(`step ${step.id}: model ${modelId} is not registered`);
  const provider = deps.providers.text(model.provider);
  if (!provider) throw invalid(`step ${step.id}: provider ${model.provider} is not configured`);

  const prompt = renderTemplate(step.prompt ?? '{{intake}}', context);
  const validate = step.jsonSchema ? compileSchema(step.jsonSchema) : undefined;
  let cost = 0;
  let lastProblem = '';
  const attempts = validate ? deps.schemaAttempts : 1;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const answer = await provider.complete({ model, prompt, jsonSchema: step.jsonSchema, seed: `${step.id}#${attempt}`, signal });
    cost += answer.costUsd;
    if (!validate) return { output: { text: answer.text }, provider: model.provider, model: model.id, costUsd: cost };
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.text);
    } catch {
      lastProblem = 'the answer was not JSON';
      continue;
    }
    const problems = validate(parsed);
    if (problems.length === 0) {
      if (step.requireTrue && (parsed as Record<string, unknown>)?.[step.requireTrue] !== true) {
        throw new StepFailure(step.failMessage ?? `${step.requireTrue} was not true`, 'requirement_failed', cost, model.provider, model.id);
      }
      return { output: parsed, provider: model.provider, model: model.id, costUsd: cost };
    }
    lastProblem = problems.join('; ');
  }
  throw new StepFailure(
    `step ${step.id}: the model's answer did not match the jsonSchema after ${attempts} attempts (${lastProblem})`,
    'schema_violation',
    cost,
    model.provider,
    model.id,
  );
}

function executeCode(step: Step, context: RunContext): StepExecution {
  if (!step.function) throw invalid(`step ${step.id}: expressions are not supported yet; name a function`);
  const fn = CODE_FUNCTIONS[step.function];
  if (!fn) throw invalid(`step ${step.id}: unknown code function ${step.function}`);
  try {
    return { output: fn(stepInput(step, context), context), costUsd: 0 };
  } catch (err) {
    if (err instanceof CodeStepError) throw new StepFailure(`step ${step.id}: ${err.message}`, 'step_invalid', 0);
    throw err;
  }
}

export async function executeStepKind(
  step: Step,
  context: RunContext,
  bindings: Record<string, string>,
  deps: ExecutorDeps,
  signal: AbortSignal,
): Promise<StepExecution> {
  switch (step.kind) {
    case 'llm':
      return executeLlm(step, context, bindings, deps, signal);
    case 'code':
      return executeCode(step, context);
    default:
      throw invalid(`step ${step.id}: the ${step.kind} step kind is not available on this engine yet`);
  }
}
