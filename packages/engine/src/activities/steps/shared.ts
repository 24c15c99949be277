import { ApplicationFailure } from '@temporalio/common';
import type { Step } from '@atelier/contracts/workflow-definition';
import {
  type Bindings,
  type ModelEntry,
  type ModelRegistry,
  type StepFallback,
  primaryModel,
  readPath,
  renderTemplate,
  resolveParams,
} from '@atelier/domain';
import type { RunContext } from '@atelier/domain/run-context';
import type { EgressPolicy } from '@atelier/egress';
import type { ObjectStorage } from '@atelier/storage';
import type { Logger } from 'pino';
import type { ProviderSet } from '../../providers/index.js';
import type { ExecuteStepInput } from '../../run-types.js';
import type { WorkerMetrics } from '../../metrics.js';
import type { ExpressionEvaluator } from '../../steps/code-expression.js';
import type { FoundArtifact, Tool, ToolContext } from '../../steps/tools.js';
import { compileSchema } from './json-schema.js';

/**
 * What every step kind shares: the dependencies an executor gets, what it returns, how it fails, and the
 * helpers several kinds use (the bound model, the step's input, a text completion under a jsonSchema).
 */

/** What one execution of a step produced: its output and, for model steps, who answered and the cost. */
export interface StepExecution {
  output: unknown;
  provider?: string;
  model?: string;
  costUsd: number;
  /** Models of a binding skipped before the one that answered (steps/fallbacks.ts); absent when none was. */
  fallbacks?: StepFallback[];
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
    /** Models skipped before the failure (steps/fallbacks.ts), recorded with the step. */
    readonly fallbacks?: StepFallback[],
  ) {
    super(message);
  }
}

/** Runs one step of its kind in the executeStep activity; the registry (steps/index.ts) maps kinds to these. */
export type StepExecutor = (input: ExecuteStepInput, deps: ExecutorDeps, signal: AbortSignal) => Promise<StepExecution>;

export interface ExecutorDeps {
  models: ModelRegistry;
  providers: ProviderSet;
  storage: ObjectStorage;
  tools: Record<string, Tool>;
  /** Where code steps' JSONata expressions run, bounded (the worker's pool of evaluation threads). */
  expressions: ExpressionEvaluator;
  /** How many answers an llm step may try before its jsonSchema is declared violated. */
  schemaAttempts: number;
  /** Artifacts of a run's workspace, for tools that take artifact ids. */
  findArtifact?: (runId: string, artifactId: string) => Promise<FoundArtifact | undefined>;
  /** The worker's egress policy, handed to tools that fetch caller-named URLs. */
  egress?: EgressPolicy;
  logger?: Logger;
  /** Where quality and safety verdicts are counted. */
  metrics?: WorkerMetrics;
  /**
   * The run's per-run cap (the lowest of its definition's budgetPolicy and its budgets' perRunCapUsd) and its
   * spend so far: what a fallback to another model is checked against. Absent: fallbacks are not held to a cap.
   */
  runBudget?: (runId: string) => Promise<{ capUsd?: number; spentUsd: number }>;
  /** Models an earlier execution of this attempt skipped (a step resumed after its provider job): not tried again. */
  earlierFallbacks?: readonly StepFallback[];
  /** Where a text step's output goes as it is written (the run's event stream); absent, nowhere. */
  onTextDelta?: (text: string, answer: number) => void;
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

/** The primary model bound to `role`; a step that can fall back to other models uses withFallbacks (fallbacks.ts). */
export function boundModel(step: Step, role: string | undefined, bindings: Bindings, deps: ExecutorDeps): ModelEntry {
  const modelId = role ? primaryModel(bindings[role]) : undefined;
  if (!role || !modelId) throw invalid(`step ${step.id} has no model bound to role ${role ?? '(none)'}`);
  const model = deps.models.get(modelId);
  if (!model) throw invalid(`step ${step.id}: model ${modelId} is not registered`);
  return model;
}

/** A model step's prompt: its template rendered over the run, the intake when it names none. */
export const stepPrompt = (step: Step, context: RunContext): string => renderTemplate(step.prompt ?? '{{intake}}', context);

/** An image or video step's prompt: a non-empty `prompt` among its resolved params wins over its template. */
export const mediaPrompt = (step: Step, context: RunContext, params: Record<string, unknown> | undefined): string =>
  typeof params?.prompt === 'string' && params.prompt ? params.prompt : stepPrompt(step, context);

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
  /** Pieces of each answer as it is written; `answer` counts the answers asked for (1 first). */
  onDelta?: (text: string, answer: number) => void,
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
      ...(onDelta ? { onDelta: (text: string) => onDelta(text, attempt) } : {}),
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
