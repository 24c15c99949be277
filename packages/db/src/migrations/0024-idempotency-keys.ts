import { type Kysely, sql } from 'kysely';

/**
 * `Idempotency-Key` on POST /v1/runs and POST /v1/orders: the key a run or an order was created under in its
 * workspace, and the hash of the request body that created it, so a retried request finds what the first one
 * created (packages/db/src/idempotency.ts). At most one run and one order per workspace and key; a key is
 * released (set to null) once it is older than the window a caller may retry in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['runs', 'orders']) {
    await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN idempotency_key text, ADD COLUMN idempotency_hash text`.execute(db);
    await sql`CREATE UNIQUE INDEX ${sql.id(`${table}_idempotency_key`)} ON ${sql.table(table)} (workspace_id, idempotency_key)
      WHERE idempotency_key IS NOT NULL`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['runs', 'orders']) {
    await sql`ALTER TABLE ${sql.table(table)} DROP COLUMN idempotency_key, DROP COLUMN idempotency_hash`.execute(db);
  }
}
