import type { Context } from 'hono';
import { randomBytes } from 'node:crypto';
import { type ApiError, fail } from '../errors.js';
import type { AppEnv } from '../services.js';

/**
 * Optimistic concurrency for editable records (clients, characters, subjects, consents).
 *
 * A record keeps its current etag in an `etag` column, replaced by a fresh random value on every write;
 * a write is `UPDATE ... WHERE id = $1 AND etag = $supplied`, so of two PATCHes carrying the same etag the
 * database lets exactly one through and the other matches no row. On the wire the etag is a quoted
 * entity tag (`"..."`) in the `ETag` header and the same string in the body's `etag` field.
 */
export const newEtag = (): string => randomBytes(12).toString('base64url');

/** The wire form of a stored etag. */
export const wireEtag = (stored: string): string => `"${stored}"`;

/** Accepts `"x"`, `W/"x"` or a bare `x` and returns the stored form. */
export function storedEtag(supplied: string): string {
  return supplied
    .trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1');
}

/** The etag a write must match: the body's `etag`, else `If-Match`; neither → 428 etag_required. */
export function requiredEtag(c: Context<AppEnv>, bodyEtag: string | undefined | null): string {
  const supplied = bodyEtag ?? c.req.header('if-match');
  if (!supplied?.trim()) {
    throw fail.code('etag_required', { message: 'send the etag you read, in the body (etag) or in If-Match' });
  }
  return storedEtag(supplied);
}

/** An etag sent with a write that does not require one (body `etag`, else If-Match) is still checked. */
export function optionalEtag(c: Context<AppEnv>, bodyEtag: string | undefined | null): string | undefined {
  const supplied = bodyEtag ?? c.req.header('if-match');
  return supplied ? storedEtag(supplied) : undefined;
}

/**
 * An etag the caller sent must match the row as it stands: when `expected` is given and differs, 409 with
 * `present(row)`. For the checks that compare before a write that is not itself guarded by the etag.
 */
export async function expectEtag<R extends { etag: string }>(
  expected: string | undefined,
  row: R,
  present: (row: R) => unknown,
): Promise<void> {
  if (expected !== undefined && expected !== row.etag) throw etagMismatch(await present(row));
}

/**
 * The etag-guarded write of an editable record, without the response: `write` is an UPDATE … WHERE etag =
 * expected that returns no row when the etag is stale; then 409 with the record as it now stands
 * (`current`). Services call it; the route sends the row's new etag (sendEtag, or writeWithEtag does both).
 */
export async function guardedWrite<R extends { etag: string }>(
  write: () => Promise<R | undefined | null>,
  current: () => unknown,
): Promise<R> {
  const row = await write();
  if (!row) throw etagMismatch(await current());
  return row;
}

/** The record changed since the caller read it: 409 with the record as it now stands. */
export const etagMismatch = (current: unknown): ApiError =>
  fail.code('etag_mismatch', { message: 'the record changed since you read it', current });

/** Sets the ETag header of a response carrying a record. */
export function sendEtag(c: Context<AppEnv>, stored: string): void {
  c.header('ETag', wireEtag(stored));
}
