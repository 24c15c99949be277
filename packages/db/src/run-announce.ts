import { type RawBuilder, sql } from 'kysely';
import type { Executor } from './connect.js';

/** Channel on which every run event is announced, so event streams need no polling. */
export const RUN_EVENTS_CHANNEL = 'atelier_run_events';
/** Where every committed change to a table gateways keep reads of is announced, the table's name as payload (its triggers). */
export const TABLE_CHANGES_CHANNEL = 'atelier_table_changes';

/**
 * A recorded event's data travels in its announcement up to this many bytes of JSON: then an event stream
 * sends it without reading it back. NOTIFY refuses payloads of 8000 bytes or more, and the header (run id,
 * number, type, status, time) takes well under 200.
 */
export const ANNOUNCED_DATA_MAX_BYTES = 7_600;

/**
 * The NOTIFY that wakes event streams for a run event, from `runId` and the `seq`, `type`, `data` and
 * `created_at` of the appending statement's rows (the CTE `rows`): `<run id>:<seq>:<type>:<status>:<at>:<data>`, where
 * `status` is a `run.status` event's new status (empty for other types), `at` the event's `created_at` in
 * epoch milliseconds, and `data` its JSON. An event whose data is over ANNOUNCED_DATA_MAX_BYTES (a long
 * step output) is announced without the last two fields, `<run id>:<seq>:<type>:<status>`, and a stream
 * reads it from the table. A listener that waits for one kind of event skips the read for the others.
 * Announcements made before the data was added end after the type or the status; readers of those ignore
 * what follows the status.
 */
export const announceRunEvent = (runId: string | RawBuilder<unknown>, rows = 'appended') => {
  const column = (name: string) => sql.ref(`${rows}.${name}`);
  return sql`pg_notify(${RUN_EVENTS_CHANNEL}, ${runId}::text || ':' || ${column('seq')}::text || ':' || ${column('type')} || ':'
    || CASE WHEN ${column('type')} = 'run.status' THEN coalesce(${column('data')}->>'status', '') ELSE '' END
    || CASE WHEN octet_length(${column('data')}::text) <= ${sql.lit(ANNOUNCED_DATA_MAX_BYTES)}
      THEN ':' || floor(extract(epoch FROM ${column('created_at')}) * 1000)::bigint::text || ':' || ${column('data')}::text ELSE '' END)`;
};

/**
 * A run event as its NOTIFY names it; `type` is absent from announcements made before it was added, and
 * `status` (a `run.status` event's new status) from those made before that. `at` (epoch milliseconds) and
 * `data` (the event's data as JSON text, parsed only by who needs it) come with an event small enough.
 */
export interface AnnouncedRunEvent {
  runId: string;
  seq: number;
  type?: string;
  status?: string;
  at?: number;
  data?: string;
}

export function parseRunEventAnnouncement(payload: string): AnnouncedRunEvent | undefined {
  // A live delta (notifyRunDeltas) is no recorded event.
  if (payload.startsWith('{')) return undefined;
  // The first five fields hold no colon; the data, last, may.
  const fields: string[] = [];
  let from = 0;
  while (fields.length < 5) {
    const colon = payload.indexOf(':', from);
    if (colon < 0) break;
    fields.push(payload.slice(from, colon));
    from = colon + 1;
  }
  const rest = payload.slice(from);
  const [runId, seq, type, status, at] = fields.length === 5 ? fields : [...fields, rest];
  if (!runId || !seq) return undefined;
  return {
    runId,
    seq: Number(seq),
    ...(type ? { type } : {}),
    ...(status ? { status } : {}),
    ...(fields.length === 5 && at ? { at: Number(at), data: rest } : {}),
  };
}

/** The event type of a step's partial output: live only, never a row of run_events. */
export const STEP_OUTPUT_DELTA = 'step.output.delta';

/**
 * A piece of a text step's output as the model writes it (`step.output.delta`). Live only: announced on
 * RUN_EVENTS_CHANNEL with no row in run_events and no event id, so it costs the replayable history nothing
 * and a client that reconnects gets the whole output with `step.completed`. `text` pieces of one `attempt`
 * and `answer` concatenate, in `seq` order, to the answer so far; a new attempt (the step retried) or a new
 * answer (one that did not fit the step's jsonSchema was discarded) starts the text over.
 */
export interface RunOutputDelta {
  runId: string;
  stepIndex: number;
  stepId: string;
  /** The step's attempt (1 first). */
  attempt: number;
  /** The model's answer within the attempt (1 first; more when an answer did not fit the jsonSchema). */
  answer: number;
  /** 1, 2, 3... within the attempt. */
  seq: number;
  text: string;
  /** When the worker sent it (ISO 8601). */
  at: string;
}

/** A delta's text in characters at most (up to 6 bytes each in its JSON, escaped): pieces stay small. */
export const DELTA_TEXT_MAX_CHARS = 1000;
/** NOTIFY refuses payloads of 8000 bytes or more; a delta's JSON stays under this. */
export const DELTA_PAYLOAD_MAX_BYTES = 7_900;

/**
 * Announces pieces of steps' output to the event streams, with no row: one NOTIFY each, in the order given, in
 * one statement outside any transaction (on a pooled connection, so a worker holds nothing open per run). A
 * payload is the delta's JSON, which older gateways' announcement parsing matches to no run. The caller splits
 * text so each JSON stays under DELTA_PAYLOAD_MAX_BYTES (deltaTextBudget).
 */
export async function notifyRunDeltas(db: Executor, deltas: readonly RunOutputDelta[]): Promise<void> {
  if (deltas.length === 0) return;
  const payloads = deltas.map((delta) => {
    const payload = JSON.stringify(delta);
    const bytes = Buffer.byteLength(payload);
    if (bytes > DELTA_PAYLOAD_MAX_BYTES) throw new Error(`a delta of ${bytes} bytes is over NOTIFY's limit`);
    return payload;
  });
  // A function scan yields the array's elements in order, so the announcements keep it.
  await sql`SELECT pg_notify(${RUN_EVENTS_CHANNEL}, payload) FROM unnest(${payloads}::text[]) AS payload`.execute(db);
}

/**
 * How many characters of text a delta of this step may carry: DELTA_TEXT_MAX_CHARS, fewer when the rest of
 * its JSON (a long step id) leaves less room; each character counted at its worst, 6 bytes escaped.
 */
export function deltaTextBudget(delta: Omit<RunOutputDelta, 'text'>): number {
  const rest = Buffer.byteLength(JSON.stringify({ ...delta, text: '' }));
  return Math.max(0, Math.min(DELTA_TEXT_MAX_CHARS, Math.floor((DELTA_PAYLOAD_MAX_BYTES - rest) / 6)));
}

/** A delta as announced by notifyRunDeltas; undefined for any other payload. */
export function parseRunDelta(payload: string): RunOutputDelta | undefined {
  if (!payload.startsWith('{')) return undefined;
  try {
    const d = JSON.parse(payload) as Partial<RunOutputDelta>;
    if (typeof d.runId !== 'string' || typeof d.text !== 'string' || typeof d.stepIndex !== 'number') return undefined;
    return d as RunOutputDelta;
  } catch {
    return undefined;
  }
}
