/**
 * Target 1, runs: the throughput of plan-research-report through the gateway against a bare Temporal
 * workflow of three no-op activities (bench/bare-workflows.ts), C in flight on both sides, in ABBA rounds.
 *
 * - bare: N bareWorkflow executions started with the Temporal client, each timed from start to result;
 * - atelier: N runs through the real gateway over HTTP with an API key (POST /v1/runs), each done when the
 *   read model shows a terminal runs.status (RunWatcher: the announcement of a `completed` status, which
 *   arrives once it committed; a read for the other terminal statuses).
 * Ratio = best Atelier throughput ÷ best bare throughput (target ≥ 0.85). The diagnostics add a control
 * with the engine's Temporal shape but no database or HTTP (`shapedWorkflow`), a main-thread profile of
 * each side, and the Temporal history of one workflow of each kind.
 */
import { randomBytes } from 'node:crypto';
import { SEARCH_ATTRIBUTES } from '@atelier/engine/workflows/search-attributes';
import { type Metered, type PhaseCpu, type PhaseDb, historyShape } from './diagnostics';
import { type Sides, abba, describe, followRunStream, postRun } from './harness';
import { type LatencySummary, geometricMean, ratioBand, round1, round3, runBounded, summarize } from './stats';

export const RUNS_TEMPLATE = 'plan-research-report';
export const RUNS_TARGET = 0.85;

export interface PhaseResult {
  kind: string;
  runs: number;
  completed: number;
  failed: number;
  wallMs: number;
  /** Completed workflows (or runs) per second, first start to last completion. */
  throughput: number;
  latency: LatencySummary;
  /** Atelier only: the POST /v1/runs part of each completion latency. */
  postLatency?: LatencySummary;
  firstError?: string;
  cpu?: PhaseCpu;
  db?: PhaseDb;
  mainThreadMsPerRun?: Record<string, number>;
  hotFunctionsMsPerRun?: Record<string, number>;
}

type Timed = Omit<PhaseResult, 'cpu' | 'db' | 'mainThreadMsPerRun' | 'hotFunctionsMsPerRun'>;

function timed(kind: string, n: number, wallMs: number, results: Array<{ ok: boolean; value?: number; error?: unknown }>): Timed {
  const ok = results.filter((r) => r?.ok).map((r) => r.value!);
  const failures = results.filter((r) => r && !r.ok);
  return {
    kind,
    runs: n,
    completed: ok.length,
    failed: failures.length,
    wallMs: round1(wallMs),
    throughput: round1(ok.length / (wallMs / 1000)),
    latency: summarize(ok),
    ...(failures[0] ? { firstError: describe(failures[0].error) } : {}),
  };
}

async function metered(s: Sides, run: () => Promise<Timed>, profile: boolean): Promise<PhaseResult> {
  const m: Metered<Timed> = await s.meter.measure(run, (r) => r.completed, profile);
  const p: PhaseResult = {
    ...m.value,
    cpu: m.cpu,
    ...(m.db ? { db: m.db } : {}),
    ...(m.mainThreadMsPerUnit ? { mainThreadMsPerRun: m.mainThreadMsPerUnit, hotFunctionsMsPerRun: m.hotFunctionsMsPerUnit } : {}),
  };
  s.log(
    `${p.kind}: ${p.completed}/${p.runs} in ${(p.wallMs / 1000).toFixed(2)} s = ${p.throughput} /s; ` +
      `p50 ${p.latency.p50Ms} ms, p99 ${p.latency.p99Ms} ms; CPU/run ${JSON.stringify(p.cpu?.perUnitMs)}; machine busy ${p.cpu?.machineBusy}` +
      (p.failed ? `; ${p.failed} failed (${p.firstError})` : ''),
  );
  return p;
}

/** N workflows of `workflowType` on the baseline queue, started with `client.workflow.execute` (start, then wait for the result). */
export function temporalPhase(
  s: Sides,
  kind: string,
  workflowType: 'bareWorkflow' | 'shapedWorkflow',
  n: number,
  concurrency: number,
  profile = false,
): Promise<PhaseResult> {
  const tag = randomBytes(3).toString('hex');
  // The shaped control is started with search attributes, as the dispatcher starts a run.
  const attributes =
    workflowType === 'shapedWorkflow'
      ? {
          typedSearchAttributes: [
            { key: SEARCH_ATTRIBUTES.WorkspaceId, value: 'bench' },
            { key: SEARCH_ATTRIBUTES.TemplateId, value: 'bench-shaped' },
            { key: SEARCH_ATTRIBUTES.RunStatus, value: 'queued' },
          ],
        }
      : {};
  return metered(
    s,
    async () => {
      const { wallMs, results } = await runBounded(
        n,
        concurrency,
        async (i) => {
          const t0 = performance.now();
          await s.client.workflow.execute(workflowType, {
            taskQueue: s.bareQueue,
            workflowId: `bench-${workflowType}-${tag}-${i}`,
            args: [{ i }],
            ...attributes,
          });
          return performance.now() - t0;
        },
        s.aborted,
      );
      return timed(kind, n, wallMs, results);
    },
    profile,
  );
}

/**
 * When an Atelier run ended (performance.now()), followed as the runs phase follows it: through the read
 * model, or by a client reading its event stream (`BENCH_RUNS_FOLLOW=stream`) until the stream ends.
 */
export async function followAtelierRun(s: Sides, id: string): Promise<number> {
  if (s.follow === 'stream') {
    const status = await followRunStream(s.atelierUrl, id, s.apiKey, s.runTimeoutMs);
    if (status !== 'completed') throw new Error(`run ${id}: its stream ended at ${status ?? 'no status'}`);
    return performance.now();
  }
  return (await s.watcher.completed(id, s.runTimeoutMs)).at;
}

/** N runs of the template through the gateway; each done when it is seen ended (followAtelierRun). */
export function atelierRunsPhase(s: Sides, kind: string, n: number, concurrency: number, profile = false): Promise<PhaseResult> {
  const tag = randomBytes(3).toString('hex');
  return metered(
    s,
    async () => {
      const posts: number[] = [];
      const { wallMs, results } = await runBounded(
        n,
        concurrency,
        async (i) => {
          const t0 = performance.now();
          const id = await postRun(s.atelierUrl, s.apiKey, RUNS_TEMPLATE, { topic: `bench ${tag} ${i}` });
          posts.push(performance.now() - t0);
          return (await followAtelierRun(s, id)) - t0;
        },
        s.aborted,
      );
      return { ...timed(kind, n, wallMs, results), postLatency: summarize(posts) };
    },
    profile,
  );
}

/** A phase in the summary's shape. */
export function brief(p: PhaseResult) {
  return {
    runs: p.runs,
    completed: p.completed,
    failed: p.failed,
    wallMs: p.wallMs,
    throughput: p.throughput,
    p50Ms: p.latency.p50Ms,
    p90Ms: p.latency.p90Ms,
    p99Ms: p.latency.p99Ms,
    maxMs: p.latency.maxMs,
    ...(p.postLatency ? { postP50Ms: p.postLatency.p50Ms, postP99Ms: p.postLatency.p99Ms } : {}),
    ...(p.cpu
      ? {
          cpuMsPerRun: p.cpu.perUnitMs,
          nodeThreadsMsPerRun: p.cpu.nodeThreadsPerUnitMs,
          machineBusy: p.cpu.machineBusy,
          benchBusy: p.cpu.benchBusy,
        }
      : {}),
    ...(p.db ? { db: p.db } : {}),
    ...(p.firstError ? { firstError: p.firstError } : {}),
  };
}

const best = (phases: PhaseResult[]) => phases.reduce((a, b) => (b.throughput > a.throughput ? b : a));
/** A side's throughput over its rounds; two sides' ratio of these is the geometric mean of the rounds' own ratios. */
const meanThroughput = (phases: PhaseResult[]) => geometricMean(phases.map((p) => p.throughput));
const meanCpu = (phases: PhaseResult[]) => phases.reduce((s, p) => s + (p.cpu?.perUnitMs.total ?? 0), 0) / phases.length;

/** The runs target: `rounds` ABBA rounds of N bare workflows and N Atelier runs, C in flight. */
export async function measureRuns(s: Sides, settings: { runs: number; concurrency: number; rounds: number }) {
  const rounds: Array<{ round: number; bare: PhaseResult; atelier: PhaseResult; ratio: number }> = [];
  for (let r = 1; r <= settings.rounds && !s.aborted(); r++) {
    const got: Partial<Record<'bare' | 'atelier', PhaseResult>> = {};
    for (const side of abba(r, 'bare' as const, 'atelier' as const)) {
      got[side] =
        side === 'bare'
          ? await temporalPhase(s, `runs round ${r} bare`, 'bareWorkflow', settings.runs, settings.concurrency)
          : await atelierRunsPhase(s, `runs round ${r} atelier`, settings.runs, settings.concurrency);
    }
    rounds.push({ round: r, bare: got.bare!, atelier: got.atelier!, ratio: round3(got.atelier!.throughput / got.bare!.throughput) });
  }
  if (s.aborted()) throw new Error('interrupted');
  // Each round's two phases ran next to each other, so its ratio is measured at one speed of the machine;
  // the target reads all rounds' ratios together, not the best round of each side, which a fast window
  // that falls on one side's phase alone decides.
  const atelier = meanThroughput(rounds.map((r) => r.atelier));
  const bare = meanThroughput(rounds.map((r) => r.bare));
  const ratio = round3(atelier / bare);
  const bestBare = best(rounds.map((r) => r.bare));
  const bestAtelier = best(rounds.map((r) => r.atelier));
  return {
    summary: {
      measure: 'throughput, runs/s (geometric mean of each side over the ABBA rounds)',
      ratio,
      ratioIs: 'atelier / bare',
      atelier: round1(atelier),
      bare: round1(bare),
      roundRatios: rounds.map((r) => r.ratio),
      /** The ratio's band at one standard error of the rounds' scatter. */
      band: ratioBand(rounds.map((r) => r.atelier.throughput / r.bare.throughput)),
      target: `>= ${RUNS_TARGET}`,
      pass: ratio >= RUNS_TARGET,
    },
    detail: {
      template: RUNS_TEMPLATE,
      runs: settings.runs,
      concurrency: settings.concurrency,
      /** The best round of each side, and their ratio (the target's reading before session 12). */
      bestRounds: { ratio: round3(bestAtelier.throughput / bestBare.throughput), bare: brief(bestBare), atelier: brief(bestAtelier) },
      /** bare CPU per run / Atelier CPU per run (all rounds): the throughput ratio a CPU-bound machine would show. */
      cpuRatio: round3(meanCpu(rounds.map((r) => r.bare)) / meanCpu(rounds.map((r) => r.atelier))),
      rounds: rounds.map((r) => ({ round: r.round, ratio: r.ratio, bare: brief(r.bare), atelier: brief(r.atelier) })),
    },
    bareCpuPerRun: meanCpu(rounds.map((r) => r.bare)),
  };
}

/** Where a run's time goes: the shaped control, a main-thread profile of each side, and Temporal histories. */
export async function runsDiagnostics(s: Sides, settings: { runs: number; concurrency: number }, bareCpuPerRun: number) {
  const n = Math.max(20, Math.round(settings.runs / 5));
  // The engine's Temporal shape without Atelier's database, HTTP or step work.
  const shaped = await temporalPhase(s, 'diagnostic shaped', 'shapedWorkflow', n, settings.concurrency);
  // Profiled phases run slower; they are not measurements.
  const profiledBare = await temporalPhase(s, 'diagnostic bare (profiled)', 'bareWorkflow', n, settings.concurrency, true);
  s.log(`bare main-thread ms per run: ${JSON.stringify(profiledBare.mainThreadMsPerRun)}`);
  const profiledAtelier = await atelierRunsPhase(s, 'diagnostic atelier (profiled)', n, settings.concurrency, true);
  s.log(`atelier main-thread ms per run: ${JSON.stringify(profiledAtelier.mainThreadMsPerRun)}`);
  s.log(`atelier hottest main-thread functions, ms per run: ${JSON.stringify(profiledAtelier.hotFunctionsMsPerRun)}`);

  const [anyRun] = await s.benchDb
    .selectFrom('runs')
    .select('id')
    .where('status', '=', 'completed')
    .where('template_id', '=', RUNS_TEMPLATE)
    .where('parent_order_id', 'is', null)
    .limit(1)
    .execute();
  const tag = randomBytes(3).toString('hex');
  await s.client.workflow.execute('bareWorkflow', { taskQueue: s.bareQueue, workflowId: `bench-history-bare-${tag}`, args: [{ i: 0 }] });
  await s.client.workflow.execute('shapedWorkflow', {
    taskQueue: s.bareQueue,
    workflowId: `bench-history-shaped-${tag}`,
    args: [{ i: 0 }],
    typedSearchAttributes: [{ key: SEARCH_ATTRIBUTES.RunStatus, value: 'queued' }],
  });
  const history = {
    bare: await historyShape(s.client, `bench-history-bare-${tag}`),
    shaped: await historyShape(s.client, `bench-history-shaped-${tag}`),
    ...(anyRun ? { atelier: await historyShape(s.client, anyRun.id) } : {}),
  };
  s.log(`history events per workflow: ${JSON.stringify(history)}`);
  return {
    shaped: brief(shaped),
    /** bare CPU per run / shaped CPU per run: what the engine's Temporal shape alone costs. */
    shapedCpuRatio: round3(bareCpuPerRun / (shaped.cpu?.perUnitMs.total ?? Number.NaN)),
    historyEvents: history,
    mainThreadMsPerRun: { bare: profiledBare.mainThreadMsPerRun, atelier: profiledAtelier.mainThreadMsPerRun },
    hotFunctionsMsPerRun: { bare: profiledBare.hotFunctionsMsPerRun, atelier: profiledAtelier.hotFunctionsMsPerRun },
  };
}
