import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { loadBuiltinWorkflows } from '@atelier/catalog';
import { connectDb, migrateToLatest, startEmbeddedPostgres, syncBuiltinWorkflows } from '@atelier/db';
import type { AtelierConfig } from '../config.js';
import { DEV_SUPERVISED_VARIABLE } from './dev-stack.js';
import { fileSigningSecret } from './file-signing-secret.js';
import { COMPILED_CLI } from './paths.js';
import { MALLOC_ENV, answersReady, freePort, stopIfStartFails, waitFor } from './processes.js';
import { ensureTemporalServer, registerNamespace, setUpTemporalSchemas, startRealTemporalServer } from './real-temporal-server.js';
import { resolveSecretsKey } from './secrets-key.js';
import { SupervisedProcess } from './supervisor.js';
import { ensureTemporalCli } from './temporal-cli.js';

export interface ProductionStackOptions {
  /** Everything the stack keeps: PostgreSQL's data, Temporal's config, stored files, the generated secrets. */
  dir: string;
  /** Start from an empty `dir` (benches and smoke runs); otherwise the data of the last start is kept. */
  fresh?: boolean;
  gateways?: number;
  workers?: number;
  /** Added to every gateway's and worker's environment (after the stack's own settings). */
  env?: NodeJS.ProcessEnv;
  /** Temporal Server's and PostgreSQL's output; dropped unless given. */
  log?: (line: string) => void;
  /** Aborted, calls the start off: what has started is stopped at the next phase (or while the processes are awaited). */
  stopRequested?: AbortSignal;
}

export interface ProductionStack {
  gatewayUrls: string[];
  workerUrls: string[];
  temporalAddress: string;
  temporalVersion: string;
  temporalMetricsUrl: string;
  temporalConfigFile: string;
  databaseUrl: string;
  /** Temporal's two databases live on the same PostgreSQL server. */
  postgres: { host: string; port: number };
  processes: Array<{ name: string; process: SupervisedProcess }>;
  /** Milliseconds each phase of the start took. */
  timings: Record<string, number>;
  stop(): Promise<void>;
}

/**
 * Production's shape on one machine: the real Temporal Server (not the dev server), its persistence and its
 * visibility on PostgreSQL set up by its own schema tool, the namespace and search attributes registered
 * through the operator API, then gateways and workers as separate processes of the compiled build, the way a
 * deployment runs them. What `atelier dev` and the tests cannot show (SQL visibility's query limits, several
 * gateways and workers sharing the queue, the server's own dynamic config file) shows here.
 */
export async function startProductionStack(config: AtelierConfig, opts: ProductionStackOptions, logger: Logger): Promise<ProductionStack> {
  if (!existsSync(COMPILED_CLI)) throw new Error(`${COMPILED_CLI} is missing: build first (npm run build)`);
  const log = opts.log ?? (() => undefined);
  const timings: Record<string, number> = {};
  const timed = async <T>(phase: string, fn: () => Promise<T>): Promise<T> => {
    opts.stopRequested?.throwIfAborted();
    const started = Date.now();
    try {
      return await fn();
    } finally {
      timings[phase] = Date.now() - started;
    }
  };
  if (opts.fresh) await rm(opts.dir, { recursive: true, force: true });
  const stops: Array<() => Promise<void>> = [];
  const processes: ProductionStack['processes'] = [];
  const stop = async () => {
    await Promise.all(processes.map((p) => p.process.stop()));
    for (const s of stops.reverse()) await s().catch((err) => logger.error({ err }, 'error while stopping'));
  };
  return stopIfStartFails(stop, async () => {
    const progress = (line: string) => logger.info(line);
    const [cliPath, release] = await timed('tools', () => Promise.all([ensureTemporalCli(progress), ensureTemporalServer(progress)]));

    const pgPort = await freePort();
    const pg = await timed('postgres', () =>
      startEmbeddedPostgres({ dataDir: path.join(opts.dir, 'postgres'), port: pgPort, database: 'atelier', log }),
    );
    stops.push(() => pg.stop());
    const sql = { host: '127.0.0.1', port: pgPort, user: 'postgres', password: 'postgres' };

    await timed('temporalSchema', () => setUpTemporalSchemas(release, sql, progress));
    const temporal = await timed('temporalServer', () =>
      startRealTemporalServer({ release, pg: sql, dir: path.join(opts.dir, 'temporal'), log: (line) => log(`[temporal] ${line}`) }),
    );
    stops.push(() => temporal.stop());
    await timed('namespace', () => registerNamespace(cliPath, temporal.address, config.namespace));

    // Migrated once here, so the processes starting together find nothing left to do.
    await timed('migrate', async () => {
      const db = connectDb({ url: pg.url, max: 1 });
      try {
        await migrateToLatest(db);
        await syncBuiltinWorkflows(db, loadBuiltinWorkflows());
      } finally {
        await db.destroy();
      }
    });

    const secretsKey = await resolveSecretsKey(opts.dir, true, logger);
    const shared: NodeJS.ProcessEnv = {
      ...MALLOC_ENV,
      ...process.env,
      DATABASE_URL: pg.url,
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_NAMESPACE: config.namespace,
      ATELIER_DATA_DIR: opts.dir,
      ATELIER_STORAGE_DIR: path.join(opts.dir, 'storage'),
      // Every gateway signs file URLs any other serves, and every process opens the secrets all others sealed.
      ATELIER_FILE_SIGNING_SECRET: await fileSigningSecret({ ...config, dataDir: opts.dir }, true),
      ...(secretsKey ? { ATELIER_SECRETS_KEY: secretsKey.toString('base64') } : {}),
      ATELIER_EGRESS_ALLOW_PRIVATE: process.env.ATELIER_EGRESS_ALLOW_PRIVATE ?? 'true',
      // Five processes logging every request bury the banner; LOG_LEVEL=info brings them back.
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      // They stop when this process is gone, even after a SIGKILL, instead of holding the ports for nobody.
      [DEV_SUPERVISED_VARIABLE]: '1',
    };
    const spawnChild = (name: string, command: 'api' | 'worker', env: NodeJS.ProcessEnv) => {
      const process_ = new SupervisedProcess({
        name,
        command: process.execPath,
        args: [COMPILED_CLI, command],
        env: { ...shared, ...env, ...opts.env },
        logger,
      });
      process_.start();
      processes.push({ name, process: process_ });
    };
    const workerUrls: string[] = [];
    const gatewayUrls: string[] = [];
    for (let i = 1; i <= (opts.workers ?? 3); i++) {
      const port = await freePort();
      workerUrls.push(`http://127.0.0.1:${port}`);
      spawnChild(`worker-${i}`, 'worker', { ATELIER_WORKER_PORT: String(port) });
    }
    for (let i = 1; i <= (opts.gateways ?? 2); i++) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      gatewayUrls.push(url);
      spawnChild(`gateway-${i}`, 'api', {
        ATELIER_API_PORT: String(port),
        ATELIER_API_HOST: '127.0.0.1',
        ATELIER_PUBLIC_URL: config.publicUrl ?? url,
      });
    }
    await timed('processes', () =>
      Promise.all(
        [...workerUrls, ...gatewayUrls].map((url) =>
          waitFor(`the process at ${url}`, answersReady(url), 180_000, () => opts.stopRequested?.aborted ?? false),
        ),
      ),
    );
    return {
      gatewayUrls,
      workerUrls,
      temporalAddress: temporal.address,
      temporalVersion: release.version,
      temporalMetricsUrl: temporal.metricsUrl,
      temporalConfigFile: temporal.configFile,
      databaseUrl: pg.url,
      postgres: { host: sql.host, port: sql.port },
      processes,
      timings,
      stop,
    };
  });
}

/** What `atelier stack production` prints once every process answers /readyz. */
export function productionBanner(stack: ProductionStack, dir: string): string {
  const pids = stack.processes.map((p) => `${p.name} ${p.process.pid}`).join(', ');
  const started = Object.entries(stack.timings)
    .map(([phase, ms]) => `${phase} ${(ms / 1000).toFixed(1)} s`)
    .join(', ');
  return [
    '',
    'Atelier (production-shaped) is running.',
    ...stack.gatewayUrls.map((url, i) => `  Gateway ${i + 1}      ${url}/v1   (readiness ${url}/readyz)`),
    ...stack.workerUrls.map((url, i) => `  Worker ${i + 1}       ${url}/readyz   (metrics ${url}/metrics)`),
    `  Temporal       ${stack.temporalAddress}   (Temporal Server ${stack.temporalVersion}, no Web UI; metrics ${stack.temporalMetricsUrl})`,
    `  Temporal conf  ${stack.temporalConfigFile} (+ dynamicconfig.yaml beside it)`,
    `  PostgreSQL     ${stack.databaseUrl.replace(/:[^:@/]+@/, ':***@')}   (Temporal: databases temporal and temporal_visibility on ${stack.postgres.host}:${stack.postgres.port})`,
    `  Processes      ${pids}; restarted if they crash`,
    `  Data           ${dir}`,
    `  Start          ${started}`,
    '\nCtrl-C stops everything.',
    '',
  ].join('\n');
}
