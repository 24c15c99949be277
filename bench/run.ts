/**
 * `npm run bench`: how close Atelier's run path comes to a bare Temporal workflow of the same shape.
 *
 * In one process, on one Temporal dev server and one PostgreSQL:
 *   1. bare:    N bare Temporal workflows (3 no-op activities) started by a Temporal client, C in flight;
 *   2. atelier: N runs of plan-research-report through the real gateway over HTTP, C in flight, each
 *               done when the read model (runs.status) is terminal;
 *      1 and 2 alternate over BENCH_ROUNDS rounds (ABBA order, so drift favours neither side);
 *   3. postRuns: POST /v1/runs latency with many concurrent clients while the worker runs what they start.
 * Diagnostics say where the time goes: CPU per run by process and thread (/proc), DB transactions, rows and
 * connection states per run, Temporal history events and payload bytes per workflow, a control workflow
 * with the engine's Temporal shape but no database or HTTP, and a main-thread CPU profile of each side.
 *
 * Progress goes to stderr; the last line on stdout is the one JSON result.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode, makeTelemetryFilterString } from '@temporalio/worker';
import { RunEventHub } from '@atelier/api';
import type { AtelierConfig } from '@atelier/cli/config';
import { createLogger } from '@atelier/cli/logger';
import { startStack } from '@atelier/cli/stack/stack';
import { type Db, connectDb } from '@atelier/db';
import { SEARCH_ATTRIBUTES } from '@atelier/engine/workflows/search-attributes';
import { generateFileSigningSecret } from '@atelier/storage/file-urls';
import * as bareActivities from './bare-activities';
import { type CpuDelta, cpuDelta, sampleCpu } from './cpu';
import { Cleanup, type Infra, rawQuery, startInfra } from './infra';
import { MainThreadProfiler, type ProfileSummary } from './profile';
import { type LatencySummary, round1, round3, runBounded, sleep, summarize } from './stats';

// ---------------------------------------------------------------------------------------------- settings

function intEnv(name: string, fallback: number, min = 0): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number >= ${min} (got "${raw}")`);
  return n;
}

const settings = {
  runs: intEnv('BENCH_RUNS', 200, 1),
  concurrency: intEnv('BENCH_CONCURRENCY', 16, 1),
  rounds: intEnv('BENCH_ROUNDS', 2, 1),
  warmup: intEnv('BENCH_WARMUP', 16),
  postRequests: intEnv('BENCH_POST_REQUESTS', 300),
  postClients: intEnv('BENCH_POST_CLIENTS', 32, 1),
  diagnostics: intEnv('BENCH_DIAG', 1) !== 0,
  localLatencyMs: intEnv('BENCH_LOCAL_LATENCY_MS', 0),
  runTimeoutMs: intEnv('BENCH_RUN_TIMEOUT_MS', 120_000, 1),
  temporalStore: (process.env.BENCH_TEMPORAL_STORE ?? 'memory') as 'file' | 'memory',
};
if (!['file', 'memory'].includes(settings.temporalStore)) throw new Error('BENCH_TEMPORAL_STORE must be file or memory');

const TEMPLATE_ID = 'plan-research-report';
const BARE_QUEUE = 'bench-bare';
const ATELIER_QUEUE = 'bench-atelier';
const NAMESPACE = 'default';
// The domain's terminal run statuses (the bench depends on @atelier/api, cli, db and engine only).
const TERMINAL = new Set(['completed', 'review', 'failed', 'cancelled', 'rejected', 'changes_requested']);
const BARE_WORKFLOWS_PATH = fileURLToPath(new URL('./bare-workflows.ts', import.meta.url));

/** The commit measured, and how many files outside bench/ differ from it (the working tree is what runs). */
function gitState(): { commit: string; uncommittedFiles: number } | undefined {
  try {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
    const status = execFileSync('git', ['status', '--porcelain', '--', '.', ':!bench', ':!.data', ':!.tools', ':!.test-data'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).toString();
    return { commit, uncommittedFiles: status.split('\n').filter(Boolean).length };
  } catch {
    return undefined;
  }
}

const began = performance.now();
const log = (message: string) =>
  process.stderr.write(`[bench ${((performance.now() - began) / 1000).toFixed(1).padStart(6)}s] ${message}\n`);

// ------------------------------------------------------------------------------------------------ http

interface HttpResult {
  status: number;
  body: any;
}

async function http(baseUrl: string, method: string, path: string, body?: unknown, token?: string): Promise<HttpResult> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed };
}

/** A user and an API key, created through the gateway like any integrator would. */
async function createApiKey(baseUrl: string): Promise<string> {
  const email = `bench-${randomBytes(5).toString('hex')}@example.com`;
  const reg = await http(baseUrl, 'POST', '/v1/auth/register', { email, password: 'benchmark password', name: 'Bench' });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
  const key = await http(baseUrl, 'POST', '/v1/api-keys', { name: 'bench' }, reg.body.accessToken);
  if (key.status !== 201) throw new Error(`API key failed: ${key.status} ${JSON.stringify(key.body)}`);
  return key.body.secret as string;
}

// ------------------------------------------------------------------------------------- read-model watch

interface Settled {
  status: string;
  at: number;
  error: string | null;
}

/**
 * Tells when runs reach a terminal status in the read model. The database announces every run event on
 * `atelier_run_events`; a notification marks its run to be checked, and the marked runs are checked in
 * one query at a time (so the watcher adds one cheap SELECT per batch, not per event). A sweep every
 * second covers a notification lost with a reconnect.
 */
class RunWatcher {
  private readonly waiting = new Map<
    string,
    { resolve: (s: Settled) => void; reject: (e: Error) => void; unsubscribe?: () => void; timer: NodeJS.Timeout }
  >();
  private readonly dirty = new Set<string>();
  private inFlight = false;
  private readonly sweep: NodeJS.Timeout;
  queries = 0;

  constructor(
    private readonly db: Db,
    private readonly hub: RunEventHub,
  ) {
    this.sweep = setInterval(() => {
      for (const id of this.waiting.keys()) this.dirty.add(id);
      this.kick();
    }, 1_000);
  }

  async wait(runId: string, timeoutMs: number): Promise<Settled> {
    const settled = new Promise<Settled>((resolve, reject) => {
      const timer = setTimeout(() => this.finish(runId, new Error(`run ${runId} not terminal after ${timeoutMs} ms`)), timeoutMs);
      this.waiting.set(runId, { resolve, reject, timer });
    });
    const unsubscribe = await this.hub.subscribe(runId, () => this.mark(runId));
    const entry = this.waiting.get(runId);
    if (entry) entry.unsubscribe = unsubscribe;
    else unsubscribe();
    // The run may have settled before the subscription: check once now.
    this.mark(runId);
    return settled;
  }

  close(): void {
    clearInterval(this.sweep);
    for (const id of [...this.waiting.keys()]) this.finish(id, new Error('watcher closed'));
  }

  private mark(runId: string): void {
    if (!this.waiting.has(runId)) return;
    this.dirty.add(runId);
    this.kick();
  }

  private finish(runId: string, outcome: Settled | Error): void {
    const entry = this.waiting.get(runId);
    if (!entry) return;
    this.waiting.delete(runId);
    clearTimeout(entry.timer);
    entry.unsubscribe?.();
    if (outcome instanceof Error) entry.reject(outcome);
    else entry.resolve(outcome);
  }

  private kick(): void {
    if (this.inFlight || this.dirty.size === 0) return;
    const ids = [...this.dirty].slice(0, 500);
    for (const id of ids) this.dirty.delete(id);
    this.inFlight = true;
    this.queries++;
    this.db
      .selectFrom('runs')
      .select(['id', 'status', 'error'])
      .where('id', 'in', ids)
      .execute()
      .then((rows) => {
        const at = performance.now();
        for (const row of rows) if (TERMINAL.has(row.status)) this.finish(row.id, { status: row.status, at, error: row.error });
      })
      .catch((err) => {
        log(`watcher query failed (will retry): ${(err as Error).message}`);
        for (const id of ids) this.dirty.add(id);
      })
      .finally(() => {
        this.inFlight = false;
        setImmediate(() => this.kick());
      });
  }
}

// ----------------------------------------------------------------------------------------------- phases

interface PhaseResult {
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
  /** Profiled phases only: the main thread's measured CPU per run, split by code owner in the profile's proportions. */
  mainThreadMsPerRun?: Record<string, number>;
  hotFunctionsMsPerRun?: Record<string, number>;
}

/**
 * Splits the main thread's measured CPU per run (from /proc) in the proportions of the profile's samples.
 * Wall-clock sample weights are inflated when other tenants preempt the thread, so only the proportions
 * are trusted; "(program)" samples (native code and waiting) are left out of them.
 */
function apportion(sampled: Record<string, number>, mainMsPerRun: number): Record<string, number> {
  const entries = Object.entries(sampled).filter(([k]) => k !== 'native (program)');
  const total = entries.reduce((s, [, v]) => s + v, 0) || 1;
  return Object.fromEntries(entries.map(([k, v]) => [k, round1((v / total) * mainMsPerRun)]));
}

interface PhaseCpu {
  /** CPU ms per completed run, by process (node is this one process: gateway, worker, bench clients). */
  perRunMs: Record<string, number>;
  /** The node process's CPU ms per run by thread: main (JavaScript), Temporal core (Rust), other threads. */
  nodeThreadsPerRunMs: Record<string, number>;
  /** Share of the machine's CPU capacity busy during the phase (all tenants), and the share used by this bench's processes. */
  machineBusy: number;
  benchBusy: number;
}

interface PhaseDb {
  /** Committed transactions (statements outside a transaction count as one) per run, excluding the bench watcher's queries. */
  xactsPerRun: number;
  rowsInsertedPerRun: number;
  rowsUpdatedPerRun: number;
  connections?: {
    samples: number;
    avgOpen: number;
    avgActive: number;
    maxActive: number;
    avgIdleInTransaction: number;
    avgWaitingOnLocks: number;
  };
}

/**
 * Samples pg_stat_activity every `everyMs` while a phase runs: how many of the database's connections
 * (the gateway's and worker's shared pool, plus the bench's own two) are running a statement, sitting idle
 * inside a transaction, or waiting on a lock.
 */
class PgActivitySampler {
  private readonly samples: Array<{ active: number; idleInTx: number; lockWaits: number; total: number }> = [];
  private timer: NodeJS.Timeout | undefined;
  private busy = false;
  queries = 0;

  constructor(private readonly db: Db) {}

  start(everyMs = 100): void {
    this.timer = setInterval(() => {
      if (this.busy) return;
      this.busy = true;
      this.queries++;
      rawQuery<{ active: string; idle_in_tx: string; lock_waits: string; total: string }>(
        this.db,
        `select count(*) filter (where state = 'active') as active,
                count(*) filter (where state like 'idle in transaction%') as idle_in_tx,
                count(*) filter (where wait_event_type = 'Lock') as lock_waits,
                count(*) as total
           from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
      )
        .then(([r]) => {
          if (r)
            this.samples.push({
              active: Number(r.active),
              idleInTx: Number(r.idle_in_tx),
              lockWaits: Number(r.lock_waits),
              total: Number(r.total),
            });
        })
        .catch(() => undefined)
        .finally(() => {
          this.busy = false;
        });
    }, everyMs);
  }

  stop(): PhaseDb['connections'] {
    clearInterval(this.timer);
    const n = Math.max(1, this.samples.length);
    const avg = (k: 'active' | 'idleInTx' | 'lockWaits' | 'total') => round1(this.samples.reduce((s, x) => s + x[k], 0) / n);
    return {
      samples: this.samples.length,
      avgOpen: avg('total'),
      avgActive: avg('active'),
      maxActive: this.samples.reduce((m, x) => Math.max(m, x.active), 0),
      avgIdleInTransaction: avg('idleInTx'),
      avgWaitingOnLocks: avg('lockWaits'),
    };
  }
}

interface DbCounters {
  xacts: number;
  inserted: number;
  updated: number;
}

interface Bench {
  client: Client;
  baseUrl: string;
  apiKey: string;
  watcher: RunWatcher;
  benchDb: Db;
  infra: Infra;
  aborted: () => boolean;
}

async function dbCounters(db: Db): Promise<DbCounters> {
  const [row] = await rawQuery<{ xact_commit: string; tup_inserted: string; tup_updated: string }>(
    db,
    'select xact_commit, tup_inserted, tup_updated from pg_stat_database where datname = current_database()',
  );
  return { xacts: Number(row?.xact_commit ?? 0), inserted: Number(row?.tup_inserted ?? 0), updated: Number(row?.tup_updated ?? 0) };
}

function cpuSummary(delta: CpuDelta, completed: number, infra: Infra): PhaseCpu {
  const per = (ms: number | undefined) => round1((ms ?? 0) / Math.max(1, completed));
  const perRunMs: Record<string, number> = { node: per(delta.cpuMs.node), temporal: per(delta.cpuMs.temporal) };
  if (infra.postgres === 'embedded') perRunMs.postgres = per(delta.cpuMs.postgres);
  perRunMs.total = round1(Object.values(perRunMs).reduce((s, v) => s + v, 0));
  const nodeThreadsPerRunMs = {
    main: per(delta.cpuMs.nodeMain),
    temporalCore: per(delta.cpuMs.nodeTemporalCore),
    other: per(delta.cpuMs.nodeOtherThreads),
  };
  const ours = (delta.cpuMs.node ?? 0) + (delta.cpuMs.temporal ?? 0) + (delta.cpuMs.postgres ?? 0) + (delta.cpuMs.other ?? 0);
  return {
    perRunMs,
    nodeThreadsPerRunMs,
    machineBusy: round3(delta.machineBusyMs / Math.max(1, delta.machineCapacityMs)),
    benchBusy: round3(ours / Math.max(1, delta.machineCapacityMs)),
  };
}

/** Measures one phase: CPU and database counters around it, then a pause so stats are flushed and the system is quiet. */
async function measured(
  b: Bench,
  kind: string,
  run: () => Promise<Omit<PhaseResult, 'cpu' | 'db'>>,
  profile = false,
): Promise<PhaseResult> {
  const dbBefore = settings.diagnostics ? await dbCounters(b.benchDb) : undefined;
  const watcherBefore = b.watcher.queries;
  const sampler = settings.diagnostics ? new PgActivitySampler(b.benchDb) : undefined;
  const cpuBefore = sampleCpu();
  sampler?.start();
  const profiler = profile ? new MainThreadProfiler() : undefined;
  await profiler?.start();
  let result: Omit<PhaseResult, 'cpu' | 'db'>;
  let sampled: ProfileSummary | undefined;
  try {
    result = await run();
  } finally {
    sampled = await profiler?.stop();
  }
  const connections = sampler?.stop();
  const cpuAfter = sampleCpu();
  // PostgreSQL flushes a backend's statistics within a second of it going idle.
  await sleep(1_500);
  const out: PhaseResult = { ...result, cpu: cpuSummary(cpuDelta(cpuBefore, cpuAfter), result.completed, b.infra) };
  if (sampled) {
    const scale = out.cpu!.nodeThreadsPerRunMs.main!;
    out.mainThreadMsPerRun = apportion(sampled.byOwner, scale);
    // The hottest functions, in the same per-run scale as the owners.
    const profiledTotal =
      Object.entries(sampled.byOwner)
        .filter(([k]) => k !== 'native (program)')
        .reduce((s, [, v]) => s + v, 0) || 1;
    out.hotFunctionsMsPerRun = Object.fromEntries(
      Object.entries(sampled.topFunctions).map(([k, v]) => [k, round1((v / profiledTotal) * scale)]),
    );
  }
  if (dbBefore) {
    const dbAfter = await dbCounters(b.benchDb);
    // The watcher's own queries, and the two counter reads, are not the system's work.
    const own = b.watcher.queries - watcherBefore + (sampler?.queries ?? 0) + 1;
    const n = Math.max(1, result.completed);
    out.db = {
      xactsPerRun: round1((dbAfter.xacts - dbBefore.xacts - own) / n),
      rowsInsertedPerRun: round1((dbAfter.inserted - dbBefore.inserted) / n),
      rowsUpdatedPerRun: round1((dbAfter.updated - dbBefore.updated) / n),
      ...(connections ? { connections } : {}),
    };
  }
  log(
    `${kind}: ${result.completed}/${result.runs} in ${(result.wallMs / 1000).toFixed(2)} s = ${result.throughput} /s; ` +
      `p50 ${result.latency.p50Ms} ms, p99 ${result.latency.p99Ms} ms; CPU/run ${JSON.stringify(out.cpu?.perRunMs)}` +
      (result.failed ? `; ${result.failed} failed (${result.firstError})` : ''),
  );
  return out;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** N workflows of `workflowType` started with `client.workflow.execute` (start, then wait for the result). */
async function temporalPhase(
  b: Bench,
  kind: string,
  workflowType: 'bareWorkflow' | 'shapedWorkflow',
  n: number,
  label: string,
  profile = false,
): Promise<PhaseResult> {
  return measured(
    b,
    kind,
    async () => {
      const tag = randomBytes(3).toString('hex');
      const { wallMs, results } = await runBounded(
        n,
        settings.concurrency,
        async (i) => {
          const t0 = performance.now();
          await b.client.workflow.execute(workflowType, {
            taskQueue: BARE_QUEUE,
            workflowId: `bench-${label}-${tag}-${i}`,
            args: [{ i }],
            ...(workflowType === 'shapedWorkflow'
              ? {
                  typedSearchAttributes: [
                    { key: SEARCH_ATTRIBUTES.WorkspaceId, value: 'bench' },
                    { key: SEARCH_ATTRIBUTES.TemplateId, value: 'bench-shaped' },
                    { key: SEARCH_ATTRIBUTES.RunStatus, value: 'queued' },
                  ],
                }
              : {}),
          });
          return performance.now() - t0;
        },
        b.aborted,
      );
      const ok = results.filter((r) => r?.ok).map((r) => (r as { value: number }).value);
      const failures = results.filter((r) => r && !r.ok) as Array<{ error: unknown }>;
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
    },
    profile,
  );
}

/** N runs of the template through the gateway; each done when the read model shows a terminal status. */
async function atelierPhase(b: Bench, kind: string, n: number, label: string, profile = false): Promise<PhaseResult> {
  return measured(
    b,
    kind,
    async () => {
      const { wallMs, results } = await runBounded(
        n,
        settings.concurrency,
        async (i) => {
          const t0 = performance.now();
          const res = await http(
            b.baseUrl,
            'POST',
            '/v1/runs',
            { templateId: TEMPLATE_ID, intake: { topic: `bench ${label} ${i}` } },
            b.apiKey,
          );
          const tPost = performance.now();
          if (res.status !== 201) throw new Error(`POST /v1/runs: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
          const settled = await b.watcher.wait(res.body.id as string, settings.runTimeoutMs);
          if (settled.status !== 'completed') throw new Error(`run ${res.body.id} ended ${settled.status}: ${settled.error}`);
          return { total: settled.at - t0, post: tPost - t0 };
        },
        b.aborted,
      );
      const ok = results.filter((r) => r?.ok).map((r) => (r as { value: { total: number; post: number } }).value);
      const failures = results.filter((r) => r && !r.ok) as Array<{ error: unknown }>;
      return {
        kind,
        runs: n,
        completed: ok.length,
        failed: failures.length,
        wallMs: round1(wallMs),
        throughput: round1(ok.length / (wallMs / 1000)),
        latency: summarize(ok.map((v) => v.total)),
        postLatency: summarize(ok.map((v) => v.post)),
        ...(failures[0] ? { firstError: describe(failures[0].error) } : {}),
      };
    },
    profile,
  );
}

/** POST /v1/runs under concurrent clients, with the worker executing what they start; then waits for those runs to finish. */
async function postRunsPhase(b: Bench) {
  const n = settings.postRequests;
  const ids: string[] = [];
  const post = async (topic: string) => {
    const t0 = performance.now();
    const res = await http(b.baseUrl, 'POST', '/v1/runs', { templateId: TEMPLATE_ID, intake: { topic } }, b.apiKey);
    const ms = performance.now() - t0;
    if (res.status !== 201) throw new Error(`POST /v1/runs: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    ids.push(res.body.id as string);
    return ms;
  };

  // The unloaded figure first: one client, one request at a time, so nothing queues.
  const sequential: number[] = [];
  for (let i = 0; i < 20 && !b.aborted(); i++) sequential.push(await post(`bench sequential ${i}`));
  await sleep(1_000);

  const sampler = settings.diagnostics ? new PgActivitySampler(b.benchDb) : undefined;
  const cpuBefore = sampleCpu();
  sampler?.start();
  const { wallMs, results } = await runBounded(n, settings.postClients, (i) => post(`bench post ${i}`), b.aborted);
  const connections = sampler?.stop();
  const cpuAfter = sampleCpu();
  const ok = results.filter((r) => r?.ok).map((r) => (r as { value: number }).value);
  const failures = results.filter((r) => r && !r.ok) as Array<{ error: unknown }>;
  const latency = summarize(ok);

  // Let the runs it started finish, so nothing is cut off at shutdown (and to see how long the backlog takes).
  const drainStart = performance.now();
  let open = ids.length;
  const deadline = drainStart + settings.runTimeoutMs;
  while (open > 0 && performance.now() < deadline && !b.aborted()) {
    const rows = await b.benchDb.selectFrom('runs').select(['id', 'status']).where('id', 'in', ids).execute();
    open = rows.filter((r) => !TERMINAL.has(r.status)).length;
    if (open > 0) await sleep(200);
  }
  const drainMs = performance.now() - drainStart;
  const statuses = await b.benchDb
    .selectFrom('runs')
    .select(['status'])
    .where('id', 'in', ids.length ? ids : ['-'])
    .execute();
  const completedRuns = statuses.filter((r) => r.status === 'completed').length;

  const result = {
    requests: n,
    clients: settings.postClients,
    ok: ok.length,
    errors: failures.length,
    wallMs: round1(wallMs),
    requestsPerSec: round1(ok.length / (wallMs / 1000)),
    p50Ms: latency.p50Ms,
    p90Ms: latency.p90Ms,
    p99Ms: latency.p99Ms,
    maxMs: latency.maxMs,
    meanMs: latency.meanMs,
    /** After the last response: until every run those requests started was terminal in the read model. */
    drainMs: round1(drainMs),
    runsCompleted: completedRuns,
    runsStillOpen: open,
    /** Twenty requests from one client, one at a time, before the concurrent burst. */
    sequential: (({ p50Ms, p90Ms, maxMs }) => ({ requests: sequential.length, p50Ms, p90Ms, maxMs }))(summarize(sequential)),
    machineBusy: round3(cpuDelta(cpuBefore, cpuAfter).machineBusyMs / Math.max(1, cpuDelta(cpuBefore, cpuAfter).machineCapacityMs)),
    benchBusy: cpuSummary(cpuDelta(cpuBefore, cpuAfter), ok.length, b.infra).benchBusy,
    ...(connections ? { connections } : {}),
    ...(failures[0] ? { firstError: describe(failures[0].error) } : {}),
  };
  log(
    `postRuns: ${result.ok}/${n} with ${settings.postClients} clients in ${(wallMs / 1000).toFixed(2)} s = ${result.requestsPerSec} req/s; ` +
      `p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms (one client alone: p50 ${result.sequential.p50Ms} ms); ` +
      `DB connections ${JSON.stringify(connections ?? null)}; runs drained in ${(drainMs / 1000).toFixed(1)} s (${completedRuns} completed, ${open} open)`,
  );
  return result;
}

/** Bytes of payload data (inputs, results, markers, search attributes) anywhere in a decoded history. */
function payloadBytes(value: unknown, seen = new Set<unknown>()): number {
  if (value instanceof Uint8Array) return value.byteLength;
  if (!value || typeof value !== 'object' || seen.has(value)) return 0;
  seen.add(value);
  let total = 0;
  for (const v of Object.values(value)) total += payloadBytes(v, seen);
  return total;
}

/** Temporal history events of one workflow, by kind (e.g. activityTaskScheduled: 3), and its payload bytes. */
async function historyShape(client: Client, workflowId: string): Promise<Record<string, number>> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const counts: Record<string, number> = { total: history.events?.length ?? 0, payloadBytes: payloadBytes(history) };
  for (const event of history.events ?? []) {
    for (const [key, value] of Object.entries(event)) {
      if (value && key.endsWith('EventAttributes')) {
        const name = key.slice(0, -'EventAttributes'.length);
        counts[name] = (counts[name] ?? 0) + 1;
      }
    }
  }
  return counts;
}

function best(phases: PhaseResult[]): PhaseResult {
  return phases.reduce((a, b) => (b.throughput > a.throughput ? b : a));
}

function brief(p: PhaseResult) {
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
          cpuMsPerRun: p.cpu.perRunMs,
          nodeThreadsMsPerRun: p.cpu.nodeThreadsPerRunMs,
          machineBusy: p.cpu.machineBusy,
          benchBusy: p.cpu.benchBusy,
        }
      : {}),
    ...(p.db ? { db: p.db } : {}),
    ...(p.firstError ? { firstError: p.firstError } : {}),
  };
}

// ------------------------------------------------------------------------------------------------- main

async function main(cleanup: Cleanup, aborted: () => boolean): Promise<Record<string, unknown>> {
  log(
    `settings ${JSON.stringify(settings)}; ${os.cpus().length} CPUs, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  Runtime.install({
    logger: new DefaultLogger('ERROR', (entry) => process.stderr.write(`[temporal ${entry.level}] ${entry.message}\n`)),
    telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'ERROR' }), forward: {} } },
    // Shutdown order is the bench's own (Cleanup): the SDK must not stop workers when a signal arrives.
    shutdownSignals: [],
  });

  log('starting the Temporal dev server and PostgreSQL; bundling the baseline workflows');
  const bundling = bundleWorkflowCode({ workflowsPath: BARE_WORKFLOWS_PATH, logger: quietBundlerLogger });
  bundling.catch(() => undefined);
  const infra = await startInfra(cleanup, log, settings.temporalStore);
  log(`Temporal at ${infra.temporalAddress}; PostgreSQL (${infra.postgres}) ready`);

  // The real stack, as `atelier dev` composes it (migrations, built-in workflows, worker, gateway), on our servers.
  const config: AtelierConfig = {
    dataDir: infra.tmpDir,
    apiPort: 0,
    apiHost: '127.0.0.1',
    temporalAddress: infra.temporalAddress,
    temporalPort: 0,
    temporalUiPort: 0,
    namespace: NAMESPACE,
    taskQueue: ATELIER_QUEUE,
    databaseUrl: infra.databaseUrl,
    embeddedPgPort: 0,
    localLatencyMs: settings.localLatencyMs,
    storageDir: `${infra.tmpDir}/storage`,
    fileSigningSecret: generateFileSigningSecret(),
    logLevel: 'silent',
  };
  log('starting the Atelier worker (bundles runWorkflow) and gateway');
  const stack = await startStack(config, { api: true, worker: true, embedded: false }, createLogger('silent'));
  cleanup.add('the Atelier stack', () => stack.stop());
  if (!stack.api) throw new Error('the stack started no gateway');

  const bareConnection = await NativeConnection.connect({ address: infra.temporalAddress });
  cleanup.add('the baseline worker connection', () => bareConnection.close());
  // The same worker options as createRunWorker.
  const bareWorker = await Worker.create({
    connection: bareConnection,
    namespace: NAMESPACE,
    taskQueue: BARE_QUEUE,
    workflowBundle: await bundling,
    activities: bareActivities,
    maxConcurrentActivityTaskExecutions: 50,
    maxConcurrentLocalActivityExecutions: 50,
    shutdownGraceTime: '10 seconds',
  });
  const bareRunning = bareWorker.run();
  cleanup.add('the baseline worker', async () => {
    if (bareWorker.getState() === 'RUNNING') bareWorker.shutdown();
    await bareRunning;
  });

  const clientConnection = await Connection.connect({ address: infra.temporalAddress });
  cleanup.add('the Temporal client connection', () => clientConnection.close());
  const client = new Client({ connection: clientConnection, namespace: NAMESPACE });

  const benchDb = connectDb({ url: infra.databaseUrl, max: 3 });
  cleanup.add('the bench database pool', () => benchDb.destroy());
  const hub = new RunEventHub(infra.databaseUrl, createLogger('silent'));
  cleanup.add('the run event listener', () => hub.close());
  const watcher = new RunWatcher(benchDb, hub);
  cleanup.add('the run watcher', async () => watcher.close());

  const apiKey = await createApiKey(stack.api.url);
  const b: Bench = { client, baseUrl: stack.api.url, apiKey, watcher, benchDb, infra, aborted };

  if (settings.warmup > 0) {
    log(`warm-up: ${settings.warmup} bare workflows and ${settings.warmup} Atelier runs (not counted)`);
    const w = Math.min(settings.warmup, settings.concurrency);
    await runBounded(settings.warmup, w, (i) =>
      client.workflow.execute('bareWorkflow', {
        taskQueue: BARE_QUEUE,
        workflowId: `bench-warmup-${randomBytes(3).toString('hex')}-${i}`,
        args: [{ i }],
      }),
    );
    const warm = await runBounded(settings.warmup, w, async (i) => {
      const res = await http(b.baseUrl, 'POST', '/v1/runs', { templateId: TEMPLATE_ID, intake: { topic: `bench warm-up ${i}` } }, apiKey);
      if (res.status !== 201) throw new Error(`POST /v1/runs: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      const settled = await watcher.wait(res.body.id as string, settings.runTimeoutMs);
      if (settled.status !== 'completed') throw new Error(`warm-up run ${res.body.id} ended ${settled.status}: ${settled.error}`);
    });
    const bad = warm.results.find((r) => !r.ok) as { error: unknown } | undefined;
    if (bad) throw new Error(`warm-up failed: ${describe(bad.error)}`);
    // Let PostgreSQL flush the warm-up's statistics before the first phase reads its counters.
    await sleep(1_500);
  }

  const rounds: Array<{ round: number; bare: PhaseResult; atelier: PhaseResult; ratio: number }> = [];
  for (let r = 1; r <= settings.rounds && !aborted(); r++) {
    // ABBA: odd rounds run the baseline first, even rounds Atelier first.
    let bare: PhaseResult;
    let atelier: PhaseResult;
    if (r % 2 === 1) {
      bare = await temporalPhase(b, `round ${r} bare`, 'bareWorkflow', settings.runs, `bare-r${r}`);
      atelier = await atelierPhase(b, `round ${r} atelier`, settings.runs, `r${r}`);
    } else {
      atelier = await atelierPhase(b, `round ${r} atelier`, settings.runs, `r${r}`);
      bare = await temporalPhase(b, `round ${r} bare`, 'bareWorkflow', settings.runs, `bare-r${r}`);
    }
    rounds.push({ round: r, bare, atelier, ratio: round3(atelier.throughput / bare.throughput) });
  }
  if (aborted()) throw new Error('interrupted');

  let diagnostics: Record<string, unknown> | undefined;
  if (settings.diagnostics && !aborted()) {
    const diagRuns = Math.max(20, Math.round(settings.runs / 5));
    // The engine's Temporal shape without Atelier's database, HTTP or step work.
    const shaped = await temporalPhase(b, 'diagnostic shaped', 'shapedWorkflow', diagRuns, 'shaped');

    // Where the main thread's CPU goes, per run, for each side (profiled phases run slower; not measurements).
    const profiledBare = await temporalPhase(b, 'diagnostic bare (profiled)', 'bareWorkflow', diagRuns, 'prof-bare', true);
    log(`bare main-thread ms per run: ${JSON.stringify(profiledBare.mainThreadMsPerRun)}`);
    const profiledAtelier = await atelierPhase(b, 'diagnostic atelier (profiled)', diagRuns, 'prof', true);
    log(`atelier main-thread ms per run: ${JSON.stringify(profiledAtelier.mainThreadMsPerRun)}`);
    log(`atelier hottest main-thread functions, ms per run: ${JSON.stringify(profiledAtelier.hotFunctionsMsPerRun)}`);

    const [anyRun] = await benchDb.selectFrom('runs').select('id').where('status', '=', 'completed').limit(1).execute();
    const tag = randomBytes(3).toString('hex');
    await client.workflow.execute('bareWorkflow', { taskQueue: BARE_QUEUE, workflowId: `bench-history-bare-${tag}`, args: [{ i: 0 }] });
    await client.workflow.execute('shapedWorkflow', {
      taskQueue: BARE_QUEUE,
      workflowId: `bench-history-shaped-${tag}`,
      args: [{ i: 0 }],
      typedSearchAttributes: [{ key: SEARCH_ATTRIBUTES.RunStatus, value: 'queued' }],
    });
    const history = {
      bare: await historyShape(client, `bench-history-bare-${tag}`),
      shaped: await historyShape(client, `bench-history-shaped-${tag}`),
      ...(anyRun ? { atelier: await historyShape(client, anyRun.id) } : {}),
    };
    log(`history events per workflow: ${JSON.stringify(history)}`);
    const bareCpu = rounds.reduce((s, r) => s + (r.bare.cpu?.perRunMs.total ?? 0), 0) / rounds.length;
    diagnostics = {
      shaped: brief(shaped),
      /** bare CPU per run / shaped CPU per run: what the engine's Temporal shape alone costs. */
      shapedCpuRatio: round3(bareCpu / (shaped.cpu?.perRunMs.total ?? Number.NaN)),
      historyEvents: history,
      mainThreadMsPerRun: { bare: profiledBare.mainThreadMsPerRun, atelier: profiledAtelier.mainThreadMsPerRun },
      hotFunctionsMsPerRun: { bare: profiledBare.hotFunctionsMsPerRun, atelier: profiledAtelier.hotFunctionsMsPerRun },
    };
  }

  const postRuns = settings.postRequests > 0 ? await postRunsPhase(b) : undefined;

  const bestBare = best(rounds.map((r) => r.bare));
  const bestAtelier = best(rounds.map((r) => r.atelier));
  const ratio = round3(bestAtelier.throughput / bestBare.throughput);
  // Less sensitive to other tenants than wall-clock throughput: on a CPU-bound box, throughput ~ 1 / CPU per run.
  const meanCpu = (phases: PhaseResult[]) => phases.reduce((s, p) => s + (p.cpu?.perRunMs.total ?? 0), 0) / phases.length;
  const cpuRatio = round3(meanCpu(rounds.map((r) => r.bare)) / meanCpu(rounds.map((r) => r.atelier)));
  return {
    bench: 'runs',
    template: TEMPLATE_ID,
    runs: settings.runs,
    concurrency: settings.concurrency,
    bare: brief(bestBare),
    atelier: brief(bestAtelier),
    ratio,
    /** bare CPU per run / Atelier CPU per run (all rounds), the throughput ratio a CPU-bound machine would show. */
    cpuRatio,
    target: 0.85,
    meetsTarget: ratio >= 0.85,
    rounds: rounds.map((r) => ({ round: r.round, ratio: r.ratio, bare: brief(r.bare), atelier: brief(r.atelier) })),
    ...(postRuns ? { postRuns } : {}),
    ...(diagnostics ? { diagnostics } : {}),
    env: {
      cpus: os.cpus().length,
      node: process.version,
      postgres: infra.postgres,
      temporalStore: settings.temporalStore,
      git: gitState(),
      localLatencyMs: settings.localLatencyMs,
      loadAvg: os.loadavg().map((l) => round1(l)),
      totalSeconds: round1((performance.now() - began) / 1000),
    },
  };
}

const quietBundlerLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => log(`bundler: ${message}`),
  error: (message: string) => log(`bundler: ${message}`),
};

const cleanup = new Cleanup(log);
let interrupted = false;
let stopping = false;
const stopAndExit = (code: number) => {
  stopping = true;
  void cleanup.run().finally(() => {
    log(`stopped after ${((performance.now() - began) / 1000).toFixed(1)} s`);
    process.exit(code);
  });
};

// Ctrl-C can arrive twice at once (from the terminal and forwarded by scripts/bootstrap.mjs): a repeat
// within two seconds is ignored, a later one forces the exit of a shutdown that hangs.
let firstSignalAt = 0;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) {
      if (Date.now() - firstSignalAt > 2_000) {
        log('forced exit');
        process.exit(130);
      }
      return;
    }
    interrupted = true;
    firstSignalAt = Date.now();
    log(`${signal}: stopping everything`);
    stopAndExit(130);
  });
}

// Work cut off by the shutdown (a client call on a closed connection) fails late; that must not end the
// process before everything is stopped. Outside a shutdown, an unexpected error stops everything too.
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (err: unknown) => {
    if (stopping) {
      log(`ignored while stopping: ${describe(err)}`);
      return;
    }
    log(`${event}: ${(err as Error)?.stack ?? describe(err)}`);
    stopAndExit(1);
  });
}

let exitCode = 0;
try {
  const result = await main(cleanup, () => interrupted);
  log('stopping');
  stopping = true;
  await cleanup.run();
  process.stdout.write(`${JSON.stringify(result)}\n`);
} catch (err) {
  exitCode = 1;
  if (!interrupted) log(`failed: ${(err as Error).stack ?? describe(err)}`);
  stopping = true;
  await cleanup.run();
}
log(`done in ${((performance.now() - began) / 1000).toFixed(1)} s`);
process.exit(interrupted ? 130 : exitCode);
