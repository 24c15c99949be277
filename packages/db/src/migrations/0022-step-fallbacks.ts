import { type Kysely, sql } from 'kysely';

/**
 * A step's fallbacks (engine/src/activities/steps/fallbacks.ts): the models of a role binding skipped before
 * the one that ran, each `{ role, model, reason, error }`, in the order tried. Null when none was, as for
 * every step recorded before bindings could list fallbacks.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE run_steps ADD COLUMN fallbacks jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE run_steps DROP COLUMN fallbacks`.execute(db);
}
