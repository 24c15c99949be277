import { roundUsd } from './money.js';

/**
 * Budget arithmetic (decisions §7). Spend is actual cost plus the estimates of runs not yet settled; a
 * request adds its estimate. Each enforcement mode decides differently what may still start.
 */
export const ENFORCEMENT_MODES = ['hard_stop', 'allow_overage', 'allow_one_more', 'notify_only'] as const;
export type EnforcementMode = (typeof ENFORCEMENT_MODES)[number];
export type RefusalReason = 'per_run_cap_exceeded' | 'hard_stop' | 'allow_overage_exceeded' | 'allow_one_more_exhausted';

export interface BudgetTerms {
  limitUsd: number;
  enforcementMode: EnforcementMode;
  overageUsd?: number | null;
  perRunCapUsd?: number | null;
}

export interface BudgetJudgement {
  allowed: boolean;
  reason?: RefusalReason;
  spendUsd: number;
  estimateUsd: number;
  remainingUsd: number;
  /** notify_only budgets never refuse, but say when a request takes spend past the limit. */
  overLimit: boolean;
}

/**
 * @param estimateUsd what the request would add (a run's estimate, or an order's).
 * @param largestRunUsd the largest single run in the request, for the per-run cap.
 */
export function judgeBudget(terms: BudgetTerms, spendUsd: number, estimateUsd: number, largestRunUsd = estimateUsd): BudgetJudgement {
  const spend = roundUsd(spendUsd);
  const estimate = roundUsd(estimateUsd);
  const after = roundUsd(spend + estimate);
  const base = {
    spendUsd: spend,
    estimateUsd: estimate,
    remainingUsd: roundUsd(Math.max(0, terms.limitUsd - spend)),
    overLimit: after > terms.limitUsd,
  };
  const refuse = (reason: RefusalReason): BudgetJudgement => ({ ...base, allowed: false, reason });
  if (
    terms.perRunCapUsd !== undefined &&
    terms.perRunCapUsd !== null &&
    roundUsd(largestRunUsd) > terms.perRunCapUsd &&
    terms.enforcementMode !== 'notify_only'
  ) {
    return refuse('per_run_cap_exceeded');
  }
  switch (terms.enforcementMode) {
    case 'hard_stop':
      return after > terms.limitUsd ? refuse('hard_stop') : { ...base, allowed: true };
    case 'allow_overage':
      return after > roundUsd(terms.limitUsd + (terms.overageUsd ?? 0)) ? refuse('allow_overage_exceeded') : { ...base, allowed: true };
    case 'allow_one_more':
      // Whatever is under the limit may start one more request, even one that crosses it.
      return spend >= terms.limitUsd ? refuse('allow_one_more_exhausted') : { ...base, allowed: true };
    case 'notify_only':
      return { ...base, allowed: true };
  }
}

/** The first day of the calendar month (UTC) that contains `now`: where a monthly budget's spend starts. */
export function periodStart(period: 'month' | 'total', now: Date): Date | null {
  return period === 'month' ? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)) : null;
}
