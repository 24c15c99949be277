import { fileURLToPath } from 'node:url';
import { type NativeConnection, Worker, type WorkerOptions, bundleWorkflowCode } from '@temporalio/worker';
import type { Logger } from 'pino';
import type { Db } from '@atelier/db';
import type { ModelRegistry } from '@atelier/domain';
import { type EgressPolicy, egressPolicyFromEnv } from '@atelier/egress';
import type { ObjectStorage } from '@atelier/storage';
import { withStorageSpans } from '@atelier/storage/tracing';
import { DefinitionCache, withFullStep } from './activities/definitions';
import { StepOutputCache, withStepOutputs } from './activities/step-outputs';
import { createActivities } from './activities/index';
import { createOrderActivities } from './activities/orders';
import { withRetryBudget } from './activities/retry-budget';
import type { WorkerMetrics } from './metrics';
import { type ProviderOptions, createProviders } from './providers/index';
import { createReconcilerActivities } from './reconciler';
import { ExpressionEvaluator } from './steps/code-expression';
import { TRACING_WORKFLOW_MODULES, WORKER_SERVICE_NAME, startTracing } from './tracing';
import { createWebhookActivities, secretsKeyFromEnv } from './webhooks/index';

export const DEFAULT_TASK_QUEUE = 'atelier-runs';
export const WORKFLOWS_PATH = fileURLToPath(new URL('./workflows/index.ts', import.meta.url));

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
  maxConcurrentActivities?: number;
  /** Workflow tasks the worker holds at once (ATELIER_WORKFLOW_TASK_SLOTS); WORKFLOW_TASK_SLOTS when absent. */
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
}

export { type EgressPolicy, LOOPBACK_HOSTS, egressPolicyFromEnv } from '@atelier/egress';

/**
 * Workflow tasks a worker holds at once (the SDK's default is 40). Temporal orders a task queue's backlog by
 * priority and fairness (domain/priority.ts), but a task the worker has already taken waits in the worker's
 * own first-come line: with 40 held, one workspace's burst kept another's run 4.5 s behind an idle 1.1 s on
 * two cores, with 6 held 1.0 s. Workflow tasks are short and CPU-bound, so a few slots keep a worker busy.
 */
export const WORKFLOW_TASK_SLOTS = 8;

/** Bundled workflow code; `tracing` when it includes the tracing interceptors (TRACING_WORKFLOW_MODULES). */
export interface RunWorkflowBundle {
  code: string;
  tracing?: boolean;
}

/**
 * Bundles the deterministic workflow code once; the result can be shared by several workers. `tracing`
 * bundles the OpenTelemetry workflow interceptors in (for workers started with tracing on).
 */
export async function bundleRunWorkflows(opts: { tracing?: boolean } = {}): Promise<RunWorkflowBundle> {
  if (!opts.tracing) return bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quietBundlerLogger });
  const { code } = await bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    workflowInterceptorModules: [...TRACING_WORKFLOW_MODULES],
    logger: quietBundlerLogger,
  });
  return { code, tracing: true };
}

const quietBundlerLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
};

/**
 * A run worker. Starts tracing for the process when an OTLP endpoint is configured (engine/tracing.ts):
 * then the activities are traced, the workflow spans are exported through a sink, and the handle is shut
 * down (spans flushed) when the worker's `run()` returns. The threads that evaluate code steps'
 * expressions are the worker's own and end when `run()` returns.
 */
export async function createRunWorker(opts: RunWorkerOptions): Promise<Worker> {
  const tracing = await startTracing({ serviceName: WORKER_SERVICE_NAME });
  const expressions = new ExpressionEvaluator();
  try {
    const worker = await createWorker(opts, expressions, tracing.enabled ? tracing.workerOptions() : undefined);
    const run = worker.run.bind(worker);
    worker.run = () => run().finally(() => Promise.all([expressions.close(), tracing.shutdown()]));
    return worker;
  } catch (err) {
    await Promise.all([expressions.close(), tracing.shutdown()]);
    throw err;
  }
}

async function createWorker(
  opts: RunWorkerOptions,
  expressions: ExpressionEvaluator,
  traced: Pick<WorkerOptions, 'interceptors' | 'sinks'> | undefined,
): Promise<Worker> {
  const egress = opts.egress ?? egressPolicyFromEnv(process.env);
  const storage = traced ? withStorageSpans(opts.storage) : opts.storage;
  // With tracing on, the workflow code must carry the tracing interceptors: a bundle built without them is
  // set aside and the worker bundles the workflows itself, with them.
  const bundle = opts.workflowBundle && (!traced || opts.workflowBundle.tracing) ? opts.workflowBundle : undefined;
  const activities = createActivities({
    db: opts.db,
    models: opts.models,
    storage,
    providers: createProviders(opts.providers),
    logger: opts.logger,
    expressions,
    egress: opts.egress ?? egressPolicyFromEnv(process.env),
    ...(opts.metrics ? { metrics: opts.metrics } : {}),
  });
  return Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    ...(bundle ? { workflowBundle: { code: bundle.code } } : { workflowsPath: WORKFLOWS_PATH, bundlerOptions: {} }),
    ...(traced
      ? {
          interceptors: { ...traced.interceptors, ...(bundle ? {} : { workflowModules: [...TRACING_WORKFLOW_MODULES] }) },
          sinks: traced.sinks,
        }
      : {}),
    activities: {
      ...activities,
      // The run workflow names its step by the definition's hash, and outputs it holds by reference by step
      // id; the worker's caches make both whole.
      executeStep: withRetryBudget(
        withFullStep(DefinitionCache.of(opts.db), withStepOutputs(StepOutputCache.of(opts.db), activities.executeStep)),
      ),
      prepareChildRun: withRetryBudget(activities.prepareChildRun),
      ...createOrderActivities(opts.db),
      ...createReconcilerActivities(opts.db, opts.logger.child({ component: 'reconciler' })),
      ...createWebhookActivities({
        db: opts.db,
        egress,
        secretsKey: opts.secretsKey ?? secretsKeyFromEnv(process.env),
        ...(opts.metrics ? { metrics: opts.metrics } : {}),
      }),
    },
    maxConcurrentActivityTaskExecutions: opts.maxConcurrentActivities ?? 50,
    maxConcurrentWorkflowTaskExecutions: opts.maxConcurrentWorkflowTasks ?? WORKFLOW_TASK_SLOTS,
    maxConcurrentLocalActivityExecutions: 50,
    shutdownGraceTime: '10 seconds',
  });
}
