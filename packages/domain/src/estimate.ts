import type { Step } from '@atelier/contracts/workflow-definition';
import type { ModelEntry } from './models.js';
import { roundUsd } from './money.js';

/**
 * Price estimates come from registry pricing and nominal usage per step kind. The typical figure is
 * what budgets reserve for a run that has not settled yet; min and max bound the spread.
 */
export interface CostEstimate {
  min: number;
  typical: number;
  max: number;
  currency: 'USD';
}

const TEXT_USAGE = { min: { in: 200, out: 200 }, typical: { in: 600, out: 900 }, max: { in: 2000, out: 4000 } };

function stepCost(step: Step, model: ModelEntry | undefined, level: 'min' | 'typical' | 'max'): number {
  if (!model) return 0;
  const p = model.pricing;
  switch (model.kind) {
    case 'text':
    case 'classifier':
    case 'embedding': {
      const usage = TEXT_USAGE[level];
      const turns = step.kind === 'agent' ? (level === 'max' ? (step.maxTurns ?? 5) : level === 'typical' ? 2 : 1) : 1;
      return turns * (((p.per_1k_input_tokens ?? 0) * usage.in) / 1000 + ((p.per_1k_output_tokens ?? 0) * usage.out) / 1000);
    }
    case 'image':
      return p.per_image ?? 0;
    case 'video': {
      const seconds = level === 'min' ? 2 : level === 'typical' ? 4 : 10;
      return (p.per_second ?? 0) * seconds;
    }
  }
}

/** Batch interfaces price at half (decisions §7) for models that have one. */
export const BATCH_PRICE_FACTOR = 0.5;

export function estimateSteps(
  steps: readonly Step[],
  modelForRole: (role: string) => ModelEntry | undefined,
  opts: { batch?: boolean } = {},
): CostEstimate {
  const total = { min: 0, typical: 0, max: 0 };
  for (const step of steps) {
    const model = step.role ? modelForRole(step.role) : undefined;
    const factor = opts.batch && model?.batch ? BATCH_PRICE_FACTOR : 1;
    for (const level of ['min', 'typical', 'max'] as const) total[level] += stepCost(step, model, level) * factor;
  }
  return { min: roundUsd(total.min), typical: roundUsd(total.typical), max: roundUsd(total.max), currency: 'USD' };
}

/** Cost of one text call from reported usage. */
export function textCallCost(model: ModelEntry, inputTokens: number, outputTokens: number): number {
  const p = model.pricing;
  return roundUsd(((p.per_1k_input_tokens ?? 0) * inputTokens) / 1000 + ((p.per_1k_output_tokens ?? 0) * outputTokens) / 1000);
}
