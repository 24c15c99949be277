/**
 * `npm run bench -- engine`: what the engine adds per step, and how fast a run's transitions
 * reach an event-stream client. In one process, on one Temporal dev server and one embedded PostgreSQL
 * (bench/infra.ts), with the worker and the gateway wired in-process:
 *
 *   1. perStep: a bench-only workflow of 10 `code` steps (function `identity`, no model calls), installed
 *      with syncBuiltinWorkflows, run BENCH_STEP_RUNS times through the gateway (POST /v1/runs, done when
 *      the read model's runs.status is terminal), against a bare Temporal workflow of 10 no-op activities
 *      (bench/bare-steps-workflows.ts), C in flight on both sides, in ABBA rounds. Per-step overhead is
 *      (Atelier p50 - bare p50) / 10. The same pair is then run one at a time (unloaded). Where the time
 *      goes comes from the runs' event log (database time of every transition) and from the Temporal
 *      histories of both sides (dispatch, activity, workflow-task turnaround per step).
 *   2. sse: BENCH_SSE_RUNS runs of plan-research-report on the local provider with simulated model
 *      latency, each watched by a real SSE client (fetch + a stream parser) opened as soon as the run is
 *      started. For every event: client receipt minus the event's `at` (the database time its row was
 *      written; same machine clock). Every event recorded after the snapshot must arrive, once, in order.
 *
 * Progress goes to stderr; stdout gets one JSON line. Whatever the bench starts, it stops, also on error
 * and on Ctrl-C (bench/harness.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import pino from 'pino';
import { RunEventHub, startApiServer } from '@atelier/api';
import { loadBuiltinWorkflows } from '@atelier/catalog';
import { connectDb, migrateToLatest, syncBuiltinWorkflows } from '@atelier/db';
import { LOCAL_MODELS, ModelRegistry } from '@atelier/domain';
import { bundleRunWorkflows, createRunWorker } from '@atelier/engine/worker';
import { LocalStorage } from '@atelier/storage';
import * as bareStepActivities from './bare-steps-activities';
import { type CpuDelta, cpuDelta, sampleCpu } from './cpu';
import { SSE_TEMPLATE, readRunStream, ssePhase } from './engine-sse';
import { type RunSample, runTimeline, spread, temporalCycle } from './engine-timeline';
import {
  benchTemporalClient,
  type Cleanup,
  NAMESPACE,
  RunWatcher,
  abba,
  benchLog,
  bundleBaseline,
  createApiKey,
  describe,
  gitState,
  installRuntime,
  intEnv,
  keepRunning,
  loadAvg,
  postRun,
  runMain,
  startBaselineWorker,
  startInfra,
  temporalStoreEnv,
} from './harness';
import { round1, round3, runBounded, summarize } from './stats';

const settings = {
  stepRuns: intEnv('BENCH_STEP_RUNS', 100, 1),
  concurrency: intEnv('BENCH_STEP_CONCURRENCY', 8, 1),
  rounds: intEnv('BENCH_STEP_ROUNDS', 2, 1),
  unloadedRuns: intEnv('BENCH_STEP_UNLOADED_RUNS', 10),
  warmup: intEnv('BENCH_WARMUP', 8),
  sseRuns: intEnv('BENCH_SSE_RUNS', 20),
  sseConcurrency: intEnv('BENCH_SSE_CONCURRENCY', 10, 1),
  localLatencyMs: intEnv('BENCH_LOCAL_LATENCY_MS', 50),
  runTimeoutMs: intEnv('BENCH_RUN_TIMEOUT_MS', 60_000, 1),
  temporalStore: temporalStoreEnv(),
};

const STEPS = 10;
const ATELIER_QUEUE = 'bench-engine';
const BARE_QUEUE = 'bench-engine-bare';
const BARE_WORKFLOWS_PATH = fileURLToPath(new URL('./bare-steps-workflows.ts', import.meta.url));
const bench = benchLog('engine-bench');
const { log } = bench;

/**
 * The bench-only definition: ten `identity` code steps in a chain (each step's input is the previous
 * step's output), no model, gate or artifact step. knowledge/article has no QA rules, so a run completes.
 */
const STEPS_DEFINITION = {
  schemaVersion: 'workflow-schema-v1',
  id: 'build-bench-steps',
  name: 'Bench: ten code steps',
  description: `Bench only (bench/engine.ts): ${STEPS} identity code steps in a chain, no model calls.`,
  artifactClass: 'knowledge',
  outputType: 'article',
  version: '2026.11.22',
  status: 'active',
  supersededById: null,
  cadence: 'on-demand',
  intakeSchema: { fields: [{ name: 'title', type: 'string', required: true }] },
  runtimeSteps: Array.from({ length: STEPS }, (_, i) => ({
    id: `step-${i + 1}`,
    name: `Pass it on (${i + 1})`,
    kind: 'code',
    function: 'identity',
    inputPath: i === 0 ? 'intake' : `step-${i}`,
  })),
  gates: [],
  providers: {},
  budgetPolicy: {},
  artifactSchema: { artifactClass: 'knowledge', artifactType: 'article', files: ['application/json'], metadata: ['title'] },
  outputShape: [{ artifactClass: 'knowledge', artifactType: 'article' }],
};

// --------------------------------------------------------------------------------------- per-step phases

interface Bench {
  client: Client;
  baseUrl: string;
  apiKey: string;
  watcher: RunWatcher;
  aborted: () => boolean;
}

interface Phase {
  runs: number;
  samples: RunSample[];
  failed: number;
  firstError?: string;
  wallMs: number;
  cpu?: CpuDelta;
}

function addPhases(a: Phase, b: Phase): Phase {
  const cpu: CpuDelta | undefined =
    a.cpu && b.cpu
      ? {
          cpuMs: Object.fromEntries(
            [...new Set([...Object.keys(a.cpu.cpuMs), ...Object.keys(b.cpu.cpuMs)])].map((k) => [
              k,
              (a.cpu!.cpuMs[k] ?? 0) + (b.cpu!.cpuMs[k] ?? 0),
            ]),
          ),
          machineBusyMs: a.cpu.machineBusyMs + b.cpu.machineBusyMs,
          machineCapacityMs: a.cpu.machineCapacityMs + b.cpu.machineCapacityMs,
        }
      : (a.cpu ?? b.cpu);
  return {
    runs: a.runs + b.runs,
    samples: [...a.samples, ...b.samples],
    failed: a.failed + b.failed,
    firstError: a.firstError ?? b.firstError,
    wallMs: a.wallMs + b.wallMs,
    ...(cpu ? { cpu } : {}),
  };
}

const EMPTY_PHASE: Phase = { runs: 0, samples: [], failed: 0, wallMs: 0 };

async function phase(b: Bench, n: number, concurrency: number, task: (i: number) => Promise<RunSample>): Promise<Phase> {
  const before = sampleCpu();
  const { wallMs, results } = await runBounded(n, concurrency, task, b.aborted);
  const cpu = cpuDelta(before, sampleCpu());
  const samples = results.filter((r) => r?.ok).map((r) => (r as { value: RunSample }).value);
  const failures = results.filter((r) => r && !r.ok) as Array<{ error: unknown }>;
  return { runs: n, samples, failed: failures.length, wallMs, cpu, ...(failures[0] ? { firstError: describe(failures[0].error) } : {}) };
}

/** n bare workflows of STEPS no-op activities, started and awaited with the Temporal client. */
function barePhase(b: Bench, n: number, concurrency: number, label: string): Promise<Phase> {
  const tag = randomBytes(3).toString('hex');
  return phase(b, n, concurrency, async (i) => {
    const id = `bench-steps-${label}-${tag}-${i}`;
    const t0 = performance.now();
    await b.client.workflow.execute('bareStepsWorkflow', { taskQueue: BARE_QUEUE, workflowId: id, args: [{ i, steps: STEPS }] });
    return { id, ms: performance.now() - t0 };
  });
}

/** n runs of the 10-step definition through the gateway, each done when the read model says so. */
function atelierPhase(b: Bench, n: number, concurrency: number, label: string): Promise<Phase> {
  return phase(b, n, concurrency, async (i) => {
    const sentAt = Date.now();
    const t0 = performance.now();
    const id = await postRun(b.baseUrl, b.apiKey, STEPS_DEFINITION.id, { title: `bench ${label} ${i}` });
    const postMs = performance.now() - t0;
    const settled = await b.watcher.completed(id, settings.runTimeoutMs);
    return { id, ms: settled.at - t0, postMs, sentAt, observedAt: settled.wallAt };
  });
}

function phaseSummary(p: Phase) {
  const latency = summarize(p.samples.map((s) => s.ms));
  const n = Math.max(1, p.samples.length);
  const cpu = p.cpu;
  const per = (ms: number | undefined) => round1((ms ?? 0) / n);
  return {
    runs: p.runs,
    completed: p.samples.length,
    failed: p.failed,
    wallMs: round1(p.wallMs),
    throughput: round1(p.samples.length / (p.wallMs / 1000)),
    p50Ms: latency.p50Ms,
    p90Ms: latency.p90Ms,
    p99Ms: latency.p99Ms,
    maxMs: latency.maxMs,
    ...(p.samples[0]?.postMs !== undefined ? { postP50Ms: summarize(p.samples.map((s) => s.postMs!)).p50Ms } : {}),
    ...(cpu
      ? {
          /** CPU ms per completed run: this node process (gateway, worker, bench clients) by thread, Temporal, PostgreSQL. */
          cpuMsPerRun: {
            nodeMain: per(cpu.cpuMs.nodeMain),
            nodeTemporalCore: per(cpu.cpuMs.nodeTemporalCore),
            nodeOther: per(cpu.cpuMs.nodeOtherThreads),
            temporal: per(cpu.cpuMs.temporal),
            postgres: per(cpu.cpuMs.postgres),
            total: per((cpu.cpuMs.node ?? 0) + (cpu.cpuMs.temporal ?? 0) + (cpu.cpuMs.postgres ?? 0)),
          },
          /** Share of the machine's CPU busy during the phase, all tenants included. */
          machineBusy: round3(cpu.machineBusyMs / Math.max(1, cpu.machineCapacityMs)),
        }
      : {}),
    ...(p.firstError ? { firstError: p.firstError } : {}),
  };
}

// ------------------------------------------------------------------------------------------------- main

/** The bench definition, validated by the same rules as the shipped catalog (a catalog folder of one). */
async function validatedStepsDefinition(dir: string) {
  const folder = path.join(dir, 'bench-catalog', STEPS_DEFINITION.id);
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, `${STEPS_DEFINITION.version}.json`), JSON.stringify(STEPS_DEFINITION, null, 2));
  const [definition] = loadBuiltinWorkflows(path.dirname(folder));
  if (!definition) throw new Error('the bench workflow definition did not load');
  return definition;
}

async function main(cleanup: Cleanup, aborted: () => boolean): Promise<Record<string, unknown>> {
  const loadAtStart = loadAvg();
  log(`settings ${JSON.stringify(settings)}; ${os.cpus().length} CPUs, load ${loadAtStart.join(' ')}`);
  installRuntime();

  log('starting the Temporal dev server and PostgreSQL; bundling runWorkflow and the baseline');
  const bundles = Promise.all([bundleRunWorkflows(), bundleBaseline(BARE_WORKFLOWS_PATH, log)]);
  bundles.catch(() => undefined);
  const infra = await startInfra(cleanup, log, settings.temporalStore);
  log(`Temporal at ${infra.temporalAddress}; PostgreSQL (${infra.postgres}) ready`);

  const logger = pino({ level: 'silent' });
  const models = new ModelRegistry(LOCAL_MODELS);
  const storage = new LocalStorage(path.join(infra.tmpDir, 'storage'));
  // The gateway and the worker each hold their own pool, as `atelier api` and `atelier worker` do; the bench a small third.
  const pools = {
    api: connectDb({ url: infra.databaseUrl }),
    worker: connectDb({ url: infra.databaseUrl }),
    bench: connectDb({ url: infra.databaseUrl, max: 3 }),
  };
  for (const [name, pool] of Object.entries(pools)) cleanup.add(`the ${name} database pool`, () => pool.destroy());
  await migrateToLatest(pools.bench);
  await syncBuiltinWorkflows(pools.bench, [...loadBuiltinWorkflows(), await validatedStepsDefinition(infra.tmpDir)]);

  const [runBundle, bareBundle] = await bundles;
  const workerConnection = await NativeConnection.connect({ address: infra.temporalAddress });
  cleanup.add('the workers’ Temporal connection', () => workerConnection.close());
  const atelierWorker = await createRunWorker({
    connection: workerConnection,
    namespace: NAMESPACE,
    taskQueue: ATELIER_QUEUE,
    db: pools.worker,
    logger,
    models,
    storage,
    providers: { localLatencyMs: settings.localLatencyMs },
    workflowBundle: runBundle,
  });
  keepRunning(cleanup, 'the Atelier worker', atelierWorker);
  await startBaselineWorker(cleanup, {
    connection: workerConnection,
    namespace: NAMESPACE,
    taskQueue: BARE_QUEUE,
    workflowBundle: bareBundle,
    activities: bareStepActivities,
  });

  const client = await benchTemporalClient(cleanup, infra, NAMESPACE);
  const gatewayHub = new RunEventHub(infra.databaseUrl, logger);
  cleanup.add('the gateway’s run event listener', () => gatewayHub.close());
  const api = await startApiServer(
    { db: pools.api, temporal: client, taskQueue: ATELIER_QUEUE, logger, models, storage, events: gatewayHub },
    0,
    '127.0.0.1',
  );
  cleanup.add('the gateway', () => api.close());
  // The bench's own listener: read-model checks and NOTIFY timing, apart from the gateway's.
  const watcher = await RunWatcher.start(cleanup, pools.bench, infra.databaseUrl, log);
  const b: Bench = { client, baseUrl: api.url, apiKey: await createApiKey(api.url), watcher, aborted };
  const sseContext = { ...b, hub: watcher.hub, db: pools.bench, log, runTimeoutMs: settings.runTimeoutMs };
  log(`gateway at ${api.url}`);

  if (settings.warmup > 0) {
    log(`warm-up: ${settings.warmup} bare workflows, ${settings.warmup} Atelier runs and one streamed ${SSE_TEMPLATE} run (not counted)`);
    const w = Math.min(settings.warmup, settings.concurrency);
    for (const p of [await barePhase(b, settings.warmup, w, 'warm'), await atelierPhase(b, settings.warmup, w, 'warm')]) {
      if (p.failed) throw new Error(`warm-up failed: ${p.firstError}`);
    }
    const stream = await readRunStream(sseContext, await postRun(b.baseUrl, b.apiKey, SSE_TEMPLATE, { topic: 'warm-up' }));
    if (!stream.ended) throw new Error('the warm-up event stream did not end');
  }

  // ABBA rounds, so drift favours neither side.
  let bare = EMPTY_PHASE;
  let atelier = EMPTY_PHASE;
  const rounds: Array<Record<string, unknown>> = [];
  for (let r = 1; r <= settings.rounds && !aborted(); r++) {
    const n = Math.floor(settings.stepRuns / settings.rounds) + (r <= settings.stepRuns % settings.rounds ? 1 : 0);
    if (n === 0) continue;
    const got: Partial<Record<'bare' | 'atelier', Phase>> = {};
    for (const side of abba(r, 'bare' as const, 'atelier' as const)) {
      const p =
        side === 'bare' ? await barePhase(b, n, settings.concurrency, `r${r}`) : await atelierPhase(b, n, settings.concurrency, `r${r}`);
      const s = phaseSummary(p);
      log(
        `round ${r} ${side}: ${s.completed}/${n} in ${(s.wallMs / 1000).toFixed(2)} s = ${s.throughput} /s; p50 ${s.p50Ms} ms, p99 ${s.p99Ms} ms; machine busy ${s.machineBusy}${p.failed ? `; ${p.failed} failed (${p.firstError})` : ''}`,
      );
      got[side] = p;
    }
    bare = addPhases(bare, got.bare!);
    atelier = addPhases(atelier, got.atelier!);
    const [sb, sa] = [phaseSummary(got.bare!), phaseSummary(got.atelier!)];
    rounds.push({
      round: r,
      runs: n,
      bare: { throughput: sb.throughput, p50Ms: sb.p50Ms, p99Ms: sb.p99Ms },
      atelier: { throughput: sa.throughput, p50Ms: sa.p50Ms, p99Ms: sa.p99Ms },
    });
  }
  if (aborted()) throw new Error('interrupted');

  let unloaded: Record<string, unknown> | undefined;
  let unloadedBare = EMPTY_PHASE;
  let unloadedAtelier = EMPTY_PHASE;
  if (settings.unloadedRuns > 0) {
    log(`unloaded: ${settings.unloadedRuns} bare workflows, then ${settings.unloadedRuns} Atelier runs, one at a time`);
    unloadedBare = await barePhase(b, settings.unloadedRuns, 1, 'unloaded');
    unloadedAtelier = await atelierPhase(b, settings.unloadedRuns, 1, 'unloaded');
    const [ub, ua] = [phaseSummary(unloadedBare), phaseSummary(unloadedAtelier)];
    unloaded = {
      runs: settings.unloadedRuns,
      bare: { p50Ms: ub.p50Ms, p99Ms: ub.p99Ms, cpuMsPerRun: ub.cpuMsPerRun },
      atelier: { p50Ms: ua.p50Ms, p99Ms: ua.p99Ms, postP50Ms: ua.postP50Ms, cpuMsPerRun: ua.cpuMsPerRun },
      overheadPerStepMs: round1((ua.p50Ms - ub.p50Ms) / STEPS),
      ...(ub.failed || ua.failed ? { failed: ub.failed + ua.failed, firstError: ub.firstError ?? ua.firstError } : {}),
    };
    log(`unloaded: bare p50 ${ub.p50Ms} ms, Atelier p50 ${ua.p50Ms} ms => ${unloaded.overheadPerStepMs} ms per step`);
  }

  log('where the time goes: run event timelines and Temporal histories');
  const breakdown = {
    /** Medians over the loaded Atelier runs, from run_events (database clock). */
    atelierTimeline: await runTimeline(pools.bench, atelier.samples, STEPS),
    atelierTimelineUnloaded: await runTimeline(pools.bench, unloadedAtelier.samples, STEPS),
    /** Per step, from Temporal histories of sampled workflows (loaded rounds, then the unloaded ones). */
    temporalPerStep: {
      bare: await temporalCycle(client, spread(bare.samples, 10)),
      atelier: await temporalCycle(client, spread(atelier.samples, 10)),
      bareUnloaded: await temporalCycle(client, spread(unloadedBare.samples, 5)),
      atelierUnloaded: await temporalCycle(client, spread(unloadedAtelier.samples, 5)),
    },
  };
  log(`breakdown ${JSON.stringify(breakdown)}`);

  let sse: Record<string, unknown> | undefined;
  if (settings.sseRuns > 0 && !aborted()) {
    log(
      `sse: ${settings.sseRuns} ${SSE_TEMPLATE} runs (local latency ${settings.localLatencyMs} ms), ${settings.sseConcurrency} streamed at a time`,
    );
    sse = await ssePhase(sseContext, {
      runs: settings.sseRuns,
      concurrency: settings.sseConcurrency,
      localLatencyMs: settings.localLatencyMs,
    });
  }
  if (aborted()) throw new Error('interrupted');

  const [sb, sa] = [phaseSummary(bare), phaseSummary(atelier)];
  return {
    bench: 'engine',
    perStep: {
      steps: STEPS,
      workflow: STEPS_DEFINITION.id,
      runs: settings.stepRuns,
      concurrency: settings.concurrency,
      bare: sb,
      atelier: sa,
      /** Atelier throughput / bare throughput. */
      ratio: round3(sa.throughput / sb.throughput),
      overheadPerStepMs: round1((sa.p50Ms - sb.p50Ms) / STEPS),
      rounds,
      ...(unloaded ? { unloaded } : {}),
      breakdown,
    },
    ...(sse ? { sse } : {}),
    env: {
      cpus: os.cpus().length,
      node: process.version,
      postgres: infra.postgres,
      temporalStore: settings.temporalStore,
      git: gitState(),
      loadAvgStart: loadAtStart,
      loadAvgEnd: loadAvg(),
      totalSeconds: round1(bench.seconds()),
    },
  };
}

await runMain(bench, main);
