import { type Kysely, sql } from 'kysely';

/**
 * Which claim of its order's workflow moved a child from planned to pending. A claim whose activity
 * committed but whose worker died before Temporal heard of it is retried; the retry finds its children by
 * this id and hands them over again, instead of claiming others and stranding the first ones pending.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE runs ADD COLUMN order_claim text`.execute(db);
  // Every claim looks its own children up: by index, so a claim costs the same in an order of any size.
  await sql`CREATE INDEX runs_order_claim ON runs (parent_order_id, order_claim) WHERE order_claim IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX runs_order_claim`.execute(db);
  await sql`ALTER TABLE runs DROP COLUMN order_claim`.execute(db);
}
