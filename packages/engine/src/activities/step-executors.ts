import { ApplicationFailure } from '@temporalio/common';
import type { Gate, Step } from '@atelier/contracts/workflow-definition';
import { type ModelEntry, type ModelRegistry, readPath, renderTemplate, resolveParams } from '@atelier/domain';
import type { RunContext } from '@atelier/domain/run-context';
import type { EgressPolicy } from '@atelier/egress';
import type { ObjectStorage } from '@atelier/storage';
import type { Logger } from 'pino';
import { PermanentProviderError, type ProviderSet } from '../providers/index';
import type { ExecuteStepInput } from '../run-types';
import type { WorkerMetrics } from '../metrics';
import { ExpressionError, evaluateExpression } from '../steps/code-expression';
import { CODE_FUNCTIONS, CodeStepError } from '../steps/code-functions';
import { type FoundArtifact, type Tool, type ToolContext, ToolInputError } from '../steps/tools';
import { runAgent } from './agent';
import { generateImageStep } from './image-step';
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
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export interface ExecutorDeps {
  models: ModelRegistry;
  providers: ProviderSet;
  storage: ObjectStorage;
  tools: Record<string, Tool>;
  /** How many answers an llm step may try before its jsonSchema is declared violated. */
  schemaAttempts: number;
  /** Artifacts of a run's workspace, for tools that take artifact ids. */
  findArtifact?: (runId: string, artifactId: string) => Promise<FoundArtifact | undefined>;
  /** The worker's egress policy, handed to tools that fetch caller-named URLs. */
  egress?: EgressPolicy;
  logger?: Logger;
  /** Where quality and safety verdicts are counted. */
  metrics?: WorkerMetrics;
}

/** What a tool sees of the step it runs in. */
export function toolContext(input: ExecuteStepInput, deps: ExecutorDeps, signal: AbortSignal): ToolContext {
  const find = deps.findArtifact;
  return {
    storage: deps.storage,
    artifactId: input.artifact.id,
    artifactType: input.artifact.artifactType,
    signal,
    ...(find ? { findArtifact: (artifactId: string) => find(input.runId, artifactId) } : {}),
    ...(deps.egress ? { egress: deps.egress } : {}),
    ...(deps.logger ? { logger: deps.logger.child({ runId: input.runId, stepId: input.step.id }) } : {}),
  };
}

export const invalid = (message: string) => ApplicationFailure.nonRetryable(message, 'step_invalid');

export function boundModel(step: Step, role: string | undefined, bindings: Record<string, string>, deps: ExecutorDeps): ModelEntry {
  const modelId = role ? bindings[role] : undefined;
  if (!role || !modelId) throw invalid(`step ${step.id} has no model bound to role ${role ?? '(none)'}`);
  const model = deps.models.get(modelId);
  if (!model) throw invalid(`step ${step.id}: model ${modelId} is not registered`);
  return model;
}

/** The value a step works on: its inputPath, with params merged over it (or params alone). */
export function stepInput(step: Step, context: RunContext): unknown {
  const base = step.inputPath ? readPath(context, step.inputPath) : undefined;
  const params = step.params ? (resolveParams(step.params, context) as Record<string, unknown>) : undefined;
  if (params && base && typeof base === 'object' && !Array.isArray(base)) return { ...(base as object), ...params };
  return params ?? (step.inputPath ? base : context);
}

/** Calls a text model; with a jsonSchema, retries non-conforming answers, then fails `schema_violation`. */
export async function completeText(
  step: Step,
  model: ModelEntry,
  prompt: string,
  jsonSchema: Record<string, unknown> | undefined,
  deps: ExecutorDeps,
  signal: AbortSignal,
  seedPrefix = step.id,
  batch = false,
): Promise<{ value: unknown; costUsd: number }> {
  const provider = deps.providers.text(model.provider);
  if (!provider) throw invalid(`step ${step.id}: provider ${model.provider} is not configured`);
  const validate = jsonSchema ? compileSchema(jsonSchema) : undefined;
  let cost = 0;
  let lastProblem = '';
  const attempts = validate ? deps.schemaAttempts : 1;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const answer = await provider.complete({
      model,
      prompt,
      jsonSchema,
      seed: `${seedPrefix}#${attempt}`,
      signal,
      batch: batch && model.batch,
    });
    cost += answer.costUsd;
    if (!validate) return { value: { text: answer.text }, costUsd: cost };
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.text);
    } catch {
      lastProblem = 'the answer was not JSON';
      continue;
    }
    const problems = validate(parsed);
    if (problems.length === 0) return { value: parsed, costUsd: cost };
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

async function executeLlm(input: ExecuteStepInput, deps: ExecutorDeps, signal: AbortSignal): Promise<StepExecution> {
  const { step, context } = input;
  const model = boundModel(step, step.role, input.bindings, deps);
  const prompt = renderTemplate(step.prompt ?? '{{intake}}', context);
  const { value, costUsd } = await completeText(
    step,
    model,
    prompt,
    step.jsonSchema,
    deps,
    signal,
    step.id,
    input.executionMode === 'batch',
  );
  return { output: value, provider: model.provider, model: model.id, costUsd };
}

async function executeCode(step: Step, context: RunContext): Promise<StepExecution> {
  try {
    if (step.expression) return { output: await evaluateExpression(step.expression, context), costUsd: 0 };
    const fn = step.function ? CODE_FUNCTIONS[step.function] : undefined;
    if (!fn) throw invalid(`step ${step.id}: unknown code function ${step.function ?? '(none)'}`);
    return { output: fn(stepInput(step, context), context), costUsd: 0 };
  } catch (err) {
    if (err instanceof CodeStepError || err instanceof ExpressionError)
      throw new StepFailure(`step ${step.id}: ${err.message}`, 'step_invalid', 0);
    throw err;
  }
}

async function executeTool(input: ExecuteStepInput, deps: ExecutorDeps, signal: AbortSignal): Promise<StepExecution> {
  const { step, context } = input;
  const tool = step.tool ? deps.tools[step.tool] : undefined;
  if (!tool) throw invalid(`step ${step.id}: unknown tool ${step.tool ?? '(none)'}`);
  try {
    const result = await tool.run(stepInput(step, context), toolContext(input, deps, signal));
    return { output: result.output, costUsd: result.costUsd ?? 0 };
  } catch (err) {
    if (err instanceof ToolInputError) throw new StepFailure(`step ${step.id}: tool ${step.tool} ${err.message}`, 'step_invalid', 0);
    throw err;
  }
}

/** Judges a quality or safety gate on the step's output with the bound classifier. */
async function judgeGate(
  gate: Gate,
  input: ExecuteStepInput,
  result: StepExecution,
  deps: ExecutorDeps,
  signal: AbortSignal,
): Promise<number> {
  const model = boundModel(input.step, 'classifier', input.bindings, deps);
  const classifier = deps.providers.classifier(model.provider);
  if (!classifier) throw invalid(`gate ${gate.id}: provider ${model.provider} has no classifier`);
  const policy = gate.type === 'safety' ? 'safety' : 'quality';
  const subject =
    policy === 'safety'
      ? `${JSON.stringify(input.context.intake)}\n${input.step.prompt ? renderTemplate(input.step.prompt, input.context) : ''}\n`
      : '';
  const verdict = await classifier.classify({ model, policy, text: `${subject}${JSON.stringify(result.output)}`, signal });
  deps.metrics?.gateVerdicts.inc({ gate_type: gate.type, verdict: verdict.pass ? 'pass' : 'fail' });
  if (!verdict.pass) {
    throw new StepFailure(
      `${gate.name} rejected the work: ${verdict.verdict}`,
      'gate_rejected',
      result.costUsd + verdict.costUsd,
      result.provider,
      result.model,
      { gateId: gate.id, gateType: gate.type, verdict: verdict.verdict, reasons: verdict.reasons },
    );
  }
  return verdict.costUsd;
}

export async function executeStepKind(input: ExecuteStepInput, deps: ExecutorDeps, signal: AbortSignal): Promise<StepExecution> {
  const { step } = input;
  let result: StepExecution;
  try {
    switch (step.kind) {
      case 'llm':
        result = await executeLlm(input, deps, signal);
        break;
      case 'code':
        result = await executeCode(step, input.context);
        break;
      case 'tool':
        result = await executeTool(input, deps, signal);
        break;
      case 'image':
        result = await generateImageStep(input, deps, signal);
        break;
      case 'agent':
        result = await runAgent(input, deps, signal);
        break;
      default:
        throw invalid(`step ${step.id}: ${step.kind} steps are run by the workflow, not by an activity`);
    }
  } catch (err) {
    if (err instanceof PermanentProviderError)
      throw new StepFailure(`step ${step.id}: the provider refused the call: ${err.message}`, 'provider_refused', 0);
    throw err;
  }
  if (step.requireTrue && (result.output as Record<string, unknown> | null)?.[step.requireTrue] !== true) {
    throw new StepFailure(
      step.failMessage ?? `${step.requireTrue} was not true`,
      'requirement_failed',
      result.costUsd,
      result.provider,
      result.model,
    );
  }
  if (input.gate && (input.gate.type === 'quality' || input.gate.type === 'safety')) {
    result.costUsd += await judgeGate(input.gate, input, result, deps, signal);
  }
  return result;
}
