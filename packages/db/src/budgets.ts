import { type Insertable, type RawBuilder, type Selectable, type Transaction, sql } from 'kysely';
import { TERMINAL_RUN_STATUSES, periodStart } from '@atelier/domain';
import type { Db, Executor } from './connect.js';
import { pageOf } from './paging.js';
import type { BudgetsTable, Database } from './schema.js';

export type BudgetRow = Selectable<BudgetsTable>;

export async function createBudget(db: Db, row: Insertable<BudgetsTable>): Promise<BudgetRow> {
  return db.insertInto('budgets').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function getBudget(db: Db, id: string): Promise<BudgetRow | undefined> {
  return db.selectFrom('budgets').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listBudgets(db: Db, workspaceId: string, page: { offset: number; limit: number }) {
  const base = db.selectFrom('budgets').where('workspace_id', '=', workspaceId);
  return pageOf(db, base, (qb) => qb.selectAll(), ['created_at', 'id'], page);
}

export async function updateBudget(db: Db, id: string, patch: Partial<Insertable<BudgetsTable>>): Promise<BudgetRow | undefined> {
  return db
    .updateTable('budgets')
    .set({ ...patch, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** The budgets a request in this workspace (and project) answers to. */
function applicableBudgets(ex: Executor, workspaceId: string, projectId: string | null) {
  return ex
    .selectFrom('budgets')
    .where('workspace_id', '=', workspaceId)
    .where((eb) => (projectId ? eb.or([eb('scope', '=', 'workspace'), eb('project_id', '=', projectId)]) : eb('scope', '=', 'workspace')));
}

/**
 * The applicable budgets, locked in id order so that concurrent requests against the same budget are
 * judged one after another and never overspend it.
 */
export async function lockApplicableBudgets(
  tx: Transaction<Database>,
  workspaceId: string,
  projectId: string | null,
): Promise<BudgetRow[]> {
  return applicableBudgets(tx, workspaceId, projectId).selectAll().orderBy('id').forUpdate().execute();
}

/**
 * A write's guard that no budget applies to this workspace (and project), given as data so that the
 * write's statement can build it (noBudgetApplies) and be compiled once per shape.
 */
export interface NoBudgetApplies {
  workspaceId: string;
  projectId: string | null;
}

/**
 * A condition for a write that answers to no budget: true while none applies to this workspace (and
 * project). A write guarded by it needs neither the budgets' locks nor a transaction.
 */
export function noBudgetApplies(ex: Executor, workspaceId: string, projectId: string | null): RawBuilder<boolean> {
  return sql<boolean>`NOT EXISTS (${applicableBudgets(ex, workspaceId, projectId).select('id')})`;
}

/**
 * A budget's spend: the actual cost of settled runs plus the estimate (or actual, when higher) of runs
 * not yet settled. Children of an order that has not started are only a plan and do not count. Each run
 * adds its own spend (actual_usd), not its total: a sub-workflow child is one of the runs summed, so its
 * spend added again through its parent (subworkflow_actual_usd) would count it twice.
 */
export async function budgetSpend(tx: Transaction<Database> | Db, budget: BudgetRow, now = new Date()): Promise<number> {
  const since = periodStart(budget.period, now);
  const terminal = sql.join(TERMINAL_RUN_STATUSES.map((s) => sql.lit(s)));
  const row = await sql<{ spend: string | null }>`
    select sum(case when r.status in (${terminal}) then r.actual_usd else greatest(r.actual_usd, r.estimated_usd) end) as spend
    from runs r left join orders o on o.id = r.parent_order_id
    where r.workspace_id = ${budget.workspace_id}
      ${budget.scope === 'project' ? sql`and r.project_id = ${budget.project_id}` : sql``}
      ${since ? sql`and r.created_at >= ${since}` : sql``}
      and not (r.status = 'planned' and (o.status is null or o.status = 'planned'))`.execute(tx);
  return Number(row.rows[0]?.spend ?? 0);
}

export async function recordRefusal(
  tx: Transaction<Database> | Db,
  r: {
    id: string;
    budgetId: string | null;
    workspaceId: string;
    detail: unknown;
    attempted: string;
    callerId: string | null;
    callerVia: string | null;
  },
): Promise<void> {
  await tx
    .insertInto('budget_refusals')
    .values({
      id: r.id,
      budget_id: r.budgetId,
      workspace_id: r.workspaceId,
      detail: JSON.stringify(r.detail),
      attempted: r.attempted,
      caller_id: r.callerId,
      caller_via: r.callerVia,
    })
    .execute();
}

export async function listRefusals(db: Db, budgetId: string, page: { offset: number; limit: number }) {
  const base = db.selectFrom('budget_refusals').where('budget_id', '=', budgetId);
  return pageOf(db, base, (qb) => qb.selectAll(), [['created_at', 'desc']], page);
}

/**
 * What a run's spend is held to while it runs: the lowest per-run cap that applies to it (its definition's
 * budgetPolicy.perRunCapUsd, and the perRunCapUsd of every budget of its workspace or project that enforces
 * one) and what its settled steps have spent. The engine checks a step's fallback to another model against it.
 * The spend is the run's own: a sub-workflow child is a run held to its own cap.
 */
export async function runSpendCap(db: Executor, runId: string): Promise<{ capUsd?: number; spentUsd: number }> {
  const run = await db
    .selectFrom('runs')
    .select(['workspace_id', 'project_id', 'actual_usd', sql<string | null>`definition->'budgetPolicy'->>'perRunCapUsd'`.as('policy_cap')])
    .where('id', '=', runId)
    .executeTakeFirst();
  if (!run) return { spentUsd: 0 };
  const budgets = await applicableBudgets(db, run.workspace_id, run.project_id)
    .select('per_run_cap_usd')
    .where('per_run_cap_usd', 'is not', null)
    .where('enforcement_mode', '<>', 'notify_only')
    .execute();
  const caps = [run.policy_cap, ...budgets.map((b) => b.per_run_cap_usd)]
    .filter((cap) => cap !== null && cap !== undefined)
    .map(Number)
    .filter(Number.isFinite);
  return { ...(caps.length > 0 ? { capUsd: Math.min(...caps) } : {}), spentUsd: Number(run.actual_usd) };
}
