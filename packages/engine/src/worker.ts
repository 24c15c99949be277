import { fileURLToPath } from 'node:url';
import { type NativeConnection, Worker, bundleWorkflowCode } from '@temporalio/worker';
import type { Logger } from 'pino';
import type { Db } from '@atelier/db';
import type { ModelRegistry } from '@atelier/domain';
import { type EgressPolicy, egressPolicyFromEnv } from '@atelier/egress';
import type { ObjectStorage } from '@atelier/storage';
import { createActivities } from './activities/index';
import { createOrderActivities } from './activities/orders';
import { withRetryBudget } from './activities/retry-budget';
import type { WorkerMetrics } from './metrics';
import { type ProviderOptions, createProviders } from './providers/index';
import { createReconcilerActivities } from './reconciler';
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
  /** A prebuilt bundle (tests and benchmarks build it once); otherwise the worker bundles at start. */
  workflowBundle?: { code: string };
  maxConcurrentActivities?: number;
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

/** Bundles the deterministic workflow code once; the result can be shared by several workers. */
export async function bundleRunWorkflows(): Promise<{ code: string }> {
  return bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quietBundlerLogger });
}

const quietBundlerLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
};

export async function createRunWorker(opts: RunWorkerOptions): Promise<Worker> {
  const egress = opts.egress ?? egressPolicyFromEnv(process.env);
  const activities = createActivities({
    db: opts.db,
    models: opts.models,
    storage: opts.storage,
    providers: createProviders(opts.providers),
    logger: opts.logger,
    egress: opts.egress ?? egressPolicyFromEnv(process.env),
    ...(opts.metrics ? { metrics: opts.metrics } : {}),
  });
  return Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : { workflowsPath: WORKFLOWS_PATH, bundlerOptions: {} }),
    activities: {
      ...activities,
      executeStep: withRetryBudget(activities.executeStep),
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
    maxConcurrentLocalActivityExecutions: 50,
    shutdownGraceTime: '10 seconds',
  });
}
