import { type Kysely, sql } from 'kysely';

/**
 * `decide_run` engine commands: a review decision, recorded with the decision, is delivered to the run's
 * execution, which (run shape 6) waits open in review to show the decided status in Temporal.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE engine_commands DROP CONSTRAINT engine_commands_kind_check;
    ALTER TABLE engine_commands ADD CONSTRAINT engine_commands_kind_check
      CHECK (kind IN ('start_run', 'start_order', 'cancel_run', 'cancel_order', 'deliver_webhook', 'decide_run'));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DELETE FROM engine_commands WHERE kind = 'decide_run';
    ALTER TABLE engine_commands DROP CONSTRAINT engine_commands_kind_check;
    ALTER TABLE engine_commands ADD CONSTRAINT engine_commands_kind_check
      CHECK (kind IN ('start_run', 'start_order', 'cancel_run', 'cancel_order', 'deliver_webhook'));
  `.execute(db);
}
