import { type Insertable, type Selectable, type Transaction, sql } from 'kysely';
import { DETERMINISTIC_ERROR_CODES, newRunId } from '@atelier/domain';
import { type Db, type Executor, inTransaction } from './connect.js';
import { emitOrderEvent } from './event-webhooks.js';
import type { Database, OrdersTable, RunsTable } from './schema.js';
import { type CreatedWindow, type PageOf, type PageRequest, asked, createdWithin, pageOf } from './paging.js';
import { appendRunEvents, appendedEvents } from './runs/events.js';
import { IN_FLIGHT_RUN_STATUSES, type RunRow } from './runs/row.js';

export type OrderRow = Selectable<OrdersTable>;

export interface PlannedChild {
  id: string;
  intake: Record<string, unknown>;
  dedupeKey: string;
  /** Supplied artifacts' contents by intake field, and their ids. */
  inputs: Record<string, unknown>;
  sourceArtifactIds: Record<string, string>;
}

/** What every child of an order shares; only the id, intake and dedupe key vary. */
export type ChildTemplate = Omit<Insertable<RunsTable>, 'id' | 'intake' | 'order_dedupe_key' | 'spec_version_hash' | 'status'> & {
  specHash: (intake: Record<string, unknown>) => string;
};

const CHUNK = 2_000;

/**
 * Inserts the order and its children as `planned` runs in one transaction. Children go in with one
 * statement per chunk (unnest over arrays), so the shared definition crosses the wire once per chunk
 * and a 10,000-child order plans in seconds.
 */
export async function insertOrderWithChildren(
  tx: Transaction<Database>,
  order: Insertable<OrdersTable>,
  template: ChildTemplate,
  children: PlannedChild[],
): Promise<OrderRow> {
  const row = await tx.insertInto('orders').values(order).returningAll().executeTakeFirstOrThrow();
  await insertPlannedChildren(tx, row.id, template, children);
  return row;
}

async function insertPlannedChildren(
  tx: Transaction<Database>,
  orderId: string,
  template: ChildTemplate,
  children: PlannedChild[],
): Promise<void> {
  const { specHash, ...shared } = template;
  for (let i = 0; i < children.length; i += CHUNK) {
    // Run ids are short (run- plus 8 hex); one that collides with an existing run is drawn again.
    let pending = children.slice(i, i + CHUNK);
    while (pending.length > 0) {
      // Each child inserted (event_seq 1) with its first event; not announced, as no child's planned event is.
      const planned = appendedEvents(sql.ref('run.id'), [{ type: 'run.status', data: { status: 'planned' } }]);
      const inserted = await sql<{ id: string }>`
        WITH run AS (insert into runs (id, workspace_id, project_id, template_id, template_name, workflow_version, spec_version_hash, status,
          intake, definition, bindings, created_via, api_key_id, api_key_name, created_by, estimated_usd, parent_order_id,
          order_dedupe_key, execution_mode, inputs, source_artifact_ids, tags, metadata, event_seq)
        select c.id, ${shared.workspace_id}, ${shared.project_id ?? null}, ${shared.template_id}, ${shared.template_name}, ${shared.workflow_version},
          c.spec, 'planned', c.intake, ${shared.definition}::jsonb, ${shared.bindings}::jsonb, ${shared.created_via}, ${shared.api_key_id ?? null},
          ${shared.api_key_name ?? null}, ${shared.created_by ?? null}, ${shared.estimated_usd ?? 0}, ${orderId}, c.dedupe, ${shared.execution_mode ?? 'standard'},
          c.inputs, c.sources, ${shared.tags ?? []}::text[], ${shared.metadata ?? '{}'}::jsonb, 1
        from unnest(${pending.map((c) => c.id)}::text[], ${pending.map((c) => JSON.stringify(c.intake))}::jsonb[], ${pending.map((c) => c.dedupeKey)}::text[],
          ${pending.map((c) => specHash(c.intake))}::text[], ${pending.map((c) => JSON.stringify(c.inputs))}::jsonb[], ${pending.map((c) => JSON.stringify(c.sourceArtifactIds))}::jsonb[])
          as c(id, intake, dedupe, spec, inputs, sources)
        on conflict (id) do nothing
        returning id, event_seq),
        ${planned}
        SELECT id FROM run`.execute(tx);
      const done = new Set(inserted.rows.map((r) => r.id));
      pending = pending.filter((c) => !done.has(c.id)).map((c) => ({ ...c, id: newRunId() }));
    }
  }
}

export async function getOrder(db: Executor, id: string): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface OrderFilters extends PageRequest, CreatedWindow {
  workspaceId: string;
  projectId?: string;
  status?: OrderRow['status'];
  workflowId?: string;
  /** The last order of an earlier page: the page continues after it. */
  after?: OrderKey;
}

/**
 * Where an order stands in the list (created_at desc, id desc). created_at is kept as text to the
 * microsecond, as PostgreSQL has it: a Date keeps milliseconds, and orders created in the same
 * millisecond would be skipped or repeated by a cursor rounded to one.
 */
export interface OrderKey {
  createdAt: string;
  id: string;
}

/** Orders of a workspace, newest first, and the key of the last one when another page follows. */
export async function listOrders(db: Executor, f: OrderFilters): Promise<PageOf<OrderRow> & { next: OrderKey | null }> {
  const given = asked({ project_id: f.projectId, status: f.status, workflow_id: f.workflowId });
  const q = createdWithin(
    db
      .selectFrom('orders')
      .where('workspace_id', '=', f.workspaceId)
      .where((eb) => eb.and(given)),
    f,
  );
  const after = f.after;
  // One row past the page says whether another page follows.
  const { items, total } = await pageOf(
    db,
    q,
    (qb) =>
      qb.selectAll().select(sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('key_created_at')),
    [
      ['created_at', 'desc'],
      ['id', 'desc'],
    ],
    { offset: f.offset, limit: f.limit + 1 },
    after ? (qb) => qb.where(sql<boolean>`(created_at, id) < (${after.createdAt}::timestamptz, ${after.id})`) : undefined,
  );
  const page = items.slice(0, f.limit);
  const last = page.at(-1);
  return {
    items: page.map(({ key_created_at: _, ...order }) => order),
    total,
    next: items.length > f.limit && last ? { createdAt: last.key_created_at, id: last.id } : null,
  };
}

/** Orders by status, each with how many; a status with none has no row. The gateway's gauges read it on scrape. */
export async function ordersByStatus(db: Executor): Promise<Array<{ status: OrderRow['status']; orders: number }>> {
  return db
    .selectFrom('orders')
    .select(['status', sql<number>`count(*)::int`.as('orders')])
    .groupBy('status')
    .execute();
}

/** Child runs of all orders not settled yet (IN_FLIGHT_RUN_STATUSES), superseded ones included. */
export async function orderChildrenInFlight(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('runs')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('parent_order_id', 'is not', null)
    .where('status', 'in', [...IN_FLIGHT_RUN_STATUSES])
    .executeTakeFirstOrThrow();
  return row.n;
}

/** Whether a current child of the order (one no retry replaced) is not settled yet (IN_FLIGHT_RUN_STATUSES). */
export async function orderHasChildrenInFlight(db: Executor, orderId: string): Promise<boolean> {
  const underWay = await db
    .selectFrom('runs')
    .select('id')
    .where('parent_order_id', '=', orderId)
    .where('superseded_by', 'is', null)
    .where('status', 'in', [...IN_FLIGHT_RUN_STATUSES])
    .limit(1)
    .execute();
  return underWay.length > 0;
}

/** Which of `runIds` are children of the order (any attempt, superseded or not). */
export async function orderChildIdsAmong(db: Executor, orderId: string, runIds: readonly string[]): Promise<string[]> {
  if (runIds.length === 0) return [];
  const children = await db
    .selectFrom('runs')
    .select('id')
    .where('parent_order_id', '=', orderId)
    .where('id', 'in', [...runIds])
    .execute();
  return children.map((r) => r.id);
}

export async function lockOrder(tx: Transaction<Database>, id: string): Promise<OrderRow | undefined> {
  return tx.selectFrom('orders').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function setOrderStatus(
  db: Executor,
  id: string,
  to: OrderRow['status'],
  fields: Partial<Insertable<OrdersTable>> = {},
): Promise<void> {
  const terminal = to === 'completed' || to === 'cancelled' || to === 'failed';
  await inTransaction(db, async (tx) => {
    const row = await tx
      .updateTable('orders')
      .set({ ...fields, status: to, updated_at: new Date(), ...(terminal ? { finished_at: new Date() } : { finished_at: null }) })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (row) await emitOrderEvent(tx, row);
  });
}

export interface OrderCounts {
  planned: number;
  running: number;
  succeeded: number;
  failed: number;
  failedDeterministic: number;
  cancelled: number;
  actualCostUsd: number;
}

const NO_CHILDREN: OrderCounts = {
  planned: 0,
  running: 0,
  succeeded: 0,
  failed: 0,
  failedDeterministic: 0,
  cancelled: 0,
  actualCostUsd: 0,
};

/**
 * Counts and cost of an order from its children, the source of truth: `succeeded` counts children with
 * an artifact (completed, or in review); failed children replaced by a retry are not counted again, but
 * their cost is — spend stays billed. A child's cost is its total, its sub-workflow runs' included: those
 * are not children of the order (no parent_order_id), so each of their dollars is counted once, here.
 */
export async function orderCounts(db: Executor, orderId: string): Promise<OrderCounts> {
  return (await ordersCounts(db, [orderId])).get(orderId)!;
}

/** orderCounts of several orders in one statement (a list page's), by order id; an order without children counts zeros. */
export async function ordersCounts(db: Executor, orderIds: readonly string[]): Promise<Map<string, OrderCounts>> {
  const counts = new Map<string, OrderCounts>(orderIds.map((id) => [id, { ...NO_CHILDREN }]));
  if (orderIds.length === 0) return counts;
  const deterministic = sql.join(DETERMINISTIC_ERROR_CODES.map((c) => sql.lit(c)));
  const rows = await sql<Record<keyof OrderCounts, string> & { order_id: string }>`
    select
      parent_order_id as order_id,
      count(*) filter (where superseded_by is null and status in ('planned', 'pending', 'queued')) as planned,
      count(*) filter (where superseded_by is null and status = 'running') as running,
      count(*) filter (where superseded_by is null and status in ('completed', 'review')) as succeeded,
      count(*) filter (where superseded_by is null and status in ('failed', 'rejected', 'changes_requested')) as failed,
      count(*) filter (where superseded_by is null and status = 'failed' and error_code in (${deterministic})) as "failedDeterministic",
      count(*) filter (where superseded_by is null and status = 'cancelled') as cancelled,
      coalesce(sum(actual_usd + subworkflow_actual_usd), 0) as "actualCostUsd"
    from runs where parent_order_id = any(${[...orderIds]}::text[])
    group by parent_order_id`.execute(db);
  for (const { order_id, ...r } of rows.rows)
    counts.set(order_id, Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v)])) as unknown as OrderCounts);
  return counts;
}

/**
 * Claims up to `limit` planned children for starting (planned → pending), oldest id first, exactly once;
 * each claim appends its status event. One statement. `claim` names this claim of the order workflow: a
 * retry of one that committed (its worker died before Temporal heard of it) gets the same children back,
 * still pending, and claims none besides; otherwise those would stay pending with nothing to start them.
 */
export async function claimPlannedChildren(db: Db, orderId: string, limit: number, claimId: string): Promise<RunRow[]> {
  const claimed = await sql<RunRow>`
    WITH earlier AS (
      select * from runs where parent_order_id = ${orderId} and order_claim = ${claimId} and status = 'pending'),
    claimed AS (
      update runs set status = 'pending', order_claim = ${claimId}, updated_at = now(), event_seq = event_seq + 1
      where id in (
        select id from runs where parent_order_id = ${orderId} and status = 'planned' and superseded_by is null
        order by created_at, id limit ${limit} for update skip locked)
        and not exists (select 1 from runs where parent_order_id = ${orderId} and order_claim = ${claimId})
      returning *),
    ${appendedEvents(sql.ref('claimed.id'), [{ type: 'run.status', data: { status: 'pending' } }], { runs: 'claimed' })}
    SELECT * FROM (SELECT * FROM earlier UNION ALL SELECT * FROM claimed) AS handed ORDER BY created_at, id`.execute(db);
  return claimed.rows;
}

/** Cancels children that never started (when the order completed early or was cancelled). */
export async function cancelPlannedChildren(db: Executor, orderId: string): Promise<number> {
  const result = await sql`
    update runs set status = 'cancelled', finished_at = now(), updated_at = now()
    where parent_order_id = ${orderId} and status = 'planned' and superseded_by is null`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Cancels children claimed for starting (pending) that the order workflow will not start after all. */
export async function cancelUnstartedChildren(db: Executor, orderId: string, runIds: string[]): Promise<number> {
  const result = await sql`
    update runs set status = 'cancelled', finished_at = now(), updated_at = now()
    where parent_order_id = ${orderId} and id = any(${runIds}::text[]) and status = 'pending'`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Plans a fresh attempt for failed children (all, or those named), keeping the dedupe key and marking
 * the failed run superseded. Deterministic failures are left alone unless asked. A succeeded key is
 * never re-planned: only failed, unsuperseded children qualify. A fresh attempt whose id (`drawId`) is
 * taken draws another, as planned children do: a refused insert would abort the transaction.
 */
export async function replanFailedChildren(
  tx: Transaction<Database>,
  orderId: string,
  opts: { runIds?: string[]; includeDeterministic: boolean },
  drawId: () => string = newRunId,
): Promise<string[]> {
  let q = tx
    .selectFrom('runs')
    .selectAll()
    .where('parent_order_id', '=', orderId)
    .where('superseded_by', 'is', null)
    .where('status', 'in', ['failed', 'rejected', 'changes_requested']);
  if (opts.runIds) q = q.where('id', 'in', opts.runIds.length ? opts.runIds : ['']);
  if (!opts.includeDeterministic)
    q = q.where((eb) => eb.or([eb('error_code', 'is', null), eb('error_code', 'not in', [...DETERMINISTIC_ERROR_CODES])]));
  const failed = await q.forUpdate().execute();
  const fresh: string[] = [];
  for (const run of failed) {
    // The failed run leaves the order's dedupe index (superseded) before its fresh attempt enters it.
    let id: string | undefined;
    while (!id) {
      const candidate = drawId();
      await tx.updateTable('runs').set({ superseded_by: candidate, updated_at: new Date() }).where('id', '=', run.id).execute();
      const inserted = await tx
        .insertInto('runs')
        .values({
          id: candidate,
          workspace_id: run.workspace_id,
          project_id: run.project_id,
          template_id: run.template_id,
          template_name: run.template_name,
          workflow_version: run.workflow_version,
          spec_version_hash: run.spec_version_hash,
          status: 'planned',
          intake: JSON.stringify(run.intake),
          definition: JSON.stringify(run.definition),
          bindings: JSON.stringify(run.bindings),
          created_via: run.created_via,
          api_key_id: run.api_key_id,
          api_key_name: run.api_key_name,
          created_by: run.created_by,
          estimated_usd: run.estimated_usd,
          parent_order_id: orderId,
          order_dedupe_key: run.order_dedupe_key,
          execution_mode: run.execution_mode,
          tags: run.tags,
          metadata: JSON.stringify(run.metadata),
          event_seq: 0,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .executeTakeFirst();
      id = inserted?.id;
    }
    // Its first event (numbered 1), unannounced as every planned child's (insertPlannedChildren).
    await appendRunEvents(tx, id, [{ type: 'run.status', data: { status: 'planned', retryOf: run.id } }], { announce: false });
    fresh.push(id);
  }
  return fresh;
}
