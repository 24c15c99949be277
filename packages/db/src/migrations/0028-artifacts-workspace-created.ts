import { type Kysely, sql } from 'kysely';

/**
 * GET /v1/artifacts reads one workspace's artifacts newest first (listArtifacts: created_at, then id, both
 * descending). Without this index PostgreSQL read every artifact of every workspace and sorted them for each
 * page; with it a page is the first rows of one index range, as runs_workspace_created serves GET /v1/runs.
 * `id` is in it because the ORDER BY is, so a page stays an index scan when two artifacts share a created_at.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX artifacts_workspace_created ON artifacts (workspace_id, created_at DESC, id DESC)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX artifacts_workspace_created`.execute(db);
}
