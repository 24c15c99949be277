import { type Kysely, sql } from 'kysely';

/**
 * A provider call whose cost is unknown (the provider answered without usage, and its adapter could not
 * estimate it) is recorded all the same, flagged `unpriced` instead of passing for a free call: its
 * `cost_usd` is 0 and means "not known", and a report can count and find such calls.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE provider_calls ADD COLUMN unpriced boolean NOT NULL DEFAULT false`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE provider_calls DROP COLUMN unpriced`.execute(db);
}
