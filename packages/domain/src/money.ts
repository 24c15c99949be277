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
