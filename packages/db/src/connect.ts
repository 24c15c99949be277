import { Kysely, PostgresDialect, type Transaction, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { BoundedClient } from './bounded-client.js';
import { PreparingClient } from './prepared-statements.js';
import { queryTracingLog, tracingRequested } from './tracing.js';

// numeric stays a string in the row types; bigint counts (COUNT(*)) become numbers.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
// date columns (consent terms, renewals) are calendar days: keep YYYY-MM-DD rather than a local-midnight Date.
pg.types.setTypeParser(1082, (v) => v);

export type Db = Kysely<Database>;
/** Whatever a repository function runs its queries on: the pool, or the caller's open transaction. */
export type Executor = Db | Transaction<Database>;

/**
 * Whether the database answers at all: one round trip, no table read (readiness, the wait at start).
 * `timeoutMs` bounds the round trip itself, shorter than the pool's query bound: a probe that gave up must
 * not leave its ping holding a connection, or probes repeated while PostgreSQL is frozen would fill the pool.
 */
export async function pingDb(db: Db, timeoutMs?: number): Promise<void> {
  const pool = pools.get(db);
  if (pool && timeoutMs) {
    // pg reads a per-query query_timeout its types leave out; pg-pool drops a client whose query failed.
    await pool.query({ text: 'select 1', query_timeout: timeoutMs } as pg.QueryConfig);
    return;
  }
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
  /** Where connection errors are reported, once a lost connection (it is logged, never fatal). */
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
  /**
   * How long one statement may go unanswered before its caller is answered with an error the callers read
   * as `unavailable` and its connection is closed (bounded-client.ts); also the most a query waits for a
   * connection, up to CONNECT_TIMEOUT_MS. Enforced by the client, so it holds while the server cannot reply
   * at all (frozen, or a network path that drops packets). Default: none (operator commands, migrations).
   */
  queryTimeoutMs?: number;
}

/** The most a query waits for a connection: a free one from the pool, or a new one the server accepts. */
export const CONNECT_TIMEOUT_MS = 10_000;

/**
 * The default bound on one statement (ConnectOptions.queryTimeoutMs). A gateway's caller is waiting: its
 * requests answer 503 with Retry-After within about this (twice it at worst: a connection, then a query)
 * instead of hanging as long as PostgreSQL is unresponsive. A worker's statements have no caller waiting and
 * include the longer settlement and reconciler transactions, so a slow but working database is given more
 * time before a step counts it as an outage; it is still bounded so a frozen server cannot hold an activity
 * slot for ever.
 */
export const DEFAULT_QUERY_TIMEOUT_MS = { gateway: 5_000, worker: 30_000 } as const;

/** ATELIER_DB_QUERY_TIMEOUT_MS (0 turns the bound off), else the default for `role`. */
export function queryTimeoutFromEnv(env: NodeJS.ProcessEnv, role: keyof typeof DEFAULT_QUERY_TIMEOUT_MS): number {
  const raw = env.ATELIER_DB_QUERY_TIMEOUT_MS?.trim();
  if (!raw) return DEFAULT_QUERY_TIMEOUT_MS[role];
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 0) throw new Error(`ATELIER_DB_QUERY_TIMEOUT_MS must be a whole number of milliseconds, got "${raw}"`);
  return ms;
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
  queryTimeoutMs,
}: ConnectOptions): Db {
  const bounded = queryTimeoutMs !== undefined && queryTimeoutMs > 0;
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: bounded ? Math.min(queryTimeoutMs, CONNECT_TIMEOUT_MS) : CONNECT_TIMEOUT_MS,
    ...(bounded ? { query_timeout: queryTimeoutMs } : {}),
    // pg's default closes a connection idle 10 s: a burst after a lull then pays for new server processes and
    // prepares its statements again (prepared-statements.ts).
    idleTimeoutMillis: IDLE_CONNECTION_MS,
    Client: prepareStatements ? PreparingClient : BoundedClient,
  });
  // One report a lost connection, whichever listener hears it first: the server's error, then the socket's
  // end, each come as an 'error', and a client's own listener hears it idle too, as the pool's does.
  const lost = new WeakSet<pg.PoolClient>();
  const report = (client: pg.PoolClient, err: Error, state: 'idle' | 'in use') => {
    if (lost.has(client)) return;
    lost.add(client);
    onConnectionError(err, state);
  };
  const checkedOut = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => checkedOut.add(client));
  pool.on('release', (_err, client) => checkedOut.delete(client));
  // pg-pool hangs the idle client on its error: a logger would print the client whole, every field of it.
  pool.on('error', (err, client) => report(client, withoutClient(err), 'idle'));
  pool.on('connect', (client) =>
    client.on('error', (err) => {
      if (checkedOut.has(client)) report(client, err, 'in use');
    }),
  );
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

function withoutClient(err: Error): Error {
  delete (err as Error & { client?: unknown }).client;
  return err;
}
