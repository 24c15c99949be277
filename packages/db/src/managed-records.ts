import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Executor } from './connect.js';
import type { Database } from './schema.js';
import type { ManagedRecordColumns } from './schema-columns.js';

/**
 * The writes every editable record shares: created once per requestId (schema-columns.ts's managed records),
 * and edited only while the caller's etag is still the stored one. Kysely cannot follow a table named by a
 * type parameter, so the queries run on an untyped view of the executor; the table constraints below are
 * what make their columns certain.
 */

/** Tables whose records carry an id, an etag and updated_at. */
export type EditableTable = {
  [T in keyof Database]: Database[T] extends { id: string; etag: string; updated_at: unknown } ? T : never;
}[keyof Database];

/** Tables of records the API creates idempotently: a unique (workspace_id, request_id) where request_id is set. */
export type ManagedTable = {
  [T in keyof Database]: Database[T] extends ManagedRecordColumns & { id: string; workspace_id: string } ? T : never;
}[keyof Database];

type LooseRow = { id: string; workspace_id: string; request_id: string | null; etag: string; updated_at: Date };
const loose = (ex: Executor) => ex as unknown as Kysely<Record<string, LooseRow>>;

/**
 * Inserts `row` unless a record of its workspace already carries its requestId, and then returns that one:
 * a retry, even one racing the first request, finds the record the first wrote, and the caller compares
 * fingerprints. Any other unique refusal (a slug taken) propagates. `created` says whether this call wrote it.
 */
export async function createOnce<T extends ManagedTable>(
  ex: Executor,
  table: T,
  row: Insertable<Database[T]>,
): Promise<{ row: Selectable<Database[T]>; created: boolean }> {
  const values = row as unknown as LooseRow;
  const inserted = await loose(ex)
    .insertInto(table as string)
    .values(values)
    .onConflict((oc) => oc.columns(['workspace_id', 'request_id']).where('request_id', 'is not', null).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { row: inserted as Selectable<Database[T]>, created: true };
  const existing = await loose(ex)
    .selectFrom(table as string)
    .selectAll()
    .where('workspace_id', '=', values.workspace_id)
    .where('request_id', '=', values.request_id)
    .executeTakeFirstOrThrow();
  return { row: existing as Selectable<Database[T]>, created: false };
}

/**
 * Applies `patch` (and a new updated_at) to record `id` only while its stored etag is still `expectedEtag`;
 * with none given, unconditionally. Undefined when nothing was written: a stale etag, or no such record.
 */
export async function editRecord<T extends EditableTable>(
  ex: Executor,
  table: T,
  id: string,
  expectedEtag: string | undefined,
  patch: Updateable<Database[T]>,
): Promise<Selectable<Database[T]> | undefined> {
  let q = loose(ex)
    .updateTable(table as string)
    .set({ ...(patch as Partial<LooseRow>), updated_at: new Date() })
    .where('id', '=', id);
  if (expectedEtag !== undefined) q = q.where('etag', '=', expectedEtag);
  return (await q.returningAll().executeTakeFirst()) as Selectable<Database[T]> | undefined;
}
