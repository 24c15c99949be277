import type { BudgetRow } from '@atelier/db';
import { roundUsd } from '@atelier/domain';

const money = (v: string | null) => (v === null ? null : Number(v));

export function presentBudget(b: BudgetRow, spendUsd: number) {
  const limit = Number(b.limit_usd);
  return {
    id: b.id,
    scope: b.scope,
    workspaceId: b.workspace_id,
    projectId: b.project_id,
    limitUsd: limit,
    period: b.period,
    enforcementMode: b.enforcement_mode,
    overageUsd: money(b.overage_usd),
    perRunCapUsd: money(b.per_run_cap_usd),
    name: b.name,
    spendUsd: roundUsd(spendUsd),
    remainingUsd: roundUsd(Math.max(0, limit - spendUsd)),
    createdAt: b.created_at.toISOString(),
    updatedAt: b.updated_at.toISOString(),
  };
}
