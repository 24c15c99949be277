import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { type Db, poolStats } from '@atelier/db';
import { builtinWorkflowIds } from '@atelier/catalog';
import { type GateType, gateTypes, settledVerdict } from '@atelier/domain/gate-types';
import { providerConnections } from './providers/http-transport.js';
import type { SettleRunInput } from './run-types.js';

/**
 * The `template` label of a run's metrics: a built-in workflow's id, or `authored` for every workflow a
 * workspace wrote. Ids that tenants choose never become label values: they would tell whoever reads the
 * metrics what other tenants build, and make the series count grow without bound.
 */
export function templateLabel(templateId: string, builtIn: boolean = builtinWorkflowIds().has(templateId)): string {
  return builtIn ? templateId : 'authored';
}

/**
 * Prometheus metrics of a worker process. Every process kind has its own Registry (never prom-client's
 * global one), so several gateways and workers in one process (tests, `atelier dev`) never collide.
 * Names are prefixed `atelier_`; docs/operations.md ("Metrics and alerts") says what each one means.
 */

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Seconds; a step is a model call, a tool or an agent loop, so the buckets reach ten minutes. */
const STEP_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

/**
 * The counters, histograms and gauges of one process's registry, each declared by its name, help and
 * labels: registered with `registry` and nowhere else.
 */
export function metricsOn(registry: Registry) {
  return {
    counter: <L extends string = string>(name: string, help: string, labelNames: readonly L[] = []) =>
      new Counter<L>({ name, help, labelNames, registers: [registry] }),
    histogram: <L extends string = string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) =>
      new Histogram<L>({ name, help, labelNames, buckets, registers: [registry] }),
    gauge: <L extends string = string>(name: string, help: string, labelNames: readonly L[] = []) =>
      new Gauge<L>({ name, help, labelNames, registers: [registry] }),
  };
}

/**
 * The process's PostgreSQL pool, read on scrape: `atelier_db_pool_connections{state}` counts connections and
 * queries now (total open, idle, waiting for a connection), so the states of one moment add up;
 * `atelier_db_pool_max_connections` is the pool's size, a setting, apart so a sum over states never counts it.
 */
export function registerPoolMetrics(registry: Registry, db: Db): void {
  new Gauge({
    name: 'atelier_db_pool_connections',
    help: 'PostgreSQL pool of this process now: connections open (total), of them idle, and queries waiting for a connection',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const stats = poolStats(db);
      if (!stats) return;
      for (const state of ['total', 'idle', 'waiting'] as const) this.set({ state }, stats[state]);
    },
  });
  new Gauge({
    name: 'atelier_db_pool_max_connections',
    help: 'Size of the PostgreSQL pool of this process (the most connections it opens)',
    registers: [registry],
    collect() {
      const stats = poolStats(db);
      if (stats) this.set(stats.max);
    },
  });
}

/**
 * The worker's connections to providers, read on scrape: `atelier_provider_connections{protocol}` open now
 * (HTTP/1.1: kept-alive sockets, idle ones included), `atelier_provider_requests_in_flight{protocol}` the calls
 * they carry (HTTP/2: streams), and `atelier_provider_http2_connections_ended_total{reason}` why HTTP/2
 * connections left the pool: `idle`, the origin's `goaway`, an unanswered `ping`, or an `error` or close.
 */
export function registerProviderConnectionMetrics(registry: Registry, read = providerConnections): void {
  const byProtocol = (name: string, help: string, count: 'connections' | 'requests') =>
    new Gauge({
      name,
      help,
      labelNames: ['protocol'],
      registers: [registry],
      collect() {
        const { open } = read();
        for (const protocol of ['h2', 'http/1.1'] as const) this.set({ protocol }, open[protocol][count]);
      },
    });
  byProtocol(
    'atelier_provider_connections',
    'Connections this worker holds open to providers, by protocol (HTTP/1.1 counts idle kept-alive sockets)',
    'connections',
  );
  byProtocol(
    'atelier_provider_requests_in_flight',
    'Provider calls this worker has sent and not yet had answered, by protocol',
    'requests',
  );
  new Counter({
    name: 'atelier_provider_http2_connections_ended_total',
    help: 'HTTP/2 provider connections this worker ended or lost, by reason (idle, goaway, ping, error)',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [reason, n] of Object.entries(read().http2Ended)) this.inc({ reason }, n);
    },
  });
}

/**
 * Node's and the process's own metrics (`process_cpu_seconds_total`, `process_resident_memory_bytes`,
 * `nodejs_eventloop_lag_seconds`, `nodejs_heap_size_used_bytes`, GC durations...), prom-client's defaults,
 * on a process's registry: the gateway's and each worker's.
 */
export function registerProcessMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
}

/**
 * How often the event-loop lag histogram samples the loop. prom-client's 10 ms woke a process 100 times a
 * second, about 0.07 ms of CPU each on these machines: 0.6% of a core for a gateway doing nothing, and a
 * share of every run's CPU under load. A lag of the size that matters (tens of milliseconds
 * and more) still shows at 100 ms.
 */
export const EVENT_LOOP_SAMPLE_MS = 100;

export interface WorkerMetrics {
  registry: Registry;
  runsSettled: Counter<'template' | 'status'>;
  stepDuration: Histogram<'kind' | 'provider' | 'model' | 'status'>;
  stepCost: Counter<'kind' | 'provider' | 'model'>;
  /** What providers charged for every answered call, calls repeated by a step's later attempts included. */
  providerSpend: Counter<'provider' | 'model'>;
  /** Answered calls whose cost is not known (no usage in the answer): recorded as unpriced, not counted in providerSpend. */
  unpricedCalls: Counter<'provider' | 'model'>;
  /** Seconds steps spent waiting within their attempt for the database or storage to come back, by dependency. */
  outageWait: Counter<'dependency'>;
  gateVerdicts: Counter<'gate_type' | 'verdict'>;
  /**
   * Seconds model calls spent waiting before going out, by provider and reason: `limit` (the fleet's
   * configured capacity, ATELIER_PROVIDER_LIMITS) or `429` (the provider said too many requests).
   */
  providerThrottled: Counter<'provider' | 'reason'>;
  providerSlotsMissed: Counter<'provider'>;
  /**
   * Webhook delivery attempts by outcome (`delivered`; `retrying`: failed, another attempt follows;
   * `failed`: the last attempt failed, the message is given up) and attempt number (1, 2, ...). Declared
   * here for the webhook delivery activity to increment: `metrics.webhookDeliveries.inc({ outcome, attempt: String(n) })`.
   */
  webhookDeliveries: Counter<'outcome' | 'attempt'>;
  /** Step attempts running detached from the worker's activity slots now (activities/detached-steps.ts). */
  detachedSteps: Gauge;
  /** Step attempts by where they ended: in their slot (within DETACH_AFTER_MS) or detached from it. */
  stepAttempts: Counter<'ended'>;
  /** Workflow tasks that failed because this worker's workflow code cannot replay the run's history (nondeterminism.ts). */
  nondeterminism: Counter<'workflow_type'>;
}

export function createWorkerMetrics(opts: { db?: Db } = {}): WorkerMetrics {
  const registry = new Registry();
  registerProcessMetrics(registry);
  if (opts.db) registerPoolMetrics(registry, opts.db);
  registerProviderConnectionMetrics(registry);
  const metric = metricsOn(registry);
  return {
    registry,
    runsSettled: metric.counter(
      'atelier_runs_settled_total',
      'Runs that reached a terminal status (completed, review, failed, cancelled), by built-in workflow (authored: any workflow a workspace wrote)',
      ['template', 'status'],
    ),
    stepDuration: metric.histogram(
      'atelier_step_duration_seconds',
      'Time a step took to settle (completed or failed), by step kind, provider and model',
      ['kind', 'provider', 'model', 'status'],
      STEP_BUCKETS,
    ),
    stepCost: metric.counter('atelier_step_cost_usd_total', 'Actual cost (USD) of settled steps, by step kind, provider and model', [
      'kind',
      'provider',
      'model',
    ]),
    providerSpend: metric.counter(
      'atelier_provider_spend_usd_total',
      'What providers charged (USD) for every answered model call, by provider and model, including calls repeated after a worker died mid-step (billed once, paid twice)',
      ['provider', 'model'],
    ),
    unpricedCalls: metric.counter(
      'atelier_provider_unpriced_calls_total',
      'Answered model calls whose cost is not known (the provider reported no usage), by provider and model: recorded in provider_calls as unpriced',
      ['provider', 'model'],
    ),
    outageWait: metric.counter(
      'atelier_step_outage_wait_seconds_total',
      'Seconds steps waited within their attempt for a dependency (database, storage) to come back, keeping what they had bought',
      ['dependency'],
    ),
    gateVerdicts: metric.counter(
      'atelier_gate_verdicts_total',
      'Gate verdicts: quality/safety as the classifier judged them, budget (fail: budget_gate_exceeded; pass: a run with a budget gate that got through), approval and qa (held: the run went to review)',
      ['gate_type', 'verdict'],
    ),
    providerThrottled: metric.counter(
      'atelier_provider_throttled_seconds_total',
      'Seconds model calls waited before going out, by provider and reason: limit (the configured fleet-wide capacity) or 429 (the provider asked to slow down)',
      ['provider', 'reason'],
    ),
    providerSlotsMissed: metric.counter(
      'atelier_provider_slots_missed_total',
      'Start slots under a rate limit that a model call woke too late to use and gave up, so as not to crowd the calls given later slots; steadily rising, the worker is short of CPU (its timers fire late) and the fleet sends below the limit',
      ['provider'],
    ),
    webhookDeliveries: metric.counter(
      'atelier_webhook_deliveries_total',
      'Webhook delivery attempts, by outcome (delivered, retrying, failed: given up after the last attempt) and attempt number',
      ['outcome', 'attempt'],
    ),
    detachedSteps: metric.gauge(
      'atelier_worker_detached_steps',
      'Step attempts running detached from the worker activity slots (asynchronous completion), waiting on providers',
    ),
    stepAttempts: metric.counter(
      'atelier_worker_step_attempts_total',
      'Step attempts by where they ended: slot (within 250 ms, reported with the activity task) or detached (reported through the client)',
      ['ended'],
    ),
    nondeterminism: metric.counter(
      'atelier_workflow_nondeterminism_total',
      'Workflow tasks this worker failed with a nondeterminism error (its workflow code cannot replay the history another release wrote), by workflow type; each retry of a stuck task counts again',
      ['workflow_type'],
    ),
  };
}

/** A settled step, completed or failed: its duration and cost. */
export function observeStep(
  metrics: WorkerMetrics | undefined,
  step: {
    kind: string;
    provider?: string | null;
    model?: string | null;
    status: 'completed' | 'failed';
    durationMs: number;
    costUsd?: number;
  },
): void {
  if (!metrics) return;
  const labels = { kind: step.kind, provider: step.provider || 'none', model: step.model || 'none' };
  metrics.stepDuration.observe({ ...labels, status: step.status }, step.durationMs / 1000);
  if (step.costUsd && step.costUsd > 0) metrics.stepCost.inc(labels, step.costUsd);
}

/**
 * A run's terminal status as settleRun wrote it, and the verdicts of the gates the workflow decided
 * (workflow code cannot reach metrics): a budget gate that stopped the run or let it through, an
 * approval gate that held it for review, the QA hold that turned a completion into a review.
 */
export function observeSettlement(
  metrics: WorkerMetrics | undefined,
  run: { template_id: string; definition: unknown },
  input: Pick<SettleRunInput, 'status' | 'errorCode' | 'review'>,
  written: string,
): void {
  if (!metrics) return;
  metrics.runsSettled.inc({ template: templateLabel(run.template_id), status: written });
  const gates = (run.definition as { gates?: Array<{ id: string; type: GateType }> } | null)?.gates ?? [];
  const reviewGate = input.review ? gates.find((g) => g.id === input.review?.gateId) : undefined;
  for (const type of gateTypes()) {
    const verdict = settledVerdict(type, {
      requested: input.status,
      written,
      errorCode: input.errorCode,
      present: gates.some((g) => g.type === type),
      holding: reviewGate?.type === type,
    });
    if (verdict) metrics.gateVerdicts.inc({ gate_type: type, verdict });
  }
  // The QA hold is no gate of the definition: a completion the settlement turned into a review.
  if (input.status === 'completed' && written === 'review') metrics.gateVerdicts.inc({ gate_type: 'qa', verdict: 'held' });
}

/**
 * The worker's /metrics route (for startWorkerHttp): its own registry, then the Temporal SDK's metrics
 * fetched from the SDK's local Prometheus endpoint when there is one, so one scrape gets both.
 */
export function workerMetricsRoute(metrics: WorkerMetrics, temporalMetricsUrl?: string) {
  return async () => {
    const own = await metrics.registry.metrics();
    const temporal = temporalMetricsUrl ? await fetchText(temporalMetricsUrl) : '';
    return { status: 200, type: PROMETHEUS_CONTENT_TYPE, body: temporal ? `${own}\n${temporal}` : own };
  };
}

async function fetchText(url: string): Promise<string> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return res.ok ? await res.text() : `# the Temporal SDK metrics endpoint answered ${res.status}\n`;
  } catch (err) {
    return `# the Temporal SDK metrics endpoint is unreachable: ${(err as Error).message.replace(/\s+/g, ' ')}\n`;
  }
}
