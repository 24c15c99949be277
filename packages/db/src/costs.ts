import { sql } from 'kysely';
import { runTotalUsd } from '@atelier/domain';
import type { Db, Executor } from './connect.js';

export type CostGrouping = 'day' | 'workflow' | 'project' | 'provider' | 'model';

export interface CostFilter {
  workspaceId: string;
  projectId?: string;
  from?: Date;
  to?: Date;
  groupBy: CostGrouping;
}

export interface CostLine {
  key: string | null;
  actualUsd: number;
  estimatedUsd: number;
  runs: number;
}

/**
 * Spend grouped by day, workflow or project (from runs), or by provider or model (from the steps that
 * called them). Children of orders not yet started are a plan, not spend, and are left out; estimates
 * exist per run, so provider and model lines carry only actual cost. Each run adds its own spend
 * (actual_usd, cost_actual_usd), never its sub-workflow children's (subworkflow_actual_usd): a child is a
 * run of its own here, so its dollars are counted once, on it.
 */
export async function costLines(db: Db, f: CostFilter): Promise<CostLine[]> {
  const where = sql`r.workspace_id = ${f.workspaceId} and r.status <> 'planned'
    ${f.projectId ? sql`and r.project_id = ${f.projectId}` : sql``}
    ${f.from ? sql`and r.created_at >= ${f.from}` : sql``}
    ${f.to ? sql`and r.created_at < ${f.to}` : sql``}`;
  if (f.groupBy === 'provider' || f.groupBy === 'model') {
    const column = f.groupBy === 'provider' ? sql.ref('s.provider') : sql.ref('s.model');
    const rows = await sql<{ key: string | null; actual: string; runs: string }>`
      select ${column} as key, coalesce(sum(s.cost_actual_usd), 0) as actual, count(distinct s.run_id) as runs
      from run_steps s join runs r on r.id = s.run_id
      where ${where} and ${column} is not null
      group by 1 order by 2 desc, 1`.execute(db);
    return rows.rows.map((r) => ({ key: r.key, actualUsd: Number(r.actual), estimatedUsd: 0, runs: Number(r.runs) }));
  }
  const key =
    f.groupBy === 'day'
      ? sql`to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD')`
      : f.groupBy === 'workflow'
        ? sql`r.template_id`
        : sql`r.project_id::text`;
  const rows = await sql<{ key: string | null; actual: string; estimated: string; runs: string }>`
    select ${key} as key, coalesce(sum(r.actual_usd), 0) as actual, coalesce(sum(r.estimated_usd), 0) as estimated, count(*) as runs
    from runs r where ${where}
    group by 1 order by 1 nulls first`.execute(db);
  return rows.rows.map((r) => ({ key: r.key, actualUsd: Number(r.actual), estimatedUsd: Number(r.estimated), runs: Number(r.runs) }));
}

/**
 * A run's total spend, its own and its sub-workflow children's, as the subWorkflow step of its parent shows
 * it; 0 for a run not recorded. Read when the step settles, after the child has settled, so a read of the
 * parent needs no walk down its tree.
 */
export async function runTotalSpend(db: Executor, runId: string): Promise<number> {
  const run = await db.selectFrom('runs').select(['actual_usd', 'subworkflow_actual_usd']).where('id', '=', runId).executeTakeFirst();
  return run ? runTotalUsd(Number(run.actual_usd), Number(run.subworkflow_actual_usd)) : 0;
}
