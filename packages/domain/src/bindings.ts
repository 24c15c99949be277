/**
 * Role bindings with fallbacks, as one pure module: what a binding names (a model id, or an ordered list
 * whose first id is the primary and the rest fallbacks), which provider failures move a step to the next
 * model, and when a budget forbids the move. The engine's loop (engine/src/activities/steps/fallbacks.ts)
 * applies these rules to text, image, video and classifier calls alike.
 */
import { roundUsd } from './money.js';

/** One role's binding: a model-registry id, or an ordered list of them (primary first, then fallbacks). */
export type ModelBinding = string | readonly string[];

/** Role → binding, as workflow definitions, per-run overrides and run rows carry them. */
export type Bindings = Readonly<Record<string, ModelBinding>>;

/** The models a binding names, in the order they are tried; none for an absent binding. */
export function bindingModels(binding: ModelBinding | undefined): string[] {
  if (binding === undefined) return [];
  return typeof binding === 'string' ? [binding] : [...binding];
}

/** The primary model of a binding: the one estimates price and a step tries first. */
export function primaryModel(binding: ModelBinding | undefined): string | undefined {
  return bindingModels(binding)[0];
}

/** Every role bound to its primary model: for what prices a run and what a single model is shown for. */
export function primaryBindings(bindings: Bindings): Record<string, string> {
  const primaries: Record<string, string> = {};
  for (const [role, binding] of Object.entries(bindings)) {
    const primary = primaryModel(binding);
    if (primary !== undefined) primaries[role] = primary;
  }
  return primaries;
}

/** Why a step moved past a model. */
export type FallbackReason = 'provider_unavailable' | 'model_not_found' | 'provider_throttled';

/**
 * A provider's failure as the fallback rule sees it: `transient` is what is still failing after the
 * adapter's own retries (down, 5xx, timeouts), `throttled` a 429 that outlasted the bounded wait a call with
 * somewhere to go next gets, `refused` a permanent refusal with its HTTP status when there is one.
 */
export interface ProviderFailure {
  kind: 'transient' | 'throttled' | 'refused';
  status?: number;
}

/**
 * Whether a failure means "this model is unavailable right now", and so moves the step to the next model.
 * A refusal of the request itself (400, a content policy, auth) is not: the next model would be asked the
 * same thing, and the step fails as it does without fallbacks (provider_refused).
 */
export function fallbackReason(failure: ProviderFailure): FallbackReason | undefined {
  switch (failure.kind) {
    case 'throttled':
      return 'provider_throttled';
    case 'transient':
      return 'provider_unavailable';
    case 'refused':
      if (failure.status === 404) return 'model_not_found';
      if (failure.status === 503) return 'provider_unavailable';
      return undefined;
  }
}

/** A model skipped before the one that ran, as the step records it. */
export interface StepFallback {
  role: string;
  model: string;
  reason: FallbackReason;
  error: string;
}

/**
 * How long a call that has a fallback after it waits out 429s before moving on: a throttled provider is
 * back-pressure, worth waiting for a while, but not for ever when another model could answer. The last model
 * of a binding (and a binding with one model) waits as long as it takes, as every call did before fallbacks.
 */
export const FALLBACK_THROTTLE_PATIENCE_MS = 30_000;

/** What a fallback's budget check knows: the run's per-run cap, its spend so far, the fallback's estimate. */
export interface FallbackBudget {
  capUsd: number | undefined;
  spentUsd: number;
  estimateUsd: number;
}

/** How a fallback is stopped by the run's per-run cap: the step fails with the budget's error code. */
export interface FallbackBudgetStop {
  errorCode: 'budget_gate_exceeded';
  error: string;
  failureDetails: Record<string, unknown>;
}

/**
 * A fallback never spends past a budget: when the run's spend so far plus the fallback's estimated cost for
 * this step (the typical figure, what budgets reserve) would pass the run's per-run cap, the step fails
 * instead of moving on.
 */
export function fallbackBudgetStop(role: string, model: string, budget: FallbackBudget): FallbackBudgetStop | undefined {
  const { capUsd, spentUsd, estimateUsd } = budget;
  if (capUsd === undefined) return undefined;
  const after = roundUsd(spentUsd + estimateUsd);
  if (after <= capUsd) return undefined;
  const verdict = `falling back to ${model} would take the run to about ${after} USD, over its per-run cap of ${capUsd} USD`;
  return {
    errorCode: 'budget_gate_exceeded',
    error: `role ${role}: ${verdict}`,
    failureDetails: {
      gateType: 'budget',
      verdict,
      reasons: ['per_run_cap_exceeded'],
      capUsd,
      spentUsd: roundUsd(spentUsd),
      estimateUsd: roundUsd(estimateUsd),
      fallbackModel: model,
    },
  };
}
