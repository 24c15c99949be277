import type { Insertable, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Db } from './connect';
import type { Executor } from './connect';
import type { EngineCommandKind, EngineCommandsTable } from './schema-engine';
import { activeTraceparent } from './tracing';

export type EngineCommand = Selectable<EngineCommandsTable>;

/**
 * Records a command for the engine; call it in the transaction that writes what the command concerns. The
 * trace of the request recording it (when tracing is on) travels with it, so its delivery joins that trace.
 */
export async function enqueueEngineCommand(tx: Executor, kind: EngineCommandKind, targetId: string): Promise<void> {
  await tx.insertInto('engine_commands').values(engineCommandRow(kind, targetId)).execute();
}

/** A command due now, for a statement that records it with what it concerns (insertRun). */
export function engineCommandRow(kind: EngineCommandKind, targetId: string): Insertable<EngineCommandsTable> {
  const traceparent = activeTraceparent();
  return { kind, target_id: targetId, next_attempt_at: new Date(), ...(traceparent ? { traceparent } : {}) };
}

/**
 * Leases up to `limit` due commands, oldest first: each is pushed `leaseSeconds` into the future so that
 * no other dispatcher takes it meanwhile (SKIP LOCKED keeps concurrent dispatchers off each other's rows).
 * A dispatcher that dies with a lease simply lets it expire and the command comes due again.
 */
export async function leaseDueCommands(db: Db, limit: number, leaseSeconds = 30): Promise<EngineCommand[]> {
  const result = await sql<EngineCommand>`
    UPDATE engine_commands SET attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ${leaseSeconds})
    WHERE id IN (
      SELECT id FROM engine_commands WHERE done_at IS NULL AND next_attempt_at <= now()
      ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING *`.execute(db);
  return result.rows.sort((a, b) => Number(a.id) - Number(b.id));
}

export async function completeEngineCommand(db: Db, id: number): Promise<void> {
  await db.updateTable('engine_commands').set({ done_at: new Date(), last_error: null }).where('id', '=', id).execute();
}

/** Schedules another attempt after `delaySeconds`, keeping why this one failed. */
export async function retryEngineCommand(db: Db, id: number, error: string, delaySeconds: number): Promise<void> {
  await db
    .updateTable('engine_commands')
    .set({ last_error: error.slice(0, 2000), next_attempt_at: sql<Date>`now() + make_interval(secs => ${delaySeconds})` })
    .where('id', '=', id)
    .execute();
}

/** Commands not yet delivered, for on-call and for the reconciler (a run waiting on one is not stuck). */
export async function pendingEngineCommands(db: Db, targetId?: string): Promise<EngineCommand[]> {
  let query = db.selectFrom('engine_commands').selectAll().where('done_at', 'is', null);
  if (targetId) query = query.where('target_id', '=', targetId);
  return query.orderBy('id').execute();
}
