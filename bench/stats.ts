/** Small numeric helpers: percentiles, rounding, and a bounded-concurrency runner. */

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length)));
  return sorted[rank - 1]!;
}

/** The middle value, or the mean of the two middle ones. */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

export const round1 = (n: number) => Math.round(n * 10) / 10;
export const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** The geometric mean: how the benches average ratios and rates over rounds, so no one round's scale weighs more. */
export function geometricMean(values: readonly number[]): number {
  return Math.exp(values.reduce((s, x) => s + Math.log(x), 0) / values.length);
}

/**
 * How far the geometric mean of paired ratios can be trusted: the mean's band at one standard error
 * (the rounds' log ratios scatter; the band narrows with the square root of their number). Undefined for
 * fewer than two rounds.
 */
export function ratioBand(ratios: readonly number[]): { low: number; high: number } | undefined {
  if (ratios.length < 2) return undefined;
  const logs = ratios.map((r) => Math.log(r));
  const mean = logs.reduce((s, x) => s + x, 0) / logs.length;
  const sd = Math.sqrt(logs.reduce((s, x) => s + (x - mean) ** 2, 0) / (logs.length - 1));
  const se = sd / Math.sqrt(logs.length);
  return { low: round3(Math.exp(mean - se)), high: round3(Math.exp(mean + se)) };
}

export interface LatencySummary {
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
}

export function summarize(values: readonly number[]): LatencySummary {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((s, v) => s + v, 0) / Math.max(1, sorted.length);
  return {
    p50Ms: round1(percentile(sorted, 0.5)),
    p90Ms: round1(percentile(sorted, 0.9)),
    p99Ms: round1(percentile(sorted, 0.99)),
    maxMs: round1(sorted[sorted.length - 1] ?? Number.NaN),
    meanMs: round1(mean),
  };
}

/**
 * Runs `task(0..n-1)` with at most `concurrency` in flight; a failed task is recorded, not thrown.
 * Returns the wall time from the first start to the last settlement.
 */
export async function runBounded<T>(
  n: number,
  concurrency: number,
  task: (i: number) => Promise<T>,
  shouldStop: () => boolean = () => false,
): Promise<{ wallMs: number; results: Array<{ ok: true; value: T } | { ok: false; error: unknown }> }> {
  const results: Array<{ ok: true; value: T } | { ok: false; error: unknown }> = new Array(n);
  let next = 0;
  const started = performance.now();
  const lane = async () => {
    for (;;) {
      if (shouldStop()) return;
      const i = next++;
      if (i >= n) return;
      try {
        results[i] = { ok: true, value: await task(i) };
      } catch (error) {
        results[i] = { ok: false, error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, lane));
  return { wallMs: performance.now() - started, results };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
