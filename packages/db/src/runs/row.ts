import type { Selectable } from 'kysely';
import type { Database, RunsTable } from '../schema.js';

/**
 * A run and its steps as read from the database. Their own module, importing nothing of the package but
 * its schema, so that every module writing runs (runs.ts, run-moves.ts, engine-commands.ts,
 * event-webhooks.ts) can name them without importing another.
 */
export type RunRow = Selectable<RunsTable>;
export type RunStepRow = Selectable<Database['run_steps']>;

/** The statuses of a run not yet settled: waiting to start, waiting its turn in a queue, or running. */
export const IN_FLIGHT_RUN_STATUSES = ['pending', 'queued', 'running'] as const;
