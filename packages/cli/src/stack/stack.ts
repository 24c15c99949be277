import path from 'node:path';
import { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { ApiServer } from '@atelier/api';
import { loadBuiltinWorkflows } from '@atelier/catalog';
import { type Db, connectDb, migrateToLatest, queryTimeoutFromEnv, startEmbeddedPostgres, syncBuiltinWorkflows } from '@atelier/db';
import { buildModelRegistry } from '@atelier/domain';
import { providerLimitsFromEnv } from '@atelier/engine/providers/provider-limits';

import { type EgressPolicy, egressPolicyFromEnv } from '@atelier/egress';
import type { AtelierConfig } from '../config.js';
import { connectToTemporal, waitForPostgres } from './dependencies.js';
import { resolveFileSigning } from './file-signing-secret.js';
import { stopIfStartFails } from './processes.js';
import { resolvePublicUrl } from './public-url.js';
import { resolveSecretsKey } from './secrets-key.js';
import { ensureTemporalCli } from './temporal-cli.js';
import { ensureSearchAttributes, startTemporalDevServer } from './temporal-server.js';

export interface StackParts {
  api: boolean;
  worker: boolean;
  /** Start embedded dependencies (Temporal dev server, PostgreSQL) when no address is configured. */
  embedded: boolean;
  /** A gateway or worker that `atelier dev` started (dev-stack.ts): its dev defaults need no warning. */
  devSupervised?: boolean;
  /** The Temporal SDK's local Prometheus endpoint, appended to the worker's /metrics. */
  temporalMetricsUrl?: string;
  /** Aborted once this process is told to stop (operator-main.ts, runStack). */
  stopRequested?: AbortSignal;
}

export interface RunningStack {
  databaseUrl: string;
  temporalAddress: string;
  temporalUiUrl?: string;
  api?: ApiServer;
  db: Db;
  /** The worker's egress policy, when this process runs a worker. */
  egress?: EgressPolicy;
  stop(): Promise<void>;
}

/**
 * What a gateway and a worker serve with: the providers configured here and the object storage. Loaded when a
 * part asks (image encoding and the Cloud Storage client among it), so `atelier dev`'s own process carries neither.
 */
async function loadServing(config: AtelierConfig) {
  const [{ configuredProviders, createProviders, settingsFrom }, { storageFromConfig }] = await Promise.all([
    import('@atelier/engine/providers/index'),
    import('@atelier/storage'),
  ]);
  const providers = configuredProviders(settingsFrom(process.env));
  return {
    providers,
    // Every provider whose settings are present (providers/registry.ts); GET /v1/models lists exactly their models.
    models: buildModelRegistry(Object.keys(providers)),
    webhooks: () => createProviders(providers).webhooks,
    storage: storageFromConfig(process.env, { localDir: config.storageDir }),
  };
}

/**
 * Brings up what a process needs, in dependency order, and tears it down in reverse. `atelier dev` asks for the
 * embedded dependencies alone (its gateway and worker are processes of their own); `atelier api` and `atelier
 * worker` for one part each; the benches and tests may ask for both parts in one process.
 */
export async function startStack(config: AtelierConfig, parts: StackParts, logger: Logger): Promise<RunningStack> {
  const stops: Array<() => Promise<void>> = [];
  // Ctrl-C reaches PostgreSQL with this process, and a stopping `atelier dev` ends it: the sessions it then ends
  // belong to a stack on its way down, which is worth a line at info, not a warning. PostgreSQL may end them a
  // moment before this process hears the same Ctrl-C (nothing orders the two), so the level is chosen a second later.
  const connectionLost = (log: Logger, what: string) => (err: Error, state?: string) => {
    const report = () =>
      parts.stopRequested?.aborted
        ? log.info({ state, reason: err.message }, 'database connection ended by PostgreSQL as the stack stops')
        : log.warn({ err, state }, what);
    if (parts.stopRequested && !parts.stopRequested.aborted) setTimeout(report, 1_000).unref();
    else report();
  };
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((err) => logger.error({ err }, 'error while stopping'));
  };
  return stopIfStartFails(stopAll, async () => {
    // First, so a gateway without its secret stops before anything starts.
    const fileUrls = parts.api ? await resolveFileSigning(config, parts.embedded) : undefined;
    const publicUrl = parts.api ? resolvePublicUrl(config, parts.embedded) : undefined;
    const secretsKey = await resolveSecretsKey(config.dataDir, parts.embedded, logger);
    // Before anything starts too: a worker with malformed provider limits would otherwise run unguarded.
    const limits = parts.worker ? providerLimitsFromEnv(process.env) : undefined;
    let temporalAddress = config.temporalAddress;
    let temporalUiUrl: string | undefined;
    if (!temporalAddress) {
      if (!parts.embedded) throw new Error('TEMPORAL_ADDRESS is not set');
      const cliPath = await ensureTemporalCli((line) => logger.info(line));
      const server = await startTemporalDevServer({
        cliPath,
        dbFile: path.join(config.dataDir, 'temporal', 'temporal.db'),
        port: config.temporalPort,
        uiPort: config.temporalUiPort,
        log: (line) => logger.debug({ component: 'temporal' }, line),
      });
      stops.push(() => server.stop());
      temporalAddress = server.address;
      temporalUiUrl = server.uiUrl;
    }

    let databaseUrl = config.databaseUrl;
    if (!databaseUrl) {
      if (!parts.embedded) throw new Error('DATABASE_URL is not set');
      const pg = await startEmbeddedPostgres({
        dataDir: path.join(config.dataDir, 'postgres'),
        port: config.embeddedPgPort,
        log: (line) => logger.debug({ component: 'postgres' }, line),
      });
      stops.push(() => pg.stop());
      databaseUrl = pg.url;
    }

    let serving: ReturnType<typeof loadServing> | undefined;
    const servingHere = () => (serving ??= loadServing(config));
    // Each part has a pool of its own (ATELIER_DB_POOL_MAX connections, 10 by default), as it would in its own
    // process: under load, transactions of the worker's steps never hold the connections a request waits for.
    // Each bounds how long a statement may go unanswered (ATELIER_DB_QUERY_TIMEOUT_MS, defaults per part in
    // db/src/connect.ts): a gateway answers 503 instead of hanging while PostgreSQL does not reply.
    const timeouts = { gateway: queryTimeoutFromEnv(process.env, 'gateway'), worker: queryTimeoutFromEnv(process.env, 'worker') };
    const pool = (queryTimeoutMs?: number) => {
      const opened = connectDb({
        url: databaseUrl,
        max: Number(process.env.ATELIER_DB_POOL_MAX) || 10,
        onConnectionError: connectionLost(logger, 'database connection error; the pool replaces the connection'),
        ...(queryTimeoutMs ? { queryTimeoutMs } : {}),
      });
      stops.push(() => opened.destroy());
      return opened;
    };
    const wait = { waitMs: config.dependencyWaitMs, logger };
    const db = pool(parts.worker ? timeouts.worker : timeouts.gateway);
    await waitForPostgres(db, wait);
    // Migrations run on a connection of their own without the bound: building an index on a large table may
    // rightly take longer than any request should.
    const setup = connectDb({
      url: databaseUrl,
      max: 1,
      onConnectionError: (err, state) => logger.warn({ err, state }, 'database connection error while migrating'),
    });
    try {
      const applied = await migrateToLatest(setup);
      if (applied.length) logger.info({ applied }, 'database migrated');
      for (const collision of await syncBuiltinWorkflows(setup, loadBuiltinWorkflows()))
        logger.error(
          collision,
          `built-in workflow ${collision.id} is not installed: workspace ${collision.workspaceId} authored a workflow with that id first; ship the built-in under another id (docs/operations.md)`,
        );
    } finally {
      await setup.destroy();
    }

    // `atelier dev` fetches from this machine (its own gateway, local clip servers): private addresses are
    // allowed there unless ATELIER_EGRESS_ALLOW_PRIVATE=false. A plain `atelier worker` denies them.
    const egress = parts.worker ? egressPolicyFromEnv(process.env, parts.embedded ? { allowPrivate: true } : {}) : undefined;
    if (egress?.allowPrivate && !parts.embedded && !parts.devSupervised)
      logger.warn('ATELIER_EGRESS_ALLOW_PRIVATE=true: tools may fetch from loopback and private addresses');
    if (parts.worker) {
      // Loaded by the processes that run them only: a gateway needs no worker, a worker no API, `atelier dev` neither.
      const [
        { createRunWorker },
        { ensureReconcilerSchedule, reconcilerSettingsFromEnv },
        { startWorkerHttp },
        { createWorkerMetrics, workerMetricsRoute },
      ] = await Promise.all([
        import('@atelier/engine/worker'),
        import('@atelier/engine/reconciler'),
        import('@atelier/engine/worker-http'),
        import('@atelier/engine/metrics'),
      ]);
      const { providers, models, storage } = await servingHere();
      const connection = await connectToTemporal(temporalAddress, config.namespace, wait);
      stops.push(() => connection.close());
      const metrics = createWorkerMetrics({ db });
      // The run queue's worker and the webhook queue's (worker-slots.ts), run and shut down together.
      const worker = await createRunWorker({
        metrics,
        connection,
        namespace: config.namespace,
        taskQueue: config.taskQueue,
        db,
        logger: logger.child({ component: 'worker' }),
        providers: { ...providers, localLatencyMs: config.localLatencyMs, ...(limits ? { limits } : {}) },
        models,
        storage,
        egress,
        secretsKey,
      });
      const running = worker.run();
      stops.push(async () => {
        if (worker.getState() === 'RUNNING') worker.shutdown();
        await running;
      });
      // The reconciler's Temporal Schedule (docs/operations.md, On-call), created or brought up to date at
      // every worker start; ATELIER_RECONCILE_EVERY_MINUTES=0 leaves it alone.
      const reconciler = reconcilerSettingsFromEnv(process.env);
      if (reconciler.everyMs > 0 && worker.client) {
        await ensureReconcilerSchedule(worker.client, { taskQueue: config.taskQueue, ...reconciler }).catch((err) =>
          logger.warn({ err }, 'the reconciler schedule could not be created or updated; on-call can run `atelier runs reconcile`'),
        );
      }
      // The worker's probe port (ATELIER_WORKER_PORT; the manifests use 9464). A gateway in the same
      // process answers /readyz itself.
      const workerHttpPort = config.workerHttpPort ?? 0;
      if (workerHttpPort > 0) {
        const probes = await startWorkerHttp({
          port: workerHttpPort,
          worker,
          db,
          nondeterminism: worker.nondeterminism,
          routes: { '/metrics': workerMetricsRoute(metrics, parts.temporalMetricsUrl) },
        });
        stops.push(() => probes.close());
        logger.info({ port: probes.port }, 'worker probes at /healthz and /readyz, metrics at /metrics');
      }
    }

    let api: ApiServer | undefined;
    if (parts.api) {
      const { RunEventHub, startApiServer } = await import('@atelier/api');
      const { models, webhooks, storage } = await servingHere();
      const connection = await connectToTemporal(temporalAddress, config.namespace, wait);
      stops.push(() => connection.close());
      await ensureSearchAttributes(connection, config.namespace);
      const temporal = new Client({ connection, namespace: config.namespace });
      const eventsLogger = logger.child({ component: 'events' });
      const events = new RunEventHub(
        databaseUrl,
        eventsLogger,
        connectionLost(eventsLogger, 'run event listener lost its connection; reconnecting'),
      );
      stops.push(() => events.close());
      api = await startApiServer(
        {
          db: parts.worker ? pool(timeouts.gateway) : db,
          temporal,
          taskQueue: config.taskQueue,
          logger: logger.child({ component: 'api' }),
          models,
          storage,
          fileUrls,
          ...(publicUrl ? { publicUrl } : {}),
          ...(config.metricsToken ? { metricsToken: config.metricsToken } : {}),
          secretsKey,
          events,
          orderConcurrency: config.orderConcurrency,
          // Completion webhooks of job-running providers, verified by each provider's own scheme.
          providerWebhooks: webhooks(),
          // The gateway fetches caller-named URLs too (brand font capture), under the same policy as the worker.
          egress: egress ?? egressPolicyFromEnv(process.env, parts.embedded ? { allowPrivate: true } : {}),
        },
        config.apiPort,
        config.apiHost,
      );
      const server = api;
      stops.push(() => server.close());
    }
    return { databaseUrl, temporalAddress, temporalUiUrl, api, db, ...(egress ? { egress } : {}), stop: stopAll };
  });
}
