import pRetry, { AbortError } from 'p-retry';
import type { Logger } from 'pino';
import type { NativeConnection } from '@temporalio/worker';
import { type Db, classifyDbError, pingDb } from '@atelier/db';

/**
 * A gateway or worker started beside its dependencies (`docker compose up`, a rollout, a node reboot) can
 * come up before PostgreSQL accepts connections or before Temporal serves its namespace. It waits for
 * each, retrying with backoff and saying so in its log, for up to ATELIER_DEPENDENCY_WAIT_SECONDS, instead
 * of exiting at once and leaving its restart to whatever runs it. What waiting cannot mend (a refused
 * password, a database that does not exist) stops it at once.
 */
export interface DependencyWait {
  /** How long to keep trying; 0 tries once. */
  waitMs: number;
  logger: Logger;
}

/** Runs `attempt` until it succeeds, fails with what `retryable` refuses, or `w.waitMs` has passed. */
export async function waitForDependency<T>(
  what: string,
  attempt: () => Promise<T>,
  retryable: (err: unknown) => boolean,
  w: DependencyWait,
): Promise<T> {
  const since = Date.now();
  let waited = false;
  try {
    const result = await pRetry(
      () =>
        attempt().catch((err) => {
          throw retryable(err) ? err : new AbortError(err);
        }),
      {
        // The retry package reads a maxRetryTime of 0 as no limit: no wait is no retry.
        ...(w.waitMs > 0 ? { forever: true, maxRetryTime: w.waitMs } : { retries: 0 }),
        minTimeout: 250,
        maxTimeout: 5_000,
        onFailedAttempt: (err) => {
          // Called for the last attempt too, which is not waited after.
          if (Date.now() - since >= w.waitMs) return;
          waited = true;
          w.logger.warn({ attempt: err.attemptNumber, error: err.message }, `waiting for ${what}`);
        },
      },
    );
    if (waited) w.logger.info({ waitedMs: Date.now() - since }, `${what} is available`);
    return result;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    const wait = waited ? ` after waiting ${Math.round((Date.now() - since) / 1000)} s (ATELIER_DEPENDENCY_WAIT_SECONDS)` : '';
    throw new Error(`${what} is not available${wait}: ${reason}`, { cause: err });
  }
}

/** Waits until `db` answers a query; only an unreachable or starting server is waited for. */
export function waitForPostgres(db: Db, w: DependencyWait): Promise<void> {
  return waitForDependency(
    'PostgreSQL',
    () => pingDb(db),
    (err) => classifyDbError(err) === 'unavailable',
    w,
  );
}

/**
 * The gateway's and the worker's connection, once Temporal serves the namespace (a new cluster's setup
 * registers it moments after the frontend answers); every failure is waited for, as a wrong address looks
 * like one not up yet. The SDK's native (Rust) client: a workflow start through it costs the gateway about a
 * third less CPU than through grpc-js, and the gRPC work leaves the event loop that answers requests
 * (docs/performance-log.md, 2026-11-27).
 */
export async function connectToTemporal(address: string, namespace: string, w: DependencyWait): Promise<NativeConnection> {
  // Loaded here, by the gateway and the worker: `atelier dev`, which only waits for PostgreSQL, never needs it.
  const { NativeConnection } = await import('@temporalio/worker');
  return waitForDependency(
    `Temporal at ${address} (namespace ${namespace})`,
    async () => {
      const connection = await NativeConnection.connect({ address });
      try {
        await connection.workflowService.describeNamespace({ namespace });
        return connection;
      } catch (err) {
        await connection.close().catch(() => undefined);
        throw err;
      }
    },
    () => true,
    w,
  );
}
