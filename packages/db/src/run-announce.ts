import { sql } from 'kysely';

/** Channel on which every run event is announced, so event streams need no polling. */
export const RUN_EVENTS_CHANNEL = 'atelier_run_events';

/**
 * The NOTIFY that wakes event streams for a run event: `<run id>:<seq>:<type>`, from the `seq` and `type`
 * the appending statement returns. The type lets a listener that waits for one kind of event (a status)
 * skip the read for the others.
 */
export const announceRunEvent = (runId: string) => sql`pg_notify(${RUN_EVENTS_CHANNEL}, ${runId}::text || ':' || seq::text || ':' || type)`;

/** A run event as its NOTIFY names it; `type` is absent from announcements made before it was added. */
export interface AnnouncedRunEvent {
  runId: string;
  seq: number;
  type?: string;
}

export function parseRunEventAnnouncement(payload: string): AnnouncedRunEvent | undefined {
  const [runId, seq, type] = payload.split(':');
  if (!runId || !seq) return undefined;
  return { runId, seq: Number(seq), ...(type ? { type } : {}) };
}
