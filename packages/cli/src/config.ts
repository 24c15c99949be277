import path from 'node:path';
import { DEFAULT_ORDER_CONCURRENCY } from '@atelier/domain/priority';
import { DEFAULT_FILE_URL_TTL_SECONDS } from '@atelier/storage/file-urls';
import { PROJECT_ROOT } from './stack/paths.js';

/** Every setting comes from the environment, with defaults that run the embedded stack on one machine. */
export interface AtelierConfig {
  dataDir: string;
  apiPort: number;
  apiHost: string;
  /** Set to use an existing Temporal (production); unset starts the dev server. */
  temporalAddress?: string;
  temporalPort: number;
  temporalUiPort: number;
  namespace: string;
  taskQueue: string;
  /** Set to use an existing PostgreSQL (production); unset starts the embedded one. */
  databaseUrl?: string;
  embeddedPgPort: number;
  localLatencyMs: number;
  /** Children of one order in flight at once, for orders that do not name their own maxConcurrency. */
  orderConcurrency?: number;
  /** Local object storage (the default driver); ATELIER_STORAGE=gcs and GCS_* choose GCS (see storageFromConfig). */
  storageDir: string;
  storageDriver?: 'local' | 'gcs';
  /**
   * The HMAC key of signed file URLs (ATELIER_FILE_SIGNING_SECRET). Unset: `atelier dev` generates one
   * into `<dataDir>/file-signing-secret` and keeps it; `atelier api` refuses to start.
   */
  fileSigningSecret?: string;
  /** Lifetime of a signed file URL (ATELIER_FILE_URL_TTL_SECONDS, default 7 days). */
  fileUrlTtlSeconds?: number;
  /**
   * The origin clients reach the gateway at (ATELIER_PUBLIC_URL), for signed file URLs. Unset: `atelier dev`
   * uses the address it listens on; `atelier api` refuses to start.
   */
  publicUrl?: string;
  /** The bearer token the gateway's /metrics asks for (ATELIER_METRICS_TOKEN); unset, the API port serves no metrics. */
  metricsToken?: string;
  logLevel: string;
  /** The worker's probe (and metrics) port (ATELIER_WORKER_PORT); unset or 0 leaves it closed. */
  workerHttpPort?: number;
  /** How long a process waits at start for PostgreSQL and Temporal (ATELIER_DEPENDENCY_WAIT_SECONDS, default 120; 0 tries once). */
  dependencyWaitMs: number;
}

const int = (value: string | undefined, fallback: number, name: string): number => {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number (got "${value}")`);
  return n;
};

const storageDriver = (value: string | undefined): 'local' | 'gcs' => {
  const driver = (value || 'local').toLowerCase();
  if (driver !== 'local' && driver !== 'gcs') throw new Error(`ATELIER_STORAGE must be local or gcs (got "${value}")`);
  return driver;
};

/** The API port `atelier dev` listens on (ATELIER_API_PORT, else PORT, else 8080). */
const apiPortOf = (env: NodeJS.ProcessEnv) => int(env.ATELIER_API_PORT ?? env.PORT, 8080, 'ATELIER_API_PORT');

/**
 * The gateway URL `atelier dev` prints (its API line, without /v1): where user commands go when neither
 * --url, ATELIER_URL nor a saved login names one. An unreadable or random (0) port falls back to 8080.
 */
export function defaultApiUrl(env: NodeJS.ProcessEnv = process.env): string {
  let port = 8080;
  try {
    port = apiPortOf(env) || 8080;
  } catch {
    // a bad ATELIER_API_PORT is `atelier dev`'s to report
  }
  return `http://127.0.0.1:${port}`;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AtelierConfig {
  const temporalPort = int(env.TEMPORAL_PORT, 7233, 'TEMPORAL_PORT');
  const dataDir = path.resolve(env.ATELIER_DATA_DIR ?? path.join(PROJECT_ROOT, '.data'));
  return {
    dataDir,
    apiPort: apiPortOf(env),
    apiHost: env.ATELIER_API_HOST ?? '0.0.0.0',
    temporalAddress: env.TEMPORAL_ADDRESS || undefined,
    temporalPort,
    temporalUiPort: int(env.TEMPORAL_UI_PORT, temporalPort + 1000, 'TEMPORAL_UI_PORT'),
    namespace: env.TEMPORAL_NAMESPACE ?? 'default',
    taskQueue: env.ATELIER_TASK_QUEUE ?? 'atelier-runs',
    databaseUrl: env.DATABASE_URL || undefined,
    embeddedPgPort: int(env.ATELIER_PG_PORT, 54329, 'ATELIER_PG_PORT'),
    localLatencyMs: int(env.ATELIER_LOCAL_LATENCY_MS, 0, 'ATELIER_LOCAL_LATENCY_MS'),
    storageDir: path.resolve(env.ATELIER_STORAGE_DIR ?? path.join(dataDir, 'storage')),
    storageDriver: storageDriver(env.ATELIER_STORAGE),
    ...(env.ATELIER_FILE_SIGNING_SECRET ? { fileSigningSecret: env.ATELIER_FILE_SIGNING_SECRET } : {}),
    ...(env.ATELIER_PUBLIC_URL ? { publicUrl: env.ATELIER_PUBLIC_URL } : {}),
    ...(env.ATELIER_METRICS_TOKEN ? { metricsToken: env.ATELIER_METRICS_TOKEN } : {}),
    fileUrlTtlSeconds: int(env.ATELIER_FILE_URL_TTL_SECONDS, DEFAULT_FILE_URL_TTL_SECONDS, 'ATELIER_FILE_URL_TTL_SECONDS'),
    orderConcurrency:
      int(env.ATELIER_ORDER_CONCURRENCY, DEFAULT_ORDER_CONCURRENCY, 'ATELIER_ORDER_CONCURRENCY') || DEFAULT_ORDER_CONCURRENCY,
    logLevel: env.LOG_LEVEL ?? 'info',
    dependencyWaitMs: int(env.ATELIER_DEPENDENCY_WAIT_SECONDS, 120, 'ATELIER_DEPENDENCY_WAIT_SECONDS') * 1000,
    ...(env.ATELIER_WORKER_PORT !== undefined ? { workerHttpPort: int(env.ATELIER_WORKER_PORT, 0, 'ATELIER_WORKER_PORT') } : {}),
  };
}
