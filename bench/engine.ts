/**
 * `node --import tsx bench/engine.ts`: what the engine adds per step, and how fast a run's transitions
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
 * and on Ctrl-C.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode, makeTelemetryFilterString } from '@temporalio/worker';
import pino from 'pino';
import { RunEventHub, startApiServer } from '@atelier/api';
import { loadBuiltinWorkflows } from '@atelier/catalog';
import { type Db, connectDb, migrateToLatest, syncBuiltinWorkflows } from '@atelier/db';
import { LOCAL_MODELS, ModelRegistry } from '@atelier/domain';
import { bundleRunWorkflows, createRunWorker } from '@atelier/engine/worker';
import { LocalStorage } from '@atelier/storage';
import * as bareStepActivities from './bare-steps-activities';
import { type CpuDelta, cpuDelta, sampleCpu } from './cpu';
import { Cleanup, rawQuery, startInfra } from './infra';
import { type LatencySummary, percentile, round1, round3, runBounded, summarize } from './stats';

// ---------------------------------------------------------------------------------------------- settings

function intEnv(name: string, fallback: number, min = 0): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number >= ${min} (got "${raw}")`);
  return n;
}

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
  temporalStore: (process.env.BENCH_TEMPORAL_STORE ?? 'memory') as 'file' | 'memory',
};
if (!['file', 'memory'].includes(settings.temporalStore)) throw new Error('BENCH_TEMPORAL_STORE must be file or memory');

const STEPS = 10;
const NAMESPACE = 'default';
const ATELIER_QUEUE = 'bench-engine';
const BARE_QUEUE = 'bench-engine-bare';
const SSE_TEMPLATE = 'plan-research-report';
const SSE_TARGET_P99_MS = 100;
const TERMINAL = new Set(['completed', 'review', 'failed', 'cancelled', 'rejected', 'changes_requested']);
const BARE_WORKFLOWS_PATH = fileURLToPath(new URL('./bare-steps-workflows.ts', import.meta.url));

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

const began = performance.now();
const log = (message: string) =>
  process.stderr.write(`[engine-bench ${((performance.now() - began) / 1000).toFixed(1).padStart(6)}s] ${message}\n`);
const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));
const loadAvg = () => os.loadavg().map((l) => round1(l));

// ------------------------------------------------------------------------------------------------ http

async function http(
  baseUrl: string,
  method: string,
  route: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${baseUrl}${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  try {
    return { status: res.status, body: text ? JSON.parse(text) : null };
  } catch {
    return { status: res.status, body: text };
  }
}

/** A user and an API key, created through the gateway as an integrator would. */
async function createApiKey(baseUrl: string): Promise<string> {
  const email = `engine-bench-${randomBytes(5).toString('hex')}@example.com`;
  const reg = await http(baseUrl, 'POST', '/v1/auth/register', { email, password: 'benchmark password', name: 'Bench' });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
  const key = await http(baseUrl, 'POST', '/v1/api-keys', { name: 'engine bench' }, reg.body.accessToken);
  if (key.status !== 201) throw new Error(`API key failed: ${key.status} ${JSON.stringify(key.body)}`);
  return key.body.secret as string;
}

async function startRun(baseUrl: string, apiKey: string, templateId: string, intake: Record<string, unknown>): Promise<string> {
  const res = await http(baseUrl, 'POST', '/v1/runs', { templateId, intake }, apiKey);
  if (res.status !== 201) throw new Error(`POST /v1/runs: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body.id as string;
}

// ------------------------------------------------------------------------------------ read-model watch

interface Settled {
  status: string;
  error: string | null;
  /** performance.now() and Date.now() when the bench saw the terminal status. */
  at: number;
  wallAt: number;
}

/**
 * Tells when runs reach a terminal status in the read model (runs.status). A run's NOTIFY (through the
 * bench's own RunEventHub) marks it; marked runs are checked together, one query at a time, so a run's
 * twenty-odd events cost a few cheap SELECTs, not one each. A sweep every second covers a notification
 * lost with a reconnect.
 */
class Settlements {
  private readonly waiting = new Map<
    string,
    { resolve: (s: Settled) => void; reject: (e: Error) => void; timer: NodeJS.Timeout; unsubscribe?: () => void }
  >();
  private readonly marked = new Set<string>();
  private querying = false;
  private readonly sweep = setInterval(() => {
    for (const id of this.waiting.keys()) this.mark(id);
  }, 1_000);

  constructor(
    private readonly db: Db,
    private readonly hub: RunEventHub,
  ) {}

  async wait(runId: string, timeoutMs: number): Promise<Settled> {
    const settled = new Promise<Settled>((resolve, reject) => {
      const timer = setTimeout(() => this.finish(runId, new Error(`run ${runId} not terminal after ${timeoutMs} ms`)), timeoutMs);
      this.waiting.set(runId, { resolve, reject, timer });
    });
    settled.catch(() => undefined); // a failure below rejects it before the caller awaits it
    let unsubscribe: () => void;
    try {
      unsubscribe = await this.hub.subscribe(runId, () => this.mark(runId));
    } catch (err) {
      this.finish(runId, err as Error);
      throw err;
    }
    const entry = this.waiting.get(runId);
    if (entry) entry.unsubscribe = unsubscribe;
    else unsubscribe();
    this.mark(runId); // it may have settled before the subscription
    return settled;
  }

  close(): void {
    clearInterval(this.sweep);
    for (const id of [...this.waiting.keys()]) this.finish(id, new Error('stopped'));
  }

  private mark(runId: string): void {
    if (!this.waiting.has(runId)) return;
    this.marked.add(runId);
    if (this.querying) return;
    this.querying = true;
    setImmediate(() => void this.check());
  }

  private async check(): Promise<void> {
    while (this.marked.size > 0) {
      const ids = [...this.marked];
      this.marked.clear();
      try {
        const rows = await this.db.selectFrom('runs').select(['id', 'status', 'error']).where('id', 'in', ids).execute();
        const at = performance.now();
        const wallAt = Date.now();
        for (const row of rows) if (TERMINAL.has(row.status)) this.finish(row.id, { status: row.status, error: row.error, at, wallAt });
      } catch (err) {
        log(`read-model check failed (retried by the sweep): ${describe(err)}`);
      }
    }
    this.querying = false;
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
}

// --------------------------------------------------------------------------------------- per-step phases

interface Bench {
  client: Client;
  baseUrl: string;
  apiKey: string;
  db: Db;
  hub: RunEventHub;
  settlements: Settlements;
  aborted: () => boolean;
}

interface RunSample {
  id: string;
  ms: number;
  /** Atelier only: POST /v1/runs response time, and wall-clock send and observed-terminal times. */
  postMs?: number;
  sentAt?: number;
  observedAt?: number;
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
    const id = await startRun(b.baseUrl, b.apiKey, STEPS_DEFINITION.id, { title: `bench ${label} ${i}` });
    const postMs = performance.now() - t0;
    const settled = await b.settlements.wait(id, settings.runTimeoutMs);
    if (settled.status !== 'completed') throw new Error(`run ${id} ended ${settled.status}: ${settled.error}`);
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

// ------------------------------------------------------------------------------------ where time goes

const median = (values: number[]) =>
  round1(
    percentile(
      [...values].sort((a, b) => a - b),
      0.5,
    ),
  );

/**
 * The database's own timeline of each Atelier run (run_events.created_at, microseconds), as medians over
 * runs of: request sent -> run row written, written -> running (workflow start, first workflow task,
 * markRunRunning), running -> first step started, inside a step (step.started -> step.completed rows),
 * between steps (step.completed -> next step.started: activity completion, workflow task, dispatch of the
 * next activity), step-to-step cycle, last step -> settled, settled -> seen by the bench's read-model check.
 */
async function runTimeline(db: Db, samples: RunSample[]): Promise<Record<string, number>> {
  if (samples.length === 0) return {};
  const rows = await rawQuery<{ run_id: string; type: string; status: string | null; step_index: number | null; at_ms: number }>(
    db,
    `select run_id, type, data->>'status' as status, (data->>'stepIndex')::int as step_index,
            (extract(epoch from created_at) * 1000)::float8 as at_ms
       from run_events where run_id = any($1::text[]) order by run_id, seq`,
    [samples.map((s) => s.id)],
  );
  const byRun = new Map<string, typeof rows>();
  for (const r of rows) byRun.set(r.run_id, [...(byRun.get(r.run_id) ?? []), r]);
  const m: Record<string, number[]> = {
    sentToCreated: [],
    createdToRunning: [],
    runningToFirstStep: [],
    inStep: [],
    betweenSteps: [],
    stepCycle: [],
    lastStepToSettled: [],
    settledToSeen: [],
  };
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  for (const s of samples) {
    const events = byRun.get(s.id) ?? [];
    const created = events[0]?.at_ms;
    const running = events.find((e) => e.type === 'run.status' && e.status === 'running')?.at_ms;
    const settled = events.find((e) => e.type === 'run.status' && e.status !== null && TERMINAL.has(e.status))?.at_ms;
    const started = events
      .filter((e) => e.type === 'step.started')
      .sort((a, b) => a.step_index! - b.step_index!)
      .map((e) => e.at_ms);
    const completed = events
      .filter((e) => e.type === 'step.completed')
      .sort((a, b) => a.step_index! - b.step_index!)
      .map((e) => e.at_ms);
    if (created === undefined || running === undefined || settled === undefined || started.length !== STEPS || completed.length !== STEPS)
      continue;
    if (s.sentAt !== undefined) m.sentToCreated!.push(created - s.sentAt);
    m.createdToRunning!.push(running - created);
    m.runningToFirstStep!.push(started[0]! - running);
    m.inStep!.push(mean(started.map((t, k) => completed[k]! - t)));
    m.betweenSteps!.push(mean(started.slice(1).map((t, k) => t - completed[k]!)));
    m.stepCycle!.push(mean(started.slice(1).map((t, k) => t - started[k]!)));
    m.lastStepToSettled!.push(settled - completed[STEPS - 1]!);
    if (s.observedAt !== undefined) m.settledToSeen!.push(s.observedAt - settled);
  }
  return { runs: m.createdToRunning!.length, ...Object.fromEntries(Object.entries(m).map(([k, v]) => [`${k}Ms`, median(v)])) };
}

/** A protobuf Timestamp (seconds may be a Long) in epoch milliseconds. */
const tsMs = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  t ? Number(String(t.seconds ?? 0)) * 1000 + (t.nanos ?? 0) / 1e6 : Number.NaN;

/**
 * Per step, from Temporal histories (the server's clock), medians over the sampled workflows of:
 * dispatch (activity scheduled -> started on the worker), activity (started -> completed) and
 * turnaround (completed -> the next activity scheduled: a workflow task on the worker).
 */
async function temporalCycle(client: Client, workflowIds: string[]): Promise<Record<string, number>> {
  const dispatch: number[] = [];
  const activity: number[] = [];
  const turnaround: number[] = [];
  const historyEvents: number[] = [];
  for (const id of workflowIds) {
    const history = await client.workflow.getHandle(id).fetchHistory();
    const scheduled: Array<{ id: string; at: number }> = [];
    const startedAt = new Map<string, number>();
    const completedAt = new Map<string, number>();
    for (const e of history.events ?? []) {
      if (e.activityTaskScheduledEventAttributes) scheduled.push({ id: String(e.eventId), at: tsMs(e.eventTime) });
      if (e.activityTaskStartedEventAttributes)
        startedAt.set(String(e.activityTaskStartedEventAttributes.scheduledEventId), tsMs(e.eventTime));
      if (e.activityTaskCompletedEventAttributes)
        completedAt.set(String(e.activityTaskCompletedEventAttributes.scheduledEventId), tsMs(e.eventTime));
    }
    historyEvents.push(history.events?.length ?? 0);
    scheduled.forEach((s, k) => {
      const started = startedAt.get(s.id);
      const completed = completedAt.get(s.id);
      if (started !== undefined) dispatch.push(started - s.at);
      if (started !== undefined && completed !== undefined) activity.push(completed - started);
      const next = scheduled[k + 1];
      if (next && completed !== undefined) turnaround.push(next.at - completed);
    });
  }
  return {
    workflows: workflowIds.length,
    historyEvents: median(historyEvents),
    dispatchMs: median(dispatch),
    activityMs: median(activity),
    turnaroundMs: median(turnaround),
  };
}

/** Up to n ids spread evenly over the samples. */
const spread = (samples: RunSample[], n: number) =>
  samples
    .filter((_, i) => i % Math.max(1, Math.floor(samples.length / n)) === 0)
    .slice(0, n)
    .map((s) => s.id);

// ---------------------------------------------------------------------------------------------- SSE

interface StreamedEvent {
  seq: number;
  type: string;
  at: number;
  receivedAt: number;
}

/**
 * Reads one run's event stream over real HTTP until the server ends it: the snapshot's id, then every
 * event with the client's receipt time (Date.now(), the clock PostgreSQL's timestamps come from).
 */
async function readRunStream(b: Bench, runId: string): Promise<{ snapshotSeq: number; events: StreamedEvent[]; ended: boolean }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), settings.runTimeoutMs);
  const events: StreamedEvent[] = [];
  let snapshotSeq = Number.NaN;
  try {
    const res = await fetch(`${b.baseUrl}/v1/runs/${runId}/events`, {
      headers: { authorization: `Bearer ${b.apiKey}` },
      signal: controller.signal,
    });
    if (res.status !== 200 || !res.body) throw new Error(`GET /v1/runs/${runId}/events: ${res.status}`);
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return { snapshotSeq, events, ended: true };
      const receivedAt = Date.now();
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        if (block.startsWith(':')) continue; // heartbeat
        let type = 'message';
        let id: string | undefined;
        let data = '';
        for (const line of block.split('\n')) {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const fieldValue = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') type = fieldValue;
          else if (field === 'id') id = fieldValue;
          else if (field === 'data') data += data ? `\n${fieldValue}` : fieldValue;
        }
        if (type === 'snapshot') snapshotSeq = Number(id);
        else events.push({ seq: Number(id), type, at: Date.parse((JSON.parse(data) as { at: string }).at), receivedAt });
      }
    }
  } catch (err) {
    if (controller.signal.aborted) return { snapshotSeq, events, ended: false };
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

async function ssePhase(b: Bench, n: number) {
  const tag = randomBytes(3).toString('hex');
  const { results } = await runBounded(
    n,
    settings.sseConcurrency,
    async (i) => {
      const runId = await startRun(b.baseUrl, b.apiKey, SSE_TEMPLATE, { topic: `event stream ${tag} ${i}` });
      // When each of the run's NOTIFYs reached this process (the bench's own listener), in commit order.
      const notified: number[] = [];
      const subscribed = b.hub.subscribe(runId, () => notified.push(Date.now()));
      try {
        const stream = await readRunStream(b, runId);
        return { runId, notified, ...stream };
      } finally {
        (await subscribed)();
      }
    },
    b.aborted,
  );
  const streams = results
    .filter((r) => r?.ok)
    .map(
      (r) => (r as { value: { runId: string; notified: number[]; snapshotSeq: number; events: StreamedEvent[]; ended: boolean } }).value,
    );
  const failures = results.filter((r) => r && !r.ok) as Array<{ error: unknown }>;

  const ids = streams.map((s) => s.runId);
  const recordedRows = ids.length
    ? await rawQuery<{ run_id: string; seq: number; at_ms: number }>(
        b.db,
        `select run_id, seq, (extract(epoch from created_at) * 1000)::float8 as at_ms from run_events where run_id = any($1::text[]) order by run_id, seq`,
        [ids],
      )
    : [];
  const statuses = ids.length ? await b.db.selectFrom('runs').select(['id', 'status']).where('id', 'in', ids).execute() : [];

  const latency: number[] = [];
  const byType: Record<string, number[]> = {};
  const notifyLag: number[] = [];
  const delivery: number[] = [];
  let received = 0;
  let recordedAfterSnapshot = 0;
  let recordedTotal = 0;
  let lost = 0;
  let duplicated = 0;
  let outOfOrder = 0;
  let unexpected = 0;
  for (const s of streams) {
    const recorded = recordedRows.filter((r) => r.run_id === s.runId);
    recordedTotal += recorded.length;
    const expected = recorded.filter((r) => r.seq > s.snapshotSeq).map((r) => r.seq);
    recordedAfterSnapshot += expected.length;
    received += s.events.length;
    const got = s.events.map((e) => e.seq);
    const gotSet = new Set(got);
    const expectedSet = new Set(expected);
    lost += expected.filter((q) => !gotSet.has(q)).length;
    duplicated += got.length - gotSet.size;
    unexpected += got.filter((q) => !expectedSet.has(q)).length;
    outOfOrder += got.filter((q, k) => k > 0 && q <= got[k - 1]!).length;
    // The k-th from last notification belongs to the k-th from last event: one run's events commit in seq
    // order (under its row lock), and the listener subscribed after the first ones, so it misses only those.
    const notifiedAt = new Map<number, number>();
    s.notified
      .slice(-recorded.length)
      .reverse()
      .forEach((t, k) => {
        notifiedAt.set(recorded[recorded.length - 1 - k]!.seq, t);
      });
    for (const e of s.events) {
      const ms = e.receivedAt - e.at;
      latency.push(ms);
      (byType[e.type] ??= []).push(ms);
      const n = notifiedAt.get(e.seq);
      if (n !== undefined) {
        notifyLag.push(n - e.at);
        delivery.push(e.receivedAt - n);
      }
    }
  }
  const total = summarize(latency);
  const brief = (l: LatencySummary) => ({ p50Ms: l.p50Ms, p99Ms: l.p99Ms, maxMs: l.maxMs });
  const result = {
    template: SSE_TEMPLATE,
    localLatencyMs: settings.localLatencyMs,
    runs: n,
    concurrency: settings.sseConcurrency,
    streams: streams.length,
    streamsEnded: streams.filter((s) => s.ended).length,
    runsCompleted: statuses.filter((r) => r.status === 'completed').length,
    /** Events received by the clients, and recorded in run_events after each stream's snapshot: these must be equal. */
    received,
    recorded: recordedAfterSnapshot,
    lost,
    duplicated,
    unexpected,
    outOfOrder,
    /** Every event of those runs; the difference from `recorded` was already in the snapshot when the stream opened. */
    recordedTotal,
    inSnapshot: recordedTotal - recordedAfterSnapshot,
    p50Ms: total.p50Ms,
    p90Ms: total.p90Ms,
    p99Ms: total.p99Ms,
    maxMs: total.maxMs,
    targetP99Ms: SSE_TARGET_P99_MS,
    meetsTarget: total.p99Ms <= SSE_TARGET_P99_MS && lost === 0 && received === recordedAfterSnapshot,
    /** Row written -> its NOTIFY seen by a listener in this process (rest of the transaction, commit, delivery). */
    notifyLagMs: brief(summarize(notifyLag)),
    /** NOTIFY seen -> the SSE client has the event (gateway query, SSE write, HTTP, parse). */
    deliveryMs: brief(summarize(delivery)),
    byType: Object.fromEntries(Object.entries(byType).map(([k, v]) => [k, { n: v.length, ...brief(summarize(v)) }])),
    ...(failures[0] ? { failed: failures.length, firstError: describe(failures[0].error) } : {}),
  };
  log(
    `sse: ${received}/${recordedAfterSnapshot} events (lost ${lost}, duplicated ${duplicated}) over ${streams.length} streams; ` +
      `receipt - at: p50 ${total.p50Ms} ms, p99 ${total.p99Ms} ms, max ${total.maxMs} ms`,
  );
  return result;
}

// ------------------------------------------------------------------------------------------------- main

const quietBundlerLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => log(`bundler: ${message}`),
  error: (message: string) => log(`bundler: ${message}`),
};

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
  Runtime.install({
    logger: new DefaultLogger('ERROR', (entry) => process.stderr.write(`[temporal ${entry.level}] ${entry.message}\n`)),
    telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'ERROR' }), forward: {} } },
    // Shutdown order is the bench's own (Cleanup): the SDK must not stop workers when a signal arrives.
    shutdownSignals: [],
  });

  log('starting the Temporal dev server and PostgreSQL; bundling runWorkflow and the baseline');
  const bundles = Promise.all([
    bundleRunWorkflows(),
    bundleWorkflowCode({ workflowsPath: BARE_WORKFLOWS_PATH, logger: quietBundlerLogger }),
  ]);
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
  // The same worker options as createRunWorker.
  const bareWorker = await Worker.create({
    connection: workerConnection,
    namespace: NAMESPACE,
    taskQueue: BARE_QUEUE,
    workflowBundle: bareBundle,
    activities: bareStepActivities,
    maxConcurrentActivityTaskExecutions: 50,
    maxConcurrentLocalActivityExecutions: 50,
    shutdownGraceTime: '10 seconds',
  });
  for (const [name, worker] of [
    ['the Atelier worker', atelierWorker],
    ['the baseline worker', bareWorker],
  ] as const) {
    const running = worker.run();
    running.catch(() => undefined);
    cleanup.add(name, async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
    });
  }

  const clientConnection = await Connection.connect({ address: infra.temporalAddress });
  cleanup.add('the Temporal client connection', () => clientConnection.close());
  const client = new Client({ connection: clientConnection, namespace: NAMESPACE });
  const gatewayHub = new RunEventHub(infra.databaseUrl, logger);
  cleanup.add('the gateway’s run event listener', () => gatewayHub.close());
  const api = await startApiServer(
    { db: pools.api, temporal: client, taskQueue: ATELIER_QUEUE, logger, models, storage, events: gatewayHub },
    0,
    '127.0.0.1',
  );
  cleanup.add('the gateway', () => api.close());
  // The bench's own listener: read-model checks and NOTIFY timing, apart from the gateway's.
  const hub = new RunEventHub(infra.databaseUrl, logger);
  cleanup.add('the bench’s run event listener', () => hub.close());
  const settlements = new Settlements(pools.bench, hub);
  cleanup.add('the read-model watch', async () => settlements.close());

  const b: Bench = { client, baseUrl: api.url, apiKey: await createApiKey(api.url), db: pools.bench, hub, settlements, aborted };
  log(`gateway at ${api.url}`);

  if (settings.warmup > 0) {
    log(`warm-up: ${settings.warmup} bare workflows, ${settings.warmup} Atelier runs and one streamed ${SSE_TEMPLATE} run (not counted)`);
    const w = Math.min(settings.warmup, settings.concurrency);
    for (const p of [await barePhase(b, settings.warmup, w, 'warm'), await atelierPhase(b, settings.warmup, w, 'warm')]) {
      if (p.failed) throw new Error(`warm-up failed: ${p.firstError}`);
    }
    const stream = await readRunStream(b, await startRun(b.baseUrl, b.apiKey, SSE_TEMPLATE, { topic: 'warm-up' }));
    if (!stream.ended) throw new Error('the warm-up event stream did not end');
  }

  // ABBA rounds: odd rounds run the baseline first, even rounds Atelier first, so drift favours neither.
  let bare = EMPTY_PHASE;
  let atelier = EMPTY_PHASE;
  const rounds: Array<Record<string, unknown>> = [];
  for (let r = 1; r <= settings.rounds && !aborted(); r++) {
    const n = Math.floor(settings.stepRuns / settings.rounds) + (r <= settings.stepRuns % settings.rounds ? 1 : 0);
    if (n === 0) continue;
    const order = r % 2 === 1 ? (['bare', 'atelier'] as const) : (['atelier', 'bare'] as const);
    const got: Partial<Record<'bare' | 'atelier', Phase>> = {};
    for (const side of order) {
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
    atelierTimeline: await runTimeline(b.db, atelier.samples),
    atelierTimelineUnloaded: await runTimeline(b.db, unloadedAtelier.samples),
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
    sse = await ssePhase(b, settings.sseRuns);
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
      commit: gitCommit(),
      loadAvgStart: loadAtStart,
      loadAvgEnd: loadAvg(),
      totalSeconds: round1((performance.now() - began) / 1000),
    },
  };
}

function gitCommit(): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .toString()
      .trim();
  } catch {
    return undefined;
  }
}

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

// A second signal more than two seconds after the first forces the exit of a shutdown that hangs.
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

// Work cut off by the shutdown fails late and must not end the process before everything is stopped;
// outside a shutdown, an unexpected error stops everything too.
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
