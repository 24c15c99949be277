import {
  FALLBACK_THROTTLE_PATIENCE_MS,
  type ModelEntry,
  type ProviderFailure,
  type StepFallback,
  bindingModels,
  estimateSteps,
  fallbackBudgetStop,
  fallbackReason,
} from '@atelier/domain';
import {
  PermanentProviderError,
  type ProviderSet,
  ProviderThrottledError,
  TransientProviderError,
  providerCallKey,
} from '../../providers/index.js';
import { ProviderJobPending } from '../../providers/durable-jobs.js';
import { layered } from '../../providers/provider-set.js';
import type { ExecuteStepInput } from '../../run-types.js';
import { type ExecutorDeps, StepFailure, invalid } from './shared.js';

/**
 * The one place a step moves from a role's primary model to its fallbacks, for every kind of model call
 * (text, image, video, classifier): the models of the binding are tried in order, and a failure that means
 * "this model is unavailable right now" (domain/bindings.ts, fallbackReason) moves to the next one. Anything
 * else (a refused request, a schema violation, a cancelled step) fails as it would with a single model, and
 * so does the last model's failure: a transient one is retried by the engine, from the primary again.
 *
 * Each model after the primary is called under idempotency keys of its own (the primary's are what they
 * always were), so a provider or a provider job never mistakes one model's call for another's. Every model
 * but the last gives up on 429s after FALLBACK_THROTTLE_PATIENCE_MS (the capacity layer otherwise waits them
 * out for ever). Before moving on, the fallback's estimated cost is checked against the run's per-run cap.
 */
export interface FallbackCall<T> {
  /** What the call returned, on the model that answered. */
  result: T;
  model: ModelEntry;
  /** Models skipped, in the order tried. */
  fallbacks: StepFallback[];
  /** What the skipped models' answered calls cost (before they failed): billed with the step. */
  skippedCostUsd: number;
}

export interface FallbackOptions {
  /** What the step has already spent in this execution, beside the run's settled spend (a gate's step output). */
  spentUsd?: number;
  /** Earlier skips to carry (a gate's classifier, after its step's own model fell back). */
  carried?: readonly StepFallback[];
}

/** How the fallback rule sees an error a model call threw; undefined for anything that is not the provider's. */
export function providerFailure(err: unknown): ProviderFailure | undefined {
  if (err instanceof ProviderThrottledError) return { kind: 'throttled', status: 429 };
  if (err instanceof TransientProviderError) return { kind: 'transient', ...(err.status !== undefined ? { status: err.status } : {}) };
  if (err instanceof PermanentProviderError) return { kind: 'refused', ...(err.status !== undefined ? { status: err.status } : {}) };
  return undefined;
}

export async function withFallbacks<T>(
  input: ExecuteStepInput,
  role: string | undefined,
  deps: ExecutorDeps,
  signal: AbortSignal,
  call: (model: ModelEntry, deps: ExecutorDeps) => Promise<T>,
  opts: FallbackOptions = {},
): Promise<FallbackCall<T>> {
  const { step } = input;
  const ids = role ? bindingModels(input.bindings[role]) : [];
  if (!role || ids.length === 0) throw invalid(`step ${step.id} has no model bound to role ${role ?? '(none)'}`);
  const fallbacks: StepFallback[] = [...(opts.carried ?? [])];
  const earlier = new Set((deps.earlierFallbacks ?? []).filter((f) => f.role === role).map((f) => f.model));
  let skippedCostUsd = 0;
  for (const [index, id] of ids.entries()) {
    const model = deps.models.get(id);
    if (!model) throw invalid(`step ${step.id}: model ${id} is not registered`);
    const last = index === ids.length - 1;
    // A model an earlier execution of this attempt skipped is not asked again (its job would be submitted anew).
    const skippedBefore = !last && earlier.has(id) ? deps.earlierFallbacks?.find((f) => f.role === role && f.model === id) : undefined;
    if (skippedBefore) {
      fallbacks.push(skippedBefore);
      continue;
    }
    if (index > 0) await refuseOverBudget(input, role, model, deps, (opts.spentUsd ?? 0) + skippedCostUsd, fallbacks, skippedCostUsd);
    const spent = { usd: 0 };
    const scoped: ExecutorDeps = {
      ...deps,
      providers: callsOf(deps.providers, model, { runId: input.runId, stepIndex: input.stepIndex, index, last }, spent),
    };
    try {
      const result = await call(model, scoped);
      return { result, model, fallbacks, skippedCostUsd };
    } catch (err) {
      // Waiting for a fallback's job: the models skipped so far are kept for the execution that resumes the step.
      if (err instanceof ProviderJobPending && fallbacks.length > 0) err.fallbacks = fallbacks;
      const failure = signal.aborted ? undefined : providerFailure(err);
      const reason = failure && fallbackReason(failure);
      if (!reason || last) throw withSkipped(err, fallbacks, skippedCostUsd, step.id);
      skippedCostUsd += spent.usd;
      fallbacks.push({ role, model: model.id, reason, error: (err as Error).message.slice(0, 300) });
      deps.logger?.warn(
        { runId: input.runId, stepId: step.id, role, model: model.id, reason, next: ids[index + 1] },
        'model unavailable; falling back',
      );
    }
  }
  // Every model was skipped by an earlier execution but the last, which always runs: unreachable.
  throw invalid(`step ${step.id}: no model of role ${role} was tried`);
}

/**
 * A fallback never spends past a budget: its estimated cost for this step, with the run's spend so far,
 * must stay within the run's per-run cap, or the step fails with the budget's error code.
 */
async function refuseOverBudget(
  input: ExecuteStepInput,
  role: string,
  model: ModelEntry,
  deps: ExecutorDeps,
  stepSpentUsd: number,
  fallbacks: StepFallback[],
  skippedCostUsd: number,
): Promise<void> {
  if (!deps.runBudget) return;
  const { capUsd, spentUsd } = await deps.runBudget(input.runId);
  if (capUsd === undefined) return;
  const batch = input.executionMode === 'batch';
  const estimateUsd = estimateSteps([{ ...input.step, role }], () => model, { batch }).typical;
  const stop = fallbackBudgetStop(role, model.id, { capUsd, spentUsd: spentUsd + stepSpentUsd, estimateUsd });
  if (!stop) return;
  throw new StepFailure(
    `step ${input.step.id}: ${stop.error}`,
    stop.errorCode,
    skippedCostUsd,
    undefined,
    undefined,
    { ...stop.failureDetails, stepId: input.step.id, fallbacks },
    fallbacks,
  );
}

/** The failure that ends the step, carrying the models skipped before it and what they cost. */
function withSkipped(err: unknown, fallbacks: StepFallback[], skippedCostUsd: number, stepId: string): unknown {
  if (fallbacks.length === 0) return err;
  if (err instanceof StepFailure)
    return new StepFailure(err.message, err.errorCode, err.costUsd + skippedCostUsd, err.provider, err.model, err.details, [
      ...fallbacks,
      ...(err.fallbacks ?? []),
    ]);
  // A refusal of the request (or the last model's own refusal) fails the step as provider_refused, as it would
  // with one model; the fallbacks tried before it are recorded with it.
  if (err instanceof PermanentProviderError)
    return new StepFailure(
      `step ${stepId}: the provider refused the call: ${err.message}`,
      'provider_refused',
      skippedCostUsd,
      undefined,
      undefined,
      undefined,
      fallbacks,
    );
  return err;
}

interface CallScope {
  runId: string;
  stepIndex: number;
  /** The model's place in the binding: 0 is the primary. */
  index: number;
  last: boolean;
}

/**
 * The providers as one model of a binding is called through: a fallback's calls keyed apart from the
 * primary's, every model but the last bounded in its wait for 429s, and what answered calls cost counted.
 */
function callsOf(providers: ProviderSet, model: ModelEntry, scope: CallScope, spent: { usd: number }): ProviderSet {
  const keyed = <R extends { seed?: string; idempotencyKey?: string; throttlePatienceMs?: number }>(req: R, seed: string): R => ({
    ...req,
    ...(scope.index > 0 && !req.idempotencyKey
      ? { idempotencyKey: providerCallKey(scope.runId, scope.stepIndex, `${seed}~fallback:${model.id}`) }
      : {}),
    ...(scope.last ? {} : { throttlePatienceMs: FALLBACK_THROTTLE_PATIENCE_MS }),
  });
  const counted = async <A extends { costUsd: number }>(answer: Promise<A>): Promise<A> => {
    const a = await answer;
    spent.usd += a.costUsd;
    return a;
  };
  return layered(providers, {
    text: (p) => ({ complete: (req) => counted(p.complete(keyed(req, req.seed))) }),
    image: (p) => ({ generate: (req) => counted(p.generate(keyed(req, req.seed))) }),
    video: (p) => ({ generate: (req) => counted(p.generate(keyed(req, req.seed))) }),
    classifier: (p) => ({ classify: (req) => counted(p.classify(keyed(req, req.seed ?? `classify:${req.policy}`))) }),
  });
}
