import { type Kysely, sql } from 'kysely';

/**
 * Which claim of its order's workflow moved a child from planned to pending. A claim whose activity
 * committed but whose worker died before Temporal heard of it is retried; the retry finds its children by
 * this id and hands them over again, instead of claiming others and stranding the first ones pending.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE runs ADD COLUMN order_claim text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE runs DROP COLUMN order_claim`.execute(db);
}
