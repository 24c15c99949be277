import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { type BundleOptions, type NativeConnection, type Worker, type WorkerOptions, bundleWorkflowCode } from '@temporalio/worker';
import type { Logger } from 'pino';
import type { Db } from '@atelier/db';
import type { ModelRegistry } from '@atelier/domain';
import { type EgressPolicy, egressPolicyFromEnv } from '@atelier/egress';
import type { ObjectStorage } from '@atelier/storage';
import { withStorageSpans } from '@atelier/storage/tracing';
import { DefinitionCache, withFullStep } from './activities/definitions.js';
import { StepOutputCache, withStepOutputs } from './activities/step-outputs.js';
import { createActivities } from './activities/index.js';
import type { ProviderJobSettings } from './providers/durable-jobs.js';
import { createOrderActivities } from './activities/orders.js';
import { DetachedSteps } from './activities/detached-steps.js';
import { detached, heartbeating } from './activities/step-attempt.js';
import { withRetryBudget } from './activities/retry-budget.js';
import type { WorkerMetrics } from './metrics.js';
import { NondeterminismWatch, createWatchedWorker } from './nondeterminism.js';
import { type ProviderOptions, createProviders } from './providers/index.js';
import { createReconcilerActivities } from './reconciler.js';
import { ExpressionEvaluator } from './steps/code-expression.js';
import { TRACING_WORKFLOW_MODULES, WORKER_SERVICE_NAME, startTracing } from './tracing.js';
import { createWebhookActivities, secretsKeyFromEnv, webhookTaskQueue } from './webhooks/index.js';
import { RunWorkers, type WorkerSlots, slotTuner, workerSlotsFromEnv } from './worker-slots.js';
import { processTransport } from './providers/http-transport.js';

export const DEFAULT_TASK_QUEUE = 'atelier-runs';

/**
 * A worker's heap is compacted at every full collection, not only where V8 finds a page fragmented enough. A
 * burst of steps leaves the worker's old space fragmented: each step's short-lived objects are promoted
 * during the step's first moments, beside the few that live as long as its model call, and die there. The
 * full collection that frees them left their pages committed: with 2,000 calls in flight the worker kept
 * 262 MB of heap for 153 MB alive, and 166–188 MB for 156 compacted (bench/isolation.ts). Full collections are
 * few beside the young generation's, and the benches showed no cost (docs/performance-log.md, 2026-11-29).
 */
function compactHeapOnFullCollections(): void {
  setFlagsFromString('--compact-on-every-full-gc');
}

/** Running from TypeScript sources (tsx, vitest) rather than the compiled dist/ of `npm run build`. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
export const WORKFLOWS_PATH = fileURLToPath(new URL(`./workflows/index.${FROM_SOURCE ? 'ts' : 'js'}`, import.meta.url));
/** The workflow bundle `npm run build` writes beside the compiled worker; a compiled worker loads it instead of bundling at start. */
export const PREBUILT_BUNDLE_PATHS = {
  plain: fileURLToPath(new URL('./workflow-bundle.js', import.meta.url)),
  tracing: fileURLToPath(new URL('./workflow-bundle-tracing.js', import.meta.url)),
};

export interface RunWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  db: Db;
  logger: Logger;
  providers?: ProviderOptions;
  /** The model registry this deployment offers (the same one the gateway validates against). */
  models: ModelRegistry;
  storage: ObjectStorage;
  /**
   * A prebuilt bundle (tests and benchmarks build it once); otherwise the worker bundles at start. With
   * tracing on, a bundle built without the tracing interceptors (`bundleRunWorkflows({ tracing: true })`)
   * is set aside and the worker bundles its own with them.
   */
  workflowBundle?: RunWorkflowBundle;
  /** Activity slots of the run queue's worker; ATELIER_WORKER_MAX_ACTIVITIES or 1,000 when absent (worker-slots.ts). */
  maxConcurrentActivities?: number;
  /** Step attempts run detached from the slots at once; ATELIER_WORKER_MAX_DETACHED_STEPS or 5,000 when absent, 0 for none. */
  maxDetachedSteps?: number;
  /** How long a step attempt runs in its slot before it detaches; DETACH_AFTER_MS (250 ms) when absent. */
  detachAfterMs?: number;
  /** Activity slots of the webhook queue's worker; ATELIER_WEBHOOK_MAX_ACTIVITIES or 200 when absent. */
  maxConcurrentWebhookActivities?: number;
  /** Workflow tasks the worker holds at once; ATELIER_WORKFLOW_TASK_SLOTS or 8 when absent (worker-slots.ts says why). */
  maxConcurrentWorkflowTasks?: number;
  /**
   * What tools may fetch from caller-named URLs (film-cut clips). Absent: egressPolicyFromEnv(process.env),
   * which denies loopback, private and reserved addresses unless ATELIER_EGRESS_* say otherwise.
   */
  egress?: EgressPolicy;
  /** The worker's Prometheus metrics (createWorkerMetrics); absent, nothing is counted. */
  metrics?: WorkerMetrics;
  /** The key sealing webhook signing secrets (ATELIER_SECRETS_KEY when absent); without either, webhooks cannot be signed. */
  secretsKey?: Buffer;
  /** How steps wait for provider jobs; providerJobSettingsFromEnv(process.env) when absent. */
  providerJobs?: ProviderJobSettings;
  /** Minutes a nondeterminism error keeps the worker unready; ATELIER_NONDETERMINISM_UNREADY_MINUTES or 15 when absent. */
  nondeterminismWindowMinutes?: number;
}

/**
 * ATELIER_PUBLIC_URL (where providers can reach the gateway), ATELIER_PROVIDER_JOB_CHECK_MS, and how batches
 * gather and are asked about: ATELIER_BATCH_COLLECT_MS, ATELIER_BATCH_CHECK_MS.
 */
export function providerJobSettingsFromEnv(env: NodeJS.ProcessEnv): ProviderJobSettings {
  const ms = (name: string, key: keyof ProviderJobSettings) => {
    const value = Number(env[name]);
    return Number.isFinite(value) && value > 0 ? { [key]: value } : {};
  };
  return {
    ...(env.ATELIER_PUBLIC_URL ? { webhookOrigin: env.ATELIER_PUBLIC_URL.replace(/\/+$/, '') } : {}),
    ...ms('ATELIER_PROVIDER_JOB_CHECK_MS', 'checkAfterMs'),
    ...ms('ATELIER_BATCH_COLLECT_MS', 'batchCollectMs'),
    ...ms('ATELIER_BATCH_CHECK_MS', 'batchCheckMs'),
  };
}

export type { ProviderJobSettings } from './providers/durable-jobs.js';
export { type EgressPolicy, LOOPBACK_HOSTS, egressPolicyFromEnv } from '@atelier/egress';
export { RunWorkers, type WorkerSlots, DEFAULT_WORKER_SLOTS, workerSlotsFromEnv } from './worker-slots.js';

/** Bundled workflow code; `tracing` when it includes the tracing interceptors (TRACING_WORKFLOW_MODULES). */
export interface RunWorkflowBundle {
  code: string;
  tracing?: boolean;
}

/**
 * Bundles the deterministic workflow code once; the result can be shared by several workers. `tracing`
 * bundles the OpenTelemetry workflow interceptors in (for workers started with tracing on). A compiled worker
 * loads the prebuilt bundle instead, unless `ignorePrebuilt` (the build, which writes it).
 */
export async function bundleRunWorkflows(opts: { tracing?: boolean; ignorePrebuilt?: boolean } = {}): Promise<RunWorkflowBundle> {
  const prebuilt = opts.tracing ? PREBUILT_BUNDLE_PATHS.tracing : PREBUILT_BUNDLE_PATHS.plain;
  if (!FROM_SOURCE && !opts.ignorePrebuilt && existsSync(prebuilt))
    return { code: await readFile(prebuilt, 'utf8'), ...(opts.tracing ? { tracing: true } : {}) };
  // The workflow modules hold no state of an execution's own (their module scope only defines functions,
  // activity proxies and handler names), so they are evaluated once for the whole V8 context instead of once
  // per execution: a cached run then costs only its own objects, and starting one evaluates no module.
  const common = {
    workflowsPath: WORKFLOWS_PATH,
    preloadModules: [WORKFLOWS_PATH],
    logger: quietBundlerLogger,
    webpackConfigHook: workspaceSources,
  };
  if (!opts.tracing) return bundleWorkflowCode(common);
  const { code } = await bundleWorkflowCode({ ...common, workflowInterceptorModules: [...TRACING_WORKFLOW_MODULES] });
  return { code, tracing: true };
}

/** From sources, the workflow code's imports of workspace packages resolve to their TypeScript (package.json "exports"). */
const workspaceSources = (config: WebpackConfiguration): WebpackConfiguration =>
  FROM_SOURCE ? { ...config, resolve: { ...config.resolve, conditionNames: ['atelier-source', '...'] } } : config;

type WebpackConfiguration = Parameters<NonNullable<BundleOptions['webpackConfigHook']>>[0];

const quietBundlerLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
};

/**
 * The workers of a worker process (worker-slots.ts): the run queue's, and the webhook queue's
 * (`<taskQueue>-webhooks`, webhookTaskQueue) with slots of its own, both over `connection`. Starts tracing
 * for the process when an OTLP endpoint is configured (engine/tracing.ts): then the activities are traced,
 * the workflow spans are exported through a sink, and the handle is shut down (spans flushed) when `run()`
 * returns. The threads that evaluate code steps' expressions are the workers' own and end then too.
 * Both workers report nondeterminism errors to the one watch `nondeterminism` of the result (nondeterminism.ts).
 */
export async function createRunWorker(opts: RunWorkerOptions): Promise<RunWorkers> {
  // Made first, so that a bad transport setting stops the worker before it starts anything, not at its first call.
  processTransport();
  compactHeapOnFullCollections();
  const nondeterminism = new NondeterminismWatch({
    logger: opts.logger,
    counter: opts.metrics?.nondeterminism,
    ...(opts.nondeterminismWindowMinutes !== undefined ? { windowMinutes: opts.nondeterminismWindowMinutes } : {}),
  });
  const tracing = await startTracing({ serviceName: WORKER_SERVICE_NAME });
  const expressions = new ExpressionEvaluator();
  const slots = workerSlotsFromEnv(process.env);
  const detachedSteps = new DetachedSteps(
    opts.maxDetachedSteps ?? slots.detachedSteps,
    opts.logger.child({ component: 'detached-steps' }),
    (n) => opts.metrics?.detachedSteps.set(n),
    (ended) => opts.metrics?.stepAttempts.inc({ ended }),
  );
  const stopped = () => Promise.all([expressions.close(), tracing.shutdown()]);
  try {
    const traced = tracing.enabled ? tracing.workerOptions() : undefined;
    // With tracing on, the workflow code must carry the tracing interceptors: a bundle built without them is
    // set aside and bundled again with them. Both workers share one bundle.
    const bundle =
      opts.workflowBundle && (!traced || opts.workflowBundle.tracing)
        ? opts.workflowBundle
        : await bundleRunWorkflows({ tracing: !!traced });
    const [runs, webhooks] = await Promise.all([
      createWorker(opts, slots, bundle, expressions, traced, nondeterminism, detachedSteps),
      createWebhookWorker(opts, slots, bundle, traced, nondeterminism),
    ]);
    return new RunWorkers(runs, webhooks, stopped, nondeterminism, detachedSteps);
  } catch (err) {
    await stopped();
    throw err;
  }
}

type Traced = Pick<WorkerOptions, 'interceptors' | 'sinks'> | undefined;

/**
 * The webhook queue's worker: delivery workflows started there (startWebhookDelivery) and their attempts.
 */
async function createWebhookWorker(
  opts: RunWorkerOptions,
  slots: WorkerSlots,
  bundle: RunWorkflowBundle,
  traced: Traced,
  nondeterminism: NondeterminismWatch,
): Promise<Worker> {
  return createWatchedWorker(
    {
      connection: opts.connection,
      namespace: opts.namespace,
      taskQueue: webhookTaskQueue(opts.taskQueue),
      workflowBundle: { code: bundle.code },
      ...(traced ? { interceptors: traced.interceptors, sinks: traced.sinks } : {}),
      activities: webhookActivities(opts),
      tuner: slotTuner(opts.maxConcurrentWebhookActivities ?? slots.webhookActivities),
      maxCachedWorkflows: slots.workflowCache,
      shutdownGraceTime: '10 seconds',
    },
    nondeterminism,
  );
}

const webhookActivities = (opts: RunWorkerOptions) =>
  createWebhookActivities({
    db: opts.db,
    egress: opts.egress ?? egressPolicyFromEnv(process.env),
    secretsKey: opts.secretsKey ?? secretsKeyFromEnv(process.env),
    ...(opts.metrics ? { metrics: opts.metrics } : {}),
  });

async function createWorker(
  opts: RunWorkerOptions,
  slots: WorkerSlots,
  bundle: RunWorkflowBundle,
  expressions: ExpressionEvaluator,
  traced: Traced,
  nondeterminism: NondeterminismWatch,
  detachedSteps: DetachedSteps,
): Promise<Worker> {
  // A step waits on its provider detached from its slot when the worker allows any (step-attempt.ts);
  // otherwise in its slot, heartbeating. Either way it heartbeats from its first read, so an attempt
  // waiting for the database is not taken for dead.
  const asAttempt = <I extends unknown[], O>(activity: (...input: I) => Promise<O>) =>
    detachedSteps.limit > 0 ? detached(detachedSteps, activity, opts.detachAfterMs) : heartbeating(activity);
  // The run workflow names its step by the definition's hash, and outputs it holds by reference by step id;
  // the worker's caches make both whole. One of each for both ways a step runs: a quick step reads the
  // outputs its run's other steps kept, and forgets them when it settles the run.
  const definitions = DefinitionCache.of(opts.db);
  const outputs = StepOutputCache.of(opts.db);
  const wholeStep = (execute: typeof activities.executeStep) =>
    withRetryBudget(withFullStep(definitions, withStepOutputs(outputs, execute)));
  const storage = traced ? withStorageSpans(opts.storage) : opts.storage;
  const activities = createActivities({
    db: opts.db,
    models: opts.models,
    storage,
    providers: createProviders(opts.providers, {
      db: opts.db,
      throttled: opts.metrics?.providerThrottled,
      slotsMissed: opts.metrics?.providerSlotsMissed,
    }),
    logger: opts.logger,
    expressions,
    egress: opts.egress ?? egressPolicyFromEnv(process.env),
    ...(opts.metrics ? { metrics: opts.metrics } : {}),
    providerJobs: opts.providerJobs ?? providerJobSettingsFromEnv(process.env),
  });
  // workflowFailureErrorTypes stays unset: a nondeterminism error fails the workflow task, which Temporal
  // retries, never the run, so rolling forward to the code that wrote the history lets the run carry on.
  return createWatchedWorker(
    {
      connection: opts.connection,
      namespace: opts.namespace,
      taskQueue: opts.taskQueue,
      workflowBundle: { code: bundle.code },
      ...(traced ? { interceptors: traced.interceptors, sinks: traced.sinks } : {}),
      activities: {
        ...activities,
        executeStep: asAttempt(wholeStep(activities.executeStep)),
        // A quick step's local activity runs inside a workflow task: neither detached nor heartbeating.
        executeQuickStep: wholeStep(activities.executeStep),
        prepareChildRun: withRetryBudget(activities.prepareChildRun),
        ...createOrderActivities(opts.db),
        ...createReconcilerActivities(opts.db, opts.logger.child({ component: 'reconciler' })),
      },
      tuner: slotTuner(opts.maxConcurrentActivities ?? slots.activities, opts.maxConcurrentWorkflowTasks ?? slots.workflowTasks),
      maxCachedWorkflows: slots.workflowCache,
      nonStickyToStickyPollRatio: slots.queuePollRatio,
      shutdownGraceTime: '10 seconds',
    },
    nondeterminism,
  );
}
