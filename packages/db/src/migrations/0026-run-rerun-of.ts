import { type Kysely, sql } from 'kysely';

/**
 * `rerunOf` (POST /v1/runs/{run_id}/rerun): the run a run was created again from, so a rerun is traceable to
 * its original and GET /v1/runs?rerunOf= lists an original's reruns. No foreign key: runs are never deleted,
 * and a key would make every run insert check it. Indexed (partial: most runs are no rerun) for the filter.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE runs ADD COLUMN rerun_of text`.execute(db);
  await sql`CREATE INDEX runs_rerun_of ON runs (rerun_of, created_at DESC) WHERE rerun_of IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE runs DROP COLUMN rerun_of`.execute(db);
}
