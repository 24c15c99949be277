import { type Kysely, sql } from 'kysely';

/**
 * A run's `tags` and `metadata`, set when it is created (contracts/run-tags.ts) and filtered on by
 * GET /v1/runs. Defaults rather than nulls, so every run, older ones included, answers `[]` and `{}`, and a
 * filter never has to tell "none" from "unset". Tag filters are containment (`tags @> …`), which the GIN
 * index serves; metadata filters are containment too, within a workspace's runs, so they go without an
 * index until a workspace's runs are too many for that.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Constant defaults: PostgreSQL adds both columns without rewriting the table.
  await sql`ALTER TABLE runs ADD COLUMN tags text[] NOT NULL DEFAULT '{}', ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}'`.execute(db);
  await sql`CREATE INDEX runs_tags ON runs USING gin (tags)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX runs_tags`.execute(db);
  await sql`ALTER TABLE runs DROP COLUMN tags, DROP COLUMN metadata`.execute(db);
}
