import { type Kysely, sql } from 'kysely';

/**
 * The W3C `traceparent` of the request that recorded an engine command, so the dispatcher hands the
 * command to Temporal inside that request's trace (docs/operations.md, Traces): the run started later
 * by the outbox stays one trace with the `POST /v1/runs` that asked for it. Null when tracing was off.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE engine_commands ADD COLUMN traceparent text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE engine_commands DROP COLUMN traceparent`.execute(db);
}
