import { type Kysely, sql } from 'kysely';

/**
 * When a cancel of the run was asked for (the API's cancel, or its order's or parent run's). The workflow
 * learns of a cancel by signal, which may still be on its way; a run's last step settles the run in its
 * own statement only while this is unset, so a cancel asked for before that statement is never lost.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE runs ADD COLUMN cancel_requested_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE runs DROP COLUMN cancel_requested_at`.execute(db);
}
