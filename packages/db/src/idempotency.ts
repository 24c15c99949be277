import { type Selectable, sql } from 'kysely';
import type { Executor } from './connect.js';
import { isUniqueViolation, pgConstraint } from './errors.js';
import type { Database } from './schema.js';

/** How long a caller may retry a create under one `Idempotency-Key` and get what the first request created. */
export const IDEMPOTENCY_WINDOW_HOURS = 24;

/** A create request's `Idempotency-Key` and the hash of its body. */
export interface IdempotencyKey {
  key: string;
  hash: string;
}

/** What a table created under a key: the row, and the hash of the body that created it. */
export interface IdempotentCreation<Row> {
  row: Row;
  hash: string;
}

type KeyedTable = 'runs' | 'orders';

/**
 * The creations of one table (runs, orders) under `Idempotency-Key`s, each unique per workspace and key
 * (migration 0024): the live one a key names, a key released once its window has passed, and whether an
 * insert was refused because another request took the key first.
 */
export function idempotentCreations<T extends KeyedTable>(table: T) {
  const index = `${table}_idempotency_key`;
  const window = sql`now() - make_interval(hours => ${sql.lit(IDEMPOTENCY_WINDOW_HOURS)})`;
  return {
    /** What the key created in the workspace within the window, if anything. */
    async find(db: Executor, workspaceId: string, key: string): Promise<IdempotentCreation<Selectable<Database[T]>> | undefined> {
      const { rows } = await sql<Selectable<Database[T]>>`SELECT * FROM ${sql.table(table)}
        WHERE workspace_id = ${workspaceId} AND idempotency_key = ${key} AND created_at > ${window}`.execute(db);
      const row = rows[0] as (Selectable<Database[T]> & { idempotency_hash: string | null }) | undefined;
      return row ? { row, hash: row.idempotency_hash ?? '' } : undefined;
    },
    /** Frees the key from a creation older than the window, so a new request may take it. */
    async releaseExpired(db: Executor, workspaceId: string, key: string): Promise<void> {
      await sql`UPDATE ${sql.table(table)} SET idempotency_key = NULL, idempotency_hash = NULL
        WHERE workspace_id = ${workspaceId} AND idempotency_key = ${key} AND created_at <= ${window}`.execute(db);
    },
    /** Whether an insert failed because a concurrent request created under the same key first. */
    isTaken(err: unknown): boolean {
      return isUniqueViolation(err) && pgConstraint(err) === index;
    },
  };
}
