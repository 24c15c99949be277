import { type Kysely, sql } from 'kysely';

/**
 * Failed sign-ins counted per account (the email, lower-cased) and per client address, so that every
 * gateway of a deployment throttles guessing alike (packages/db/src/login-throttles.ts holds the rule).
 * A row is one key's standing: failures since it was last quiet for a window, when the last one came,
 * and the block it earned, if any.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE login_throttles (
      scope text NOT NULL CHECK (scope IN ('account', 'address')),
      key text NOT NULL,
      failures integer NOT NULL CHECK (failures >= 0),
      last_failure_at timestamptz NOT NULL,
      blocked_until timestamptz,
      PRIMARY KEY (scope, key)
    )`.execute(db);
  // Rows for keys quiet longer than the window are swept; by when their last failure came.
  await sql`CREATE INDEX login_throttles_last_failure ON login_throttles (last_failure_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE login_throttles`.execute(db);
}
