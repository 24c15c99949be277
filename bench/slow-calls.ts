/**
 * The engine at the speed of its providers: N runs started at once whose model calls each take
 * BENCH_SLOW_LATENCY_MS (2 s by default), against a bare Temporal baseline measured in the same run, on the
 * same servers.
 *
 * - Atelier: N `plan-research-report` runs (two model calls on the `local` provider at that latency, one code
 *   step) posted through the gateway by BENCH_SLOW_CLIENTS concurrent clients; makespan from the first POST
 *   to the last run terminal in the read model; POST /v1/runs latency during the burst.
 * - Bare: N `bareSlowWorkflow`s (two activities that sleep that long, one no-op) posted to a bare gateway
 *   that does one insert and one workflow.start (bench/target-creation.ts), by as many clients, on a worker
 *   with enough activity slots for all of them; makespan from the first POST to the last result.
 *
 * Targets (issue 30): makespan Atelier ÷ bare ≤ 1.15 at 400 and 2,000 runs; POST p99 Atelier ÷ bare ≤ 1.5.
 * `npm run bench -- slow-calls`; BENCH_SLOW_RUNS="400,2000" picks the sizes, BENCH_SLOW_ROUNDS (1) the bursts of each
 * size on each side, in ABBA order: the makespan ratio is then the rounds' geometric mean, and POST p99 the highest
 * of each side's rounds.
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import * as bareActivities from './bare-activities';
import { type Cleanup, NAMESPACE, abba, benchLog, gitState, http, intEnv, loadAvg, postRun, runMain, temporalStoreEnv } from './harness';
import { comparedSides, startBothSides } from './both-sides';
import { geometricMean, ratioBand, round3, runBounded, summarize } from './stats';
import { burstMilestones, startPath } from './engine-timeline';
import { startBareGateway } from './target-creation';
import { RUNS_TEMPLATE } from './target-runs';

const settings = {
  sizes: (process.env.BENCH_SLOW_RUNS ?? '400,2000').split(',').map((n) => Number(n.trim())),
  latencyMs: intEnv('BENCH_SLOW_LATENCY_MS', 2_000, 1),
  clients: intEnv('BENCH_SLOW_CLIENTS', 64, 1),
  runTimeoutMs: intEnv('BENCH_RUN_TIMEOUT_MS', 900_000, 1),
  // An uncounted burst on each side first, so the first measured burst does not also pay for the JIT
  // compiling the paths it takes (Atelier's two processes have far more of them than the bare side).
  warmup: intEnv('BENCH_SLOW_WARMUP', 200),
  // Bursts of each size on each side, in ABBA order; the ratio is the geometric mean of the rounds'.
  rounds: intEnv('BENCH_SLOW_ROUNDS', 1, 1),
  temporalStore: temporalStoreEnv(),
};
export const MAKESPAN_TARGET = 1.15;
export const POST_P99_TARGET = 1.5;

const BARE_QUEUE = 'bench-bare-slow';
const ATELIER_QUEUE = 'bench-atelier';
const bench = benchLog('slow-calls');
const { log } = bench;

interface Side {
  makespanMs: number;
  post: ReturnType<typeof summarize>;
  failed: number;
}

/** n POSTs by `clients` clients, then the wait for every one's work; makespan from the first POST. */
async function burst(
  n: number,
  post: (i: number) => Promise<string>,
  settle: (id: string) => Promise<unknown>,
): Promise<Side & { ids: string[]; startedAt: number }> {
  const t0 = performance.now();
  const startedAt = Date.now();
  const ids: string[] = [];
  const settled: Array<Promise<unknown>> = [];
  const { results } = await runBounded(n, settings.clients, async (i) => {
    const started = performance.now();
    const id = await post(i);
    ids.push(id);
    const latency = performance.now() - started;
    settled.push(settle(id));
    return latency;
  });
  const outcomes = await Promise.allSettled(settled);
  const latencies = results.filter((r) => r?.ok).map((r) => (r as { value: number }).value);
  return {
    ids,
    startedAt,
    makespanMs: Math.round(performance.now() - t0),
    post: summarize(latencies),
    failed: results.filter((r) => !r?.ok).length + outcomes.filter((o) => o.status === 'rejected').length,
  };
}

async function main(cleanup: Cleanup, aborted: () => boolean): Promise<Record<string, unknown>> {
  log(`settings ${JSON.stringify(settings)}; ${os.cpus().length} CPUs, load ${loadAvg().join(' ')}`);
  const both = await startBothSides(cleanup, log, {
    temporalStore: settings.temporalStore,
    atelier: { namespace: NAMESPACE, taskQueue: ATELIER_QUEUE, localLatencyMs: settings.latencyMs },
    bare: {
      workflowsPath: fileURLToPath(new URL('./bare-workflows.ts', import.meta.url)),
      taskQueue: BARE_QUEUE,
      activities: bareActivities,
      maxActivities: Math.max(...settings.sizes) * 2,
    },
  });
  const s = await comparedSides(cleanup, both, {
    bareQueue: BARE_QUEUE,
    runTimeoutMs: settings.runTimeoutMs,
    diagnostics: false,
    log,
    aborted,
  });
  const { client, benchDb } = both;
  const { watcher } = s;
  // One run first: the bare gateway copies a real run's row.
  await watcher.completed(await postRun(s.atelierUrl, s.apiKey, RUNS_TEMPLATE, { topic: 'slow warm-up' }), settings.runTimeoutMs);
  const bareUrl = await startBareGateway(s, cleanup, {
    type: 'bareSlowWorkflow',
    args: [{ ms: settings.latencyMs }],
    taskQueue: BARE_QUEUE,
  });
  // Each run its own topic, across the warm-up and every burst.
  let posted = 0;
  const bareCalls = {
    post: async () => {
      const res = await http(bareUrl, 'POST', '/v1/runs', { intake: { topic: `bare ${posted++}` } });
      if (res.status !== 201) throw new Error(`bare POST: ${res.status}`);
      return res.body.workflowId as string;
    },
    settle: (workflowId: string) => client.workflow.getHandle(workflowId).result(),
  };
  const atelierCalls = {
    post: () => postRun(s.atelierUrl, s.apiKey, RUNS_TEMPLATE, { topic: `slow ${posted++}` }),
    settle: async (id: string) => {
      const settled = await watcher.completed(id, settings.runTimeoutMs);
      if (settled.status !== 'completed') throw new Error(`run ${id} ended ${settled.status}: ${settled.error}`);
    },
  };
  if (settings.warmup > 0) {
    log(`warm-up: a burst of ${settings.warmup} on each side (not counted)`);
    for (const side of [bareCalls, atelierCalls]) {
      const warm = await burst(settings.warmup, side.post, side.settle);
      if (warm.failed > 0) throw new Error(`warm-up: ${warm.failed} of ${settings.warmup} failed`);
    }
  }

  type Burst = Awaited<ReturnType<typeof burst>>;
  /** When a sample of the burst's executions started and took their first workflow task, by Temporal's clock. */
  const logStartPath = async ({ ids, startedAt }: Burst) => {
    const sample = ids.filter((_, i) => i % Math.max(1, Math.floor(ids.length / 40)) === 0);
    for (const [name, m] of Object.entries(await startPath(client, sample, startedAt)))
      log(`  ${name.padEnd(22)} p50 ${m.p50} last ${m.last} ms (Temporal, ${sample.length} sampled)`);
  };
  const bareBurst = async (n: number, r: number): Promise<Burst> => {
    log(`${n} runs at ${settings.latencyMs} ms per model call, round ${r}: bare`);
    const bare = await burst(n, bareCalls.post, bareCalls.settle);
    log(`bare: makespan ${bare.makespanMs} ms, POST p50 ${bare.post.p50Ms} p99 ${bare.post.p99Ms} ms, ${bare.failed} failed`);
    await logStartPath(bare);
    return bare;
  };
  const atelierBurst = async (n: number, r: number): Promise<Burst & { milestones: Awaited<ReturnType<typeof burstMilestones>> }> => {
    log(`${n} runs at ${settings.latencyMs} ms per model call, round ${r}: Atelier`);
    const ours = await burst(n, atelierCalls.post, atelierCalls.settle);
    log(`atelier: makespan ${ours.makespanMs} ms, POST p50 ${ours.post.p50Ms} p99 ${ours.post.p99Ms} ms, ${ours.failed} failed`);
    const milestones = await burstMilestones(benchDb, ours.ids, ours.startedAt);
    for (const [name, m] of Object.entries(milestones)) log(`  ${name.padEnd(22)} p50 ${m.p50} p90 ${m.p90} last ${m.last} ms`);
    // Activity-started events are written when the activity completes (Temporal's default): its time is the pickup.
    await logStartPath(ours);
    return { ...ours, milestones };
  };
  const sideOf = ({ ids: _ids, startedAt: _s, ...side }: Burst) => side;

  const sizes: Record<string, unknown> = {};
  for (const n of settings.sizes) {
    const rounds: Array<{ round: number; atelier: Awaited<ReturnType<typeof atelierBurst>>; bare: Burst; makespanRatio: number }> = [];
    for (let r = 1; r <= settings.rounds && !aborted(); r++) {
      // ABBA: the side that goes second meets a server and a worker cache the first has just used.
      let bare: Burst | undefined;
      let ours: Awaited<ReturnType<typeof atelierBurst>> | undefined;
      for (const side of abba(r, 'bare' as const, 'atelier' as const)) {
        if (side === 'bare') bare = await bareBurst(n, r);
        else ours = await atelierBurst(n, r);
      }
      rounds.push({ round: r, atelier: ours!, bare: bare!, makespanRatio: round3(ours!.makespanMs / bare!.makespanMs) });
    }
    if (aborted()) break;
    // Each round's two bursts ran next to each other, so its ratio is read at one speed of the machine; the
    // figure is their geometric mean, and the band says how far it can be trusted.
    const ratios = rounds.map((r) => r.makespanRatio);
    const makespan = round3(geometricMean(ratios));
    const postP99Ms = {
      atelier: Math.max(...rounds.map((r) => r.atelier.post.p99Ms)),
      bare: Math.max(...rounds.map((r) => r.bare.post.p99Ms)),
    };
    const postP99 = round3(postP99Ms.atelier / postP99Ms.bare);
    const band = ratioBand(ratios);
    const failed = rounds.reduce((sum, r) => sum + r.atelier.failed, 0);
    sizes[n] = {
      rounds: rounds.map((r) => ({
        round: r.round,
        atelier: { ...sideOf(r.atelier), milestones: r.atelier.milestones },
        bare: sideOf(r.bare),
        makespanRatio: r.makespanRatio,
      })),
      makespanRatio: makespan,
      makespanBand: band,
      postP99Ratio: postP99,
      criticalPathMs: 2 * settings.latencyMs,
      pass: makespan <= MAKESPAN_TARGET && postP99 <= POST_P99_TARGET && failed === 0,
    };
    process.stderr.write(
      `\n${n} runs: makespan ${rounds.map((r) => `${r.atelier.makespanMs} / ${r.bare.makespanMs} ms`).join(', ')} = ${makespan}` +
        `${rounds.length > 1 ? ` (rounds ${ratios.join(', ')}${band ? `; ${band.low}–${band.high} at one standard error` : ''})` : ''}` +
        ` (target ≤ ${MAKESPAN_TARGET}); POST p99 ${postP99Ms.atelier} / ${postP99Ms.bare} ms = ${postP99} (target ≤ ${POST_P99_TARGET})\n\n`,
    );
  }
  return {
    bench: 'slow-calls',
    sizes,
    pass: Object.values(sizes).every((v) => (v as { pass: boolean }).pass),
    settings,
    env: {
      cpus: os.cpus().length,
      node: process.version,
      git: gitState(),
      loadAvgEnd: loadAvg(),
      totalSeconds: Math.round(bench.seconds()),
    },
  };
}

await runMain(bench, main);
