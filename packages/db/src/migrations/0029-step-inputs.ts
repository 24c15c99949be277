import { type Kysely, sql } from 'kysely';

/**
 * `run_steps.input`: what a step was given once its templates and params were resolved against the run (its
 * rendered prompt, its tool's or function's input), kept when the step starts so a person reading a run sees
 * what went into each step beside what came out. Nullable: steps recorded before have none, and neither has a
 * step with no input of its own (a skipped step, a subWorkflow step, whose child run carries its intake).
 *
 * An input whose JSON is over 64 KB is not kept (a step may read a whole earlier report): the column stays
 * null and `input_omitted` says why, so a reader tells "too large" from "none" (db/src/run-steps.ts).
 * No backfill: what earlier steps were given was never recorded.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE run_steps ADD COLUMN input jsonb`.execute(db);
  await sql`ALTER TABLE run_steps ADD COLUMN input_omitted boolean NOT NULL DEFAULT false`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE run_steps DROP COLUMN input_omitted`.execute(db);
  await sql`ALTER TABLE run_steps DROP COLUMN input`.execute(db);
}
