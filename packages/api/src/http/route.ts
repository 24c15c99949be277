import type { Context } from 'hono';
import { authenticate } from '../middleware/authenticate.js';
import type { AppEnv } from '../services.js';
import { guardedWrite, sendEtag } from './etag.js';

/** The parts every secured operation shares: the bearer middleware, its security requirement and its tag. */
export const secured = (tag: string) => ({ middleware: authenticate, security: [{ bearer: [] }], tags: [tag] });

/** A JSON response (or body) of `schema`. */
export const json = <T>(schema: T) => ({ content: { 'application/json': { schema } } });

/** A required JSON request body of `schema`. */
export const jsonBody = <T>(schema: T) => ({ ...json(schema), required: true as const });

/**
 * The etag-guarded write of an editable record: `write` is an UPDATE … WHERE etag = expected that returns
 * no row when the etag is stale; then the answer is 409 with the record as it now stands (`current`).
 * On success the new ETag header is set and the row returned.
 */
export async function writeWithEtag<R extends { etag: string }>(
  c: Context<AppEnv>,
  write: () => Promise<R | undefined | null>,
  current: () => unknown,
): Promise<R> {
  const row = await guardedWrite(write, current);
  sendEtag(c, row.etag);
  return row;
}
