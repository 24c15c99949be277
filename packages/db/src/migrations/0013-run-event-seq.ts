import { type Kysely, sql } from 'kysely';

/**
 * The last sequence number of each run's event log, kept on the run. An event takes its number by
 * incrementing it, and the increment's row lock orders concurrent appenders, so appending an event can be
 * one statement with the write it belongs to (a step's start or settlement) instead of a transaction
 * that locks the run first and then reads `max(seq)`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE runs ADD COLUMN event_seq integer NOT NULL DEFAULT 0;
    UPDATE runs SET event_seq = e.seq FROM (SELECT run_id, max(seq) AS seq FROM run_events GROUP BY run_id) e WHERE e.run_id = runs.id;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE runs DROP COLUMN event_seq`.execute(db);
}
