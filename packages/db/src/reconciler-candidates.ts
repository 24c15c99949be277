import { sql } from 'kysely';
import type { Executor } from './connect.js';
import { IN_FLIGHT_RUN_STATUSES } from './runs/row.js';

/** A run or order the reconciler may look at: which, in what status, and since when nothing changed it. */
export interface IdleRow {
  id: string;
  status: string;
  updated_at: Date;
}

/**
 * Rows of `table` in one of `statuses` that nothing has changed for `idleMs`, longest idle first, at most
 * `limit`. Runs and orders share the columns read here; the reconciler treats them alike up to this point.
 */
function idleRows(db: Executor, table: 'runs' | 'orders', statuses: readonly string[], idleMs: number, limit: number): Promise<IdleRow[]> {
  return (
    db
      // Both tables have these columns; kysely cannot type a select over a union of tables.
      .selectFrom(table as 'runs')
      .select(['id', 'status', 'updated_at'])
      .where('status', 'in', [...statuses])
      .where('updated_at', '<', sql<Date>`now() - make_interval(secs => ${idleMs / 1000})`)
      .orderBy('updated_at')
      .limit(limit)
      .execute()
  );
}

/** Runs not settled yet (IN_FLIGHT_RUN_STATUSES) that nothing has changed for `idleMs`. */
export const idleRunsInFlight = (db: Executor, idleMs: number, limit: number) =>
  idleRows(db, 'runs', IN_FLIGHT_RUN_STATUSES, idleMs, limit);

/** Running orders that nothing has changed for `idleMs`. */
export const idleRunningOrders = (db: Executor, idleMs: number, limit: number) => idleRows(db, 'orders', ['running'], idleMs, limit);
