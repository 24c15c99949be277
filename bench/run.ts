/**
 * `npm run bench`: the three targets of the engine (issue 13), each a ratio of Atelier to a bare Temporal
 * baseline measured in the same run, on the same Temporal dev server and PostgreSQL, which the bench starts:
 *
 *   1. runs (bench/target-runs.ts): plan-research-report throughput through the gateway ÷ a bare workflow
 *      of three no-op activities, C in flight (target ≥ 0.85);
 *   2. run creation (bench/target-creation.ts): POST /v1/runs latency with 32 concurrent clients ÷ a bare
 *      gateway doing one insert and one workflow.start, p50 and p99 (target ≤ 1.5);
 *   3. orders (bench/target-orders.ts): an order's completion rate ÷ a bare parent fanning out as many
 *      no-op children at the same concurrency (target ≥ 0.8).
 * Diagnostics say where the time goes (bench/diagnostics.ts). Progress and a human summary go to stderr;
 * the last line on stdout is the one JSON result.
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import * as bareActivities from './bare-activities';
import { type Cleanup, NAMESPACE, benchLog, describe, gitState, intEnv, loadAvg, postRun, runMain, temporalStoreEnv } from './harness';
import { comparedSides, startBothSides } from './both-sides';
import { runBounded, sleep } from './stats';
import { measureCreation } from './target-creation';
import { measureOrders } from './target-orders';
import { RUNS_TEMPLATE, followAtelierRun, measureRuns, runsDiagnostics } from './target-runs';

function followFromEnv(): 'watch' | 'stream' {
  const follow = process.env.BENCH_RUNS_FOLLOW || 'watch';
  if (follow !== 'watch' && follow !== 'stream') throw new Error('BENCH_RUNS_FOLLOW must be watch or stream');
  return follow;
}

const settings = {
  runs: intEnv('BENCH_RUNS', 200, 1),
  concurrency: intEnv('BENCH_CONCURRENCY', 16, 1),
  // Eight (four ABBA pairs): the target reads every round's paired ratio, and this machine's speed drifts
  // within a minute (single rounds of the same code read 0.74 to 1.02); four left the mean uncertain by ±4%.
  rounds: intEnv('BENCH_ROUNDS', 8, 1),
  // A round's worth of each side. After 16, Atelier's two processes (far more code for the JIT than the
  // bare worker) spent 17-33% more CPU a run in the first round than in the fourth, and that round read
  // 0.04-0.08 below the others; after 200, 11-25%, and the ratio rose by about 0.03 (performance-log.md).
  warmup: intEnv('BENCH_WARMUP', intEnv('BENCH_RUNS', 200, 1)),
  postRequests: intEnv('BENCH_POST_REQUESTS', 300),
  postClients: intEnv('BENCH_POST_CLIENTS', 32, 1),
  postRounds: intEnv('BENCH_POST_ROUNDS', 2, 1),
  orderChildren: intEnv('BENCH_ORDER_CHILDREN', 2000),
  orderConcurrency: intEnv('BENCH_ORDER_CONCURRENCY', 8, 1),
  orderRounds: intEnv('BENCH_ORDER_ROUNDS', 1, 1),
  orderTimeoutMs: intEnv('BENCH_ORDER_TIMEOUT_MS', 1_200_000, 1),
  diagnostics: intEnv('BENCH_DIAG', 1) !== 0,
  localLatencyMs: intEnv('BENCH_LOCAL_LATENCY_MS', 0),
  runTimeoutMs: intEnv('BENCH_RUN_TIMEOUT_MS', 120_000, 1),
  temporalStore: temporalStoreEnv(),
};

const BARE_QUEUE = 'bench-bare';
const ATELIER_QUEUE = 'bench-atelier';
const BARE_WORKFLOWS_PATH = fileURLToPath(new URL('./bare-workflows.ts', import.meta.url));
const bench = benchLog('bench');
const { log } = bench;

async function main(cleanup: Cleanup, aborted: () => boolean): Promise<Record<string, unknown>> {
  const loadAtStart = loadAvg();
  log(`settings ${JSON.stringify(settings)}; ${os.cpus().length} CPUs, load ${loadAtStart.join(' ')}`);
  log('starting the Temporal dev server and PostgreSQL, the Atelier worker and gateway, the baseline worker');
  const both = await startBothSides(cleanup, log, {
    temporalStore: settings.temporalStore,
    atelier: {
      namespace: NAMESPACE,
      taskQueue: ATELIER_QUEUE,
      localLatencyMs: settings.localLatencyMs,
      orderConcurrency: settings.orderConcurrency,
    },
    bare: { workflowsPath: BARE_WORKFLOWS_PATH, taskQueue: BARE_QUEUE, activities: bareActivities },
  });
  const { infra, client } = both;
  const s = await comparedSides(cleanup, both, {
    bareQueue: BARE_QUEUE,
    follow: followFromEnv(),
    runTimeoutMs: settings.runTimeoutMs,
    diagnostics: settings.diagnostics,
    log,
    aborted,
  });

  if (settings.warmup > 0) {
    log(`warm-up: ${settings.warmup} bare workflows and ${settings.warmup} Atelier runs (not counted)`);
    const w = Math.min(settings.warmup, settings.concurrency);
    const warm = [
      await runBounded(settings.warmup, w, (i) =>
        client.workflow.execute('bareWorkflow', { taskQueue: BARE_QUEUE, workflowId: `bench-warmup-${Date.now()}-${i}`, args: [{ i }] }),
      ),
      // Followed as the rounds follow theirs: a stream-following bench warms the event stream's path too.
      await runBounded(settings.warmup, w, async (i) =>
        followAtelierRun(s, await postRun(s.atelierUrl, s.apiKey, RUNS_TEMPLATE, { topic: `bench warm-up ${i}` })),
      ),
    ];
    const bad = warm.flatMap((p) => p.results).find((r) => !r.ok) as { error: unknown } | undefined;
    if (bad) throw new Error(`warm-up failed: ${describe(bad.error)}`);
    // Let PostgreSQL flush the warm-up's statistics before the first phase reads its counters.
    await sleep(1_500);
  }

  const runs = await measureRuns(s, settings);
  const runsDiag = settings.diagnostics && !aborted() ? await runsDiagnostics(s, settings, runs.bareCpuPerRun) : undefined;
  if (settings.postRequests > 0) await s.watcher.listen();
  const creation =
    settings.postRequests > 0 && !aborted()
      ? await measureCreation(s, cleanup, {
          requests: settings.postRequests,
          clients: settings.postClients,
          rounds: settings.postRounds,
          profile: settings.diagnostics,
        })
      : undefined;
  const orders =
    settings.orderChildren > 0 && !aborted()
      ? await measureOrders(s, {
          children: settings.orderChildren,
          concurrency: settings.orderConcurrency,
          rounds: settings.orderRounds,
          timeoutMs: settings.orderTimeoutMs,
        })
      : undefined;
  if (aborted()) throw new Error('interrupted');

  const targets = {
    runs: runs.summary,
    ...(creation ? { runCreation: creation.summary } : {}),
    ...(orders ? { orders: orders.summary } : {}),
  };
  const env = {
    cpus: os.cpus().length,
    node: process.version,
    /** Heap flags this process runs with: both sides share it, so a flag like --max-semi-space-size moves both. */
    nodeFlags: [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].filter((a) => a.startsWith('--max')),
    postgres: infra.postgres,
    temporalStore: settings.temporalStore,
    git: gitState(),
    localLatencyMs: settings.localLatencyMs,
    loadAvgStart: loadAtStart,
    loadAvgEnd: loadAvg(),
    totalSeconds: Math.round(bench.seconds()),
  };
  printSummary(targets, env);
  return {
    bench: 'targets',
    targets,
    pass: Object.values(targets).every((t) => t.pass),
    runs: runs.detail,
    ...(runsDiag ? { runsDiagnostics: runsDiag } : {}),
    ...(creation ? { runCreation: creation.detail } : {}),
    ...(orders ? { orders: orders.detail } : {}),
    settings,
    env,
  };
}

/** The three ratios, their two sides, target and verdict, for a human (stderr; stdout stays one JSON line). */
function printSummary(
  t: {
    runs: {
      ratio: number;
      atelier: number;
      bare: number;
      roundRatios: number[];
      band?: { low: number; high: number };
      target: string;
      pass: boolean;
    };
    runCreation?: {
      p50: { ratio: number; atelier: number; bare: number };
      p99: { ratio: number; atelier: number; bare: number };
      target: string;
      pass: boolean;
    };
    orders?: { ratio: number; atelier: number; bare: number; target: string; pass: boolean };
  },
  env: {
    cpus: number;
    nodeFlags: string[];
    loadAvgStart: number[];
    loadAvgEnd: number[];
    git?: { commit: string; uncommittedFiles: number };
  },
): void {
  const verdict = (pass: boolean) => (pass ? 'PASS' : 'FAIL');
  const lines = [
    `targets (Atelier ÷ bare, measured in this run on the same servers; ${env.cpus} CPUs, load ${env.loadAvgStart.join(' ')} -> ${env.loadAvgEnd.join(' ')}; ` +
      `commit ${env.git?.commit ?? '?'} + ${env.git?.uncommittedFiles ?? '?'} uncommitted files outside bench/; node flags ${env.nodeFlags.join(' ') || 'none'})`,
    `  runs          throughput ${t.runs.atelier} / ${t.runs.bare} runs/s = ${t.runs.ratio} (rounds ${t.runs.roundRatios.join(', ')}` +
      `${t.runs.band ? `; ${t.runs.band.low}–${t.runs.band.high} at one standard error` : ''})   ` +
      `target ${t.runs.target}   ${verdict(t.runs.pass)}`,
  ];
  if (t.runCreation) {
    const { p50, p99 } = t.runCreation;
    lines.push(
      `  run creation  p50 ${p50.atelier} / ${p50.bare} ms = ${p50.ratio}; p99 ${p99.atelier} / ${p99.bare} ms = ${p99.ratio}   ` +
        `target ${t.runCreation.target}   ${verdict(t.runCreation.pass)}`,
    );
  }
  if (t.orders)
    lines.push(
      `  orders        completion ${t.orders.atelier} / ${t.orders.bare} children/s = ${t.orders.ratio}   target ${t.orders.target}   ${verdict(t.orders.pass)}`,
    );
  process.stderr.write(`\n${lines.join('\n')}\n\n`);
}

await runMain(bench, main);
