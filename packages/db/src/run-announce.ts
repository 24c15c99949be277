import { sql } from 'kysely';

/** Channel on which every run event is announced, so event streams need no polling. */
export const RUN_EVENTS_CHANNEL = 'atelier_run_events';

/** The NOTIFY that wakes event streams for a run event (`seq` of the statement that appends it). */
export const announceRunEvent = (runId: string) => sql`pg_notify(${RUN_EVENTS_CHANNEL}, ${runId}::text || ':' || seq::text)`;
