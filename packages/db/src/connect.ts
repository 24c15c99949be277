import { Kysely, PostgresDialect, type Transaction, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { PreparingClient } from './prepared-statements.js';
import { queryTracingLog, tracingRequested } from './tracing.js';

// numeric stays a string in the row types; bigint counts (COUNT(*)) become numbers.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
// date columns (consent terms, renewals) are calendar days: keep YYYY-MM-DD rather than a local-midnight Date.
pg.types.setTypeParser(1082, (v) => v);

export type Db = Kysely<Database>;
/** Whatever a repository function runs its queries on: the pool, or the caller's open transaction. */
export type Executor = Db | Transaction<Database>;

/** Whether the database answers at all: one round trip, no table read (readiness, the wait at start). */
export async function pingDb(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

/**
 * Runs `work` in the caller's transaction when it is one, else in a new transaction: a writer called
 * alone is atomic, and one called inside a larger unit (a step's start, output, cost, events and NOTIFY)
 * joins it instead of committing separately.
 */
export function inTransaction<T>(ex: Executor, work: (tx: Transaction<Database>) => Promise<T>): Promise<T> {
  return ex.isTransaction ? work(ex as Transaction<Database>) : ex.transaction().execute(work);
}

export interface ConnectOptions {
  url: string;
  /** Pool size; the gateway and the worker each hold their own pool. */
  max?: number;
  /** Where connection errors are reported (a lost connection is logged, never fatal). */
  onConnectionError?: (err: Error, state: 'idle' | 'in use') => void;
  /**
   * Record queries as spans of the trace they run in (db/tracing.ts). Default: when tracing is requested
   * (an OTLP endpoint is set); otherwise kysely is built without a log hook, exactly as before.
   */
  traceQueries?: boolean;
  /**
   * Prepare statements run again and again on each connection (prepared-statements.ts). Default: on,
   * unless ATELIER_DB_PREPARED_STATEMENTS=off (a pooler in transaction mode that cannot keep them).
   */
  prepareStatements?: boolean;
}

/** How long the pool keeps an idle connection open. */
export const IDLE_CONNECTION_MS = 60_000;

const warnOnStderr = (err: Error, state: string) => console.warn(`database connection error (${state} client): ${err.message}`);

/**
 * A pool that survives the database going away: every client carries an error listener for its whole
 * life. pg-pool listens on idle clients only and takes its listener off a client while it is checked
 * out, so a server restart during a query would otherwise raise an unhandled 'error' event and kill the
 * process. The query in flight still fails (and is retried by whoever issued it); the pool replaces the
 * client.
 */
export function connectDb({
  url,
  max = 10,
  onConnectionError = warnOnStderr,
  traceQueries = tracingRequested(),
  prepareStatements = process.env.ATELIER_DB_PREPARED_STATEMENTS !== 'off',
}: ConnectOptions): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 10_000,
    // pg's default closes a connection idle 10 s: a burst after a lull then pays for new server processes and
    // prepares its statements again (prepared-statements.ts).
    idleTimeoutMillis: IDLE_CONNECTION_MS,
    ...(prepareStatements ? { Client: PreparingClient } : {}),
  });
  pool.on('error', (err) => onConnectionError(err, 'idle'));
  pool.on('connect', (client) => client.on('error', (err) => onConnectionError(err, 'in use')));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...(traceQueries ? { log: queryTracingLog } : {}) });
  pools.set(db, pool);
  return db;
}

/** The pool behind each database handle connectDb made (for poolStats). */
const pools = new WeakMap<Db, pg.Pool>();

export interface PoolStats {
  /** Connections open (idle and checked out). */
  total: number;
  idle: number;
  /** Queries waiting for a connection: the pool is exhausted while this stays above 0. */
  waiting: number;
  max: number;
}

/** How the pool behind `db` is used right now; undefined for a handle connectDb did not make. */
export function poolStats(db: Db): PoolStats | undefined {
  const pool = pools.get(db);
  return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 } : undefined;
}
