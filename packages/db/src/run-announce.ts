import { type RawBuilder, sql } from 'kysely';

/** Channel on which every run event is announced, so event streams need no polling. */
export const RUN_EVENTS_CHANNEL = 'atelier_run_events';
/** Where every committed change to a table gateways keep reads of is announced, the table's name as payload (its triggers). */
export const TABLE_CHANGES_CHANNEL = 'atelier_table_changes';

/**
 * The NOTIFY that wakes event streams for a run event: `<run id>:<seq>:<type>`, and for a status event
 * `:<status>` after it, from the `seq`, `type` and `data` the appending statement returns. A listener that
 * waits for one kind of event (a status, or a terminal one) skips the read for the others. `runId` is the
 * run's id, or the column that holds it when one statement appends events of several runs.
 */
export const announceRunEvent = (runId: string | RawBuilder<unknown>) =>
  sql`pg_notify(${RUN_EVENTS_CHANNEL}, ${runId}::text || ':' || seq::text || ':' || type
    || CASE WHEN type = 'run.status' THEN ':' || (data->>'status') ELSE '' END)`;

/**
 * A run event as its NOTIFY names it; `type` is absent from announcements made before it was added, and
 * `status` (a `run.status` event's new status) from those made before that.
 */
export interface AnnouncedRunEvent {
  runId: string;
  seq: number;
  type?: string;
  status?: string;
}

export function parseRunEventAnnouncement(payload: string): AnnouncedRunEvent | undefined {
  const [runId, seq, type, status] = payload.split(':');
  if (!runId || !seq) return undefined;
  return { runId, seq: Number(seq), ...(type ? { type } : {}), ...(status ? { status } : {}) };
}
