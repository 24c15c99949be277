import { json } from './route.js';
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { IDEMPOTENCY_WINDOW_HOURS, type IdempotencyKey, type IdempotentCreation, type Executor } from '@atelier/db';
import { canonicalJson, sha256Hex } from '@atelier/domain';
import { fail } from '../errors.js';

/** Printable ASCII without spaces, up to 255 characters (what a header carries safely; Stripe caps keys at 255 too). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * The request's `Idempotency-Key` with the hash of its validated body (canonical JSON, so key order and
 * whitespace do not count); undefined when the request names none, which keeps the contract's behaviour.
 */
export function idempotencyKeyOf(c: Context, body: unknown): IdempotencyKey | undefined {
  // Its form was checked with the request (IdempotencyHeaders): a malformed key never gets here.
  const key = c.req.header('idempotency-key');
  return key === undefined ? undefined : { key, hash: `sha256:${sha256Hex(canonicalJson(body))}` };
}

/** Where a resource's creations under keys are kept (idempotentCreations in @atelier/db). */
interface Creations<Row> {
  find(db: Executor, workspaceId: string, key: string): Promise<IdempotentCreation<Row> | undefined>;
  releaseExpired(db: Executor, workspaceId: string, key: string): Promise<void>;
  isTaken(err: unknown): boolean;
}

/**
 * Creates at most once per workspace and key within IDEMPOTENCY_WINDOW_HOURS: a request whose key already
 * created something with the same body gets that (`replayed`), one with another body is refused with 422
 * `idempotency_key_reused`, and of two racing requests the second waits on the key's unique index, then
 * gets what the first created. `create` must record the key with the row it inserts.
 */
export async function createdOnce<Row>(
  creations: Creations<Row>,
  db: Executor,
  workspaceId: string,
  key: IdempotencyKey,
  create: () => Promise<Row>,
): Promise<{ row: Row; replayed: boolean }> {
  const earlier = await creations.find(db, workspaceId, key.key);
  if (earlier) return replay(earlier, key);
  try {
    return { row: await create(), replayed: false };
  } catch (err) {
    if (!creations.isTaken(err)) throw err;
    const first = await creations.find(db, workspaceId, key.key);
    if (first) return replay(first, key);
    // The key is held by a creation older than the window: free it and create, once. Only this rare
    // path pays for the release, not every request under a key.
    await creations.releaseExpired(db, workspaceId, key.key);
    return { row: await create(), replayed: false };
  }
}

function replay<Row>(earlier: IdempotentCreation<Row>, key: IdempotencyKey): { row: Row; replayed: true } {
  if (earlier.hash !== key.hash) {
    throw fail.code('idempotency_key_reused', {
      key: key.key,
      message: `Idempotency-Key ${key.key} was used within the last ${IDEMPOTENCY_WINDOW_HOURS} hours with a different request body`,
    });
  }
  return { row: earlier.row, replayed: true };
}

/** The response header that tells a client its answer is the one an earlier request with the same key got. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** The request header, declared for the OpenAPI description. */
export const IdempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .regex(KEY_PATTERN, 'Idempotency-Key must be 1 to 255 printable ASCII characters without spaces')
    .optional()
    .openapi({
      description: `Makes the create safe to retry: within ${IDEMPOTENCY_WINDOW_HOURS} hours, a request with the same key and body in the same workspace gets what the first created, with ${REPLAYED_HEADER}: true; another body with the key is refused (422 idempotency_key_reused). 1 to 255 printable ASCII characters, no spaces.`,
      example: 'order-2026-11-26-0001',
    }),
});

/** The response header of a replayed answer, declared for the OpenAPI description. */
export const ReplayedHeaders = z.object({
  [REPLAYED_HEADER]: z
    .literal('true')
    .optional()
    .openapi({ description: 'Present when this answer is what an earlier request with the same Idempotency-Key created' }),
});

/** An answer that may be a replay: its schema as JSON with the replay header declared (its words are the reference's `Answer:`). */
export const replayable = <T>(schema: T) => ({ headers: ReplayedHeaders, ...json(schema) });
