import { type Kysely, sql } from 'kysely';

/**
 * Provider capacity held by every worker together (packages/db/src/provider-capacity.ts). A
 * `provider_capacity` row is one limited key's rate: the earliest time its next call may start. A
 * `provider_capacity_leases` row is one of a key's concurrency permits: who holds it and until when (a
 * worker that dies without releasing loses it at `expires_at`). Rows are created as workers first use a key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE provider_capacity (
      key text PRIMARY KEY,
      next_at timestamptz NOT NULL DEFAULT '-infinity'
    )`.execute(db);
  await sql`
    CREATE TABLE provider_capacity_leases (
      key text NOT NULL,
      slot integer NOT NULL CHECK (slot >= 0),
      holder text,
      expires_at timestamptz NOT NULL DEFAULT '-infinity',
      PRIMARY KEY (key, slot)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE provider_capacity_leases`.execute(db);
  await sql`DROP TABLE provider_capacity`.execute(db);
}
