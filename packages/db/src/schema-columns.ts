/** Column types shared by every schema module (kept apart so schema modules never import each other in a cycle). */
import type { ColumnType } from 'kysely';

export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
export type Json<T = unknown> = ColumnType<T, string, string>;
export type NullableJson<T = unknown> = ColumnType<T | null, string | null | undefined, string | null>;
/** numeric columns come back from pg as strings; repositories convert them. */
export type Numeric = ColumnType<string, number | string | undefined, number | string>;

/**
 * The columns of a record the API creates idempotently (request id and fingerprint), guards with an etag and
 * archives rather than deletes: the repositories treat every such table alike.
 */
export interface ManagedRecordColumns {
  request_id: string | null;
  request_fingerprint: string | null;
  etag: string;
  created_by: string | null;
  archived_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}
