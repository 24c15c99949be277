import { isStalePreparation } from './prepared-statements.js';

/**
 * The one reading of PostgreSQL's refusals. The database enforces rules of its own (constraints,
 * triggers, types), and a request that breaks one is bad input, not a server fault; a database that
 * cannot be reached is an outage the caller should retry, not a bug.
 */
export const PG = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  checkViolation: '23514',
  notNullViolation: '23502',
} as const;

export function pgErrorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export const isUniqueViolation = (err: unknown): boolean => pgErrorCode(err) === PG.uniqueViolation;

/** The constraint a PostgreSQL refusal names, when it names one. */
export function pgConstraint(err: unknown): string | undefined {
  const constraint = (err as { constraint?: unknown } | null)?.constraint;
  return typeof constraint === 'string' ? constraint : undefined;
}

// Node's socket errors and the pool's own when no connection can be made or one was cut.
const UNREACHABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);
// A server that accepts connections but does not answer (frozen, overloaded, a path dropping packets) shows
// only as timeouts: pg's query timeout, then the refusal of whatever followed on the connection that
// bounded-client.ts closed for it (a transaction's rollback).
const UNREACHABLE_MESSAGE =
  /Connection terminated|connection timeout|Client has encountered a connection error|timeout exceeded when trying to connect|the database system is (starting up|shutting down)|^Query read timeout$|^Client was closed and is not queryable$/i;

/**
 * How a database error should be answered: `input` (the data broke a rule: class 22 data exceptions and
 * class 23 integrity violations), `unavailable` (no connection, no answer within the query timeout, or the
 * server is going away: classes 08 and 57P; or a prepared statement a migration made stale, which is prepared again for the retry), or
 * undefined for anything else (a bug).
 */
export function classifyDbError(err: unknown): 'input' | 'unavailable' | undefined {
  if (isStalePreparation(err)) return 'unavailable';
  const code = pgErrorCode(err);
  // Before the SQLSTATEs: `EPIPE` (a write to a connection the server closed) has their shape too.
  if (code && UNREACHABLE_ERRNO.has(code)) return 'unavailable';
  if (code && /^[0-9A-Z]{5}$/.test(code)) {
    if (code.startsWith('22') || code.startsWith('23')) return 'input';
    if (code.startsWith('08') || code.startsWith('57P') || code === '53300') return 'unavailable';
    return undefined;
  }
  // A Unix socket's file is gone while its server is down.
  if (code === 'ENOENT' && (err as { syscall?: unknown }).syscall === 'connect') return 'unavailable';
  if (err instanceof Error && UNREACHABLE_MESSAGE.test(err.message)) return 'unavailable';
  return undefined;
}

/** Runs `write`; a PostgreSQL refusal with one of `codes` becomes `answer(err)`, anything else propagates. */
export async function refusedBy<T>(write: () => Promise<T>, codes: readonly string[], answer: (err: Error) => Error): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const code = pgErrorCode(err);
    if (code && codes.includes(code)) throw answer(err as Error);
    throw err;
  }
}
