import { type Kysely, type OrderByDirection, type OrderByExpression, type SelectQueryBuilder, sql } from 'kysely';
import { inOneSnapshot } from './one-snapshot.js';

/**
 * Paging for list endpoints, kept in one place. The contract's list endpoints take `offset` (from 0) and
 * `limit` and answer `{ items, total }`, where `total` counts every matching record, not just the page
 * (service-spec, "List endpoints"). A list that also pages by cursor passes a `seek` that keeps the rows
 * past the cursor: it narrows the page only, since `total` still counts every match.
 */

/** Any select at all; its row type is read back through RowOf. */
type AnySelect = SelectQueryBuilder<any, any, any>;

/** A select that has chosen no columns yet: what `selectFrom` and `where` give back. */
type NothingSelected = Record<never, never>;

/** The row a select gives back. */
export type RowOf<Q> = Q extends SelectQueryBuilder<any, any, infer O> ? O : never;

/** A sort key valid for a select: one of its columns or selections, or an expression over its tables. */
export type SortKeyOf<Q> = Q extends SelectQueryBuilder<infer DB, infer TB, infer O> ? SortKey<DB, TB & keyof DB, O> : never;

export interface PageRequest {
  offset: number;
  limit: number;
}

export interface PageOf<T> {
  items: T[];
  total: number;
}

/** A list's creation window, as GET /v1/orders takes it: `createdAfter` inclusive, `createdBefore` exclusive. */
export interface CreatedWindow {
  createdAfter?: string;
  createdBefore?: string;
}

/**
 * Narrows a list to its creation window. Every list reads the window the same way, so that adjacent
 * windows neither overlap nor leave a gap whichever list is paged through.
 */
export function createdWithin<Q extends AnySelect>(q: Q, window: CreatedWindow): Q {
  let narrowed: AnySelect = q;
  if (window.createdAfter) narrowed = narrowed.where('created_at', '>=', sql<Date>`${window.createdAfter}::timestamptz`);
  if (window.createdBefore) narrowed = narrowed.where('created_at', '<', sql<Date>`${window.createdBefore}::timestamptz`);
  return narrowed as Q;
}

/**
 * A list's equality filters as `eb.and` takes them: each column with the value asked for, those not asked
 * for (absent or empty) left out.
 */
export function asked<T extends Record<string, unknown>>(filters: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined && value !== '')) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

/**
 * One sort key of a page: a column (or expression) and its direction (ascending when left out). A list
 * names its keys most significant first and ends with a unique one (usually the id), so that rows which
 * tie on the others keep one order from page to page.
 */
export type SortKey<DB, TB extends keyof DB, O> = OrderByExpression<DB, TB, O> | readonly [OrderByExpression<DB, TB, O>, OrderByDirection];

/** Narrows a filtered query to the rows past a cursor. */
export type Seek<DB, TB extends keyof DB> = (
  filtered: SelectQueryBuilder<DB, TB, NothingSelected>,
) => SelectQueryBuilder<DB, TB, NothingSelected>;

/**
 * The requested page of a filtered query (which selects nothing yet), in the given order, and the count of
 * every row the filter matches. Both are read from one snapshot (a repeatable-read transaction, or the
 * caller's), so a row written meanwhile is in both or in neither: `items` never disagrees with `total`.
 * `seek`, when given, applies to the page's statement alone.
 */
export async function pageOf<DB, TB extends keyof DB, Q extends AnySelect>(
  db: Kysely<any>,
  filtered: SelectQueryBuilder<DB, TB, NothingSelected>,
  select: (filtered: SelectQueryBuilder<DB, TB, NothingSelected>) => Q,
  order: ReadonlyArray<SortKeyOf<Q>>,
  page: PageRequest,
  seek?: Seek<DB, TB>,
): Promise<PageOf<RowOf<Q>>> {
  const rows = pageRows(seek ? seek(filtered) : filtered, select, order, page);
  const count = countQuery(filtered);
  const read = async (ex: Kysely<any>): Promise<PageOf<RowOf<Q>>> => {
    const items = (await ex.executeQuery(rows)).rows as RowOf<Q>[];
    const counted = await ex.executeQuery(count);
    return { items, total: Number(counted.rows[0]?.n ?? 0) };
  };
  return inOneSnapshot(db, read);
}

/** The page query itself: `pageOf`'s first statement, for callers that need the SQL. */
export function pageRows<DB, TB extends keyof DB, Q extends AnySelect>(
  filtered: SelectQueryBuilder<DB, TB, NothingSelected>,
  select: (filtered: SelectQueryBuilder<DB, TB, NothingSelected>) => Q,
  order: ReadonlyArray<SortKeyOf<Q>>,
  page: PageRequest,
): Q {
  // The keys were checked against Q's tables and columns at the call; here Q is only known to be some select.
  let rows: AnySelect = select(filtered);
  for (const key of order as ReadonlyArray<SortKey<any, any, any>>) {
    // A key alone sorts ascending, as `orderBy(key)` does.
    rows = isDirected(key) ? rows.orderBy(key[0], key[1]) : rows.orderBy(key);
  }
  return rows.offset(page.offset).limit(page.limit) as Q;
}

function isDirected<K>(key: K | readonly [K, OrderByDirection]): key is readonly [K, OrderByDirection] {
  return Array.isArray(key);
}

/** How many rows a filtered query matches (`select count(*)` over it). */
export async function countOf<DB, TB extends keyof DB>(filtered: SelectQueryBuilder<DB, TB, NothingSelected>): Promise<number> {
  const row = await countQuery(filtered).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** `countOf`'s statement. Postgres answers count(*) as a bigint, which the driver hands back as a string. */
export function countQuery<DB, TB extends keyof DB>(
  filtered: SelectQueryBuilder<DB, TB, NothingSelected>,
): SelectQueryBuilder<DB, TB, { n: string | number }> {
  // With DB left generic, kysely cannot work out the selection's type; it is this one.
  return filtered.select((eb) => eb.fn.countAll<string | number>().as('n')) as unknown as SelectQueryBuilder<
    DB,
    TB,
    { n: string | number }
  >;
}
