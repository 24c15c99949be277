/**
 * Money is kept in USD as numbers rounded to micro-dollars: model prices are fractions of a cent, and
 * rounding at every sum keeps float noise (0.1 + 0.2) out of totals, budgets and comparisons.
 */
export function roundUsd(value: number): number {
  return Math.round(value * 1_000_000) / 1_000_000;
}

export function sumUsd(values: Iterable<number | null | undefined>): number {
  let total = 0;
  for (const v of values) total += v ?? 0;
  return roundUsd(total);
}

/**
 * A run's total spend: what its own steps spent plus what its sub-workflow children spent (each child's
 * total, so a grandchild's spend arrives through its parent). Shown on the run; sums across runs add each
 * run's own spend instead, so a child's dollar, already on the child run, is counted once.
 */
export function runTotalUsd(ownUsd: number, subWorkflowUsd: number): number {
  return roundUsd(ownUsd + subWorkflowUsd);
}
