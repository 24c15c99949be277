import type { InsertObject, Selectable } from 'kysely';
import { sql } from 'kysely';
import { compiledOnce } from './compiled-once.js';
import type { Db, Executor } from './connect.js';
import type { RunRow } from './runs/row.js';
import type { EngineCommandKind, EngineCommandsTable, EngineSchema } from './schema-engine.js';
import { activeTraceparent } from './tracing.js';

export type EngineCommand = Selectable<EngineCommandsTable>;

/**
 * Records a command for the engine; call it in the transaction that writes what the command concerns. The
 * trace of the request recording it (when tracing is on) travels with it, so its delivery joins that trace.
 */
export async function enqueueEngineCommand(tx: Executor, kind: EngineCommandKind, targetId: string): Promise<void> {
  await tx.insertInto('engine_commands').values(engineCommandRow(kind, targetId)).execute();
}

/** How long a lease keeps a command from every other dispatcher: a dispatcher that dies with it delays it this long. */
export const COMMAND_LEASE_SECONDS = 30;

/**
 * A command for a statement that records it with what it concerns (insertRun): due now, or with
 * `leased`, recorded as already leased (one attempt, due again after the lease) by the process that
 * will deliver it itself, so no dispatcher's lease has to find it.
 */
export function engineCommandRow(
  kind: EngineCommandKind,
  targetId: string,
  leased = false,
  traceparent = activeTraceparent(),
): InsertObject<EngineSchema, 'engine_commands'> {
  const due = leased
    ? { attempts: 1, next_attempt_at: sql<Date>`now() + make_interval(secs => ${COMMAND_LEASE_SECONDS})` }
    : { next_attempt_at: sql<Date>`now()` };
  return { kind, target_id: targetId, ...due, ...(traceparent ? { traceparent } : {}) };
}

/** What a `start_run` command's delivery reads of its run: the workflow's input and its search attributes. */
export type RunToStart = Pick<
  RunRow,
  | 'id'
  | 'status'
  | 'workspace_id'
  | 'template_id'
  | 'parent_order_id'
  | 'intake'
  | 'inputs'
  | 'bindings'
  | 'execution_mode'
  | 'definition'
  | 'priority'
>;

/** What a dispatcher needs of a command to deliver it. */
export type DeliverableCommand = Pick<EngineCommand, 'id' | 'kind' | 'target_id' | 'attempts' | 'traceparent'>;

/** A leased command; a `start_run` one with its run as the lease found it (absent when the run is gone). */
export type LeasedCommand = DeliverableCommand & { run?: RunToStart };

/** The columns of RunToStart, read as `run.<column>` beside the command's own. */
const RUN_PREFIX = 'run.';
const RUN_TO_START = [
  'id',
  'status',
  'workspace_id',
  'template_id',
  'parent_order_id',
  'intake',
  'inputs',
  'bindings',
  'execution_mode',
  'definition',
  'priority',
] as const;

/**
 * Leases up to `limit` due commands, oldest first: each is pushed `leaseSeconds` into the future so that
 * no other dispatcher takes it meanwhile (SKIP LOCKED keeps concurrent dispatchers off each other's rows).
 * A dispatcher that dies with a lease simply lets it expire and the command comes due again. The run of
 * each `start_run` comes in the same statement: a batch's lease and its runs are one round trip.
 */
export async function leaseDueCommands(db: Executor, limit: number, leaseSeconds = COMMAND_LEASE_SECONDS): Promise<LeasedCommand[]> {
  const { rows } = await leaseWithRuns(db, limit, leaseSeconds);
  return rows
    .map((row) => {
      const command: Record<string, unknown> = {};
      const run: Record<string, unknown> = {};
      for (const [column, value] of Object.entries(row)) {
        if (column.startsWith(RUN_PREFIX)) run[column.slice(RUN_PREFIX.length)] = value;
        else command[column] = value;
      }
      return { ...(command as EngineCommand), ...(run.id ? { run: run as RunToStart } : {}) };
    })
    .sort((a, b) => Number(a.id) - Number(b.id));
}

const leaseWithRuns = compiledOnce((_db: Executor, limit: number, leaseSeconds: number) => {
  const runColumns = sql.join(RUN_TO_START.map((c) => sql`r.${sql.ref(c)} AS ${sql.id(`${RUN_PREFIX}${c}`)}`));
  return sql<Record<string, unknown>>`
    WITH leased AS (
      UPDATE engine_commands SET attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ${leaseSeconds})
      WHERE id IN (
        SELECT id FROM engine_commands WHERE done_at IS NULL AND next_attempt_at <= now()
        ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING *)
    SELECT leased.*, ${runColumns}
    FROM leased LEFT JOIN runs r ON leased.kind = 'start_run' AND r.id = leased.target_id`;
});

export async function completeEngineCommand(db: Db, id: number): Promise<void> {
  await db.updateTable('engine_commands').set({ done_at: new Date(), last_error: null }).where('id', '=', id).execute();
}

/** Makes leased commands due now: their dispatcher is stopping before it could deliver them. */
export async function releaseEngineCommands(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('engine_commands')
    .set({ next_attempt_at: sql<Date>`now()` })
    .where(sql<boolean>`id = ANY(${ids}::bigint[])`)
    .where('done_at', 'is', null)
    .execute();
}

/** Schedules another attempt after `delaySeconds`, keeping why this one failed. */
export async function retryEngineCommand(db: Db, id: number, error: string, delaySeconds: number): Promise<void> {
  await db
    .updateTable('engine_commands')
    .set({ last_error: error.slice(0, 2000), next_attempt_at: sql<Date>`now() + make_interval(secs => ${delaySeconds})` })
    .where('id', '=', id)
    .execute();
}

/** Every command recorded for a run or an order, delivered (`done`) or not, in no particular order. */
export async function engineCommandsFor(db: Executor, targetId: string): Promise<Array<{ kind: EngineCommandKind; done: boolean }>> {
  const rows = await db.selectFrom('engine_commands').select(['kind', 'done_at']).where('target_id', '=', targetId).execute();
  return rows.map((r) => ({ kind: r.kind, done: r.done_at !== null }));
}

/** Commands not yet delivered, for on-call and for the reconciler (a run waiting on one is not stuck). */
export async function pendingEngineCommands(db: Db, targetId?: string): Promise<EngineCommand[]> {
  let query = db.selectFrom('engine_commands').selectAll().where('done_at', 'is', null);
  if (targetId) query = query.where('target_id', '=', targetId);
  return query.orderBy('id').execute();
}
