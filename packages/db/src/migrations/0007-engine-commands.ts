import { type Kysely, sql } from 'kysely';

/**
 * The outbox between the API and the engine. A request that asks the engine for something (start a run,
 * start or wake an order, cancel either) records the command in the same transaction as the record it
 * concerns, and answers; a dispatcher then hands the command to Temporal, retrying while Temporal is
 * away. Commands are idempotent by workflow id, so delivering one twice is harmless.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE engine_commands (
      id bigserial PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('start_run', 'start_order', 'cancel_run', 'cancel_order')),
      target_id text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      last_error text,
      done_at timestamptz
    );
    CREATE INDEX engine_commands_due ON engine_commands (next_attempt_at, id) WHERE done_at IS NULL;
    CREATE INDEX engine_commands_target ON engine_commands (target_id) WHERE done_at IS NULL;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE engine_commands`.execute(db);
}
