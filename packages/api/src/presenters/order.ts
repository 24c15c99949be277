import type { OrderCounts, OrderRow } from '@atelier/db';
import { iso } from './time.js';

export function presentOrder(order: OrderRow, counts: OrderCounts) {
  return {
    id: order.id,
    workflowId: order.workflow_id,
    workflowVersion: order.workflow_version,
    status: order.status,
    executionMode: order.execution_mode,
    targetCount: order.target_count,
    counts: {
      planned: counts.planned,
      running: counts.running,
      succeeded: counts.succeeded,
      failed: counts.failed,
      skipped: order.skipped_count,
      cancelled: counts.cancelled,
    },
    estimatedCostUsd: Number(order.estimated_cost_usd),
    actualCostUsd: counts.actualCostUsd,
    budgetLimitUsd: order.budget_limit_usd === null ? null : Number(order.budget_limit_usd),
    budgetEnforcementMode: order.budget_enforcement_mode,
    currency: order.currency,
    workspaceId: order.workspace_id,
    projectId: order.project_id,
    planArtifactId: order.plan_artifact_id,
    priority: order.priority ?? 'normal',
    maxConcurrency: order.max_concurrency,
    providerOverrides: order.provider_overrides,
    acceptGapReason: order.accept_gap_reason,
    failureReason: order.failure_reason,
    createdAt: order.created_at.toISOString(),
    startedAt: iso(order.started_at),
    finishedAt: iso(order.finished_at),
  };
}
