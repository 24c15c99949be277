import { type RunStatus, type StepFallback, runTotalUsd } from '@atelier/domain';
import type { WorkflowDefinition } from '@atelier/contracts/workflow-definition';
import type { Database, ListedRunStepRow, RunRow, RunStepRow } from '@atelier/db';
import type { Selectable } from 'kysely';
import { iso } from './time.js';

type DecisionRow = Selectable<Database['run_decisions']>;

const num = (v: string | number | null) => (v === null ? 0 : Number(v));

/**
 * A run as the contract shows it. Every step of the pinned definition appears in runSteps, in order;
 * steps that have not started yet are `pending` with no telemetry. Started steps show their attempts and,
 * when `providerSpend` (step index → USD, every attempt's calls) is given, what the providers charged.
 */
export function presentRun(
  run: RunRow,
  steps: Array<ListedRunStepRow & Partial<RunStepRow>>,
  decisions: DecisionRow[] = [],
  providerSpend?: Map<number, number>,
) {
  const definition = run.definition as WorkflowDefinition;
  const byIndex = new Map(steps.map((s) => [s.step_index, s]));
  const end = run.finished_at ?? new Date();
  return {
    id: run.id,
    templateId: run.template_id,
    templateName: run.template_name,
    status: run.status as RunStatus,
    currentStepIndex: run.current_step_index,
    intake: run.intake,
    artifactId: run.artifact_id,
    durationMs: run.started_at ? Math.max(0, end.getTime() - run.started_at.getTime()) : null,
    workflowVersion: run.workflow_version,
    specVersionHash: run.spec_version_hash,
    createdVia: run.created_via,
    apiKeyId: run.api_key_id,
    apiKeyName: run.api_key_name,
    workspaceId: run.workspace_id,
    projectId: run.project_id,
    queuedAt: run.queued_at.toISOString(),
    createdAt: run.created_at.toISOString(),
    finishedAt: iso(run.finished_at),
    // actual_usd is the run's own spend (what sums across runs add); its total adds its children's.
    totalCosts: {
      estimatedUsd: num(run.estimated_usd),
      actualUsd: runTotalUsd(num(run.actual_usd), num(run.subworkflow_actual_usd)),
      ownActualUsd: num(run.actual_usd),
      currency: run.currency,
      status: run.cost_status,
    },
    runSteps: (definition.runtimeSteps ?? []).map((step, index) => {
      const row = byIndex.get(index);
      return {
        id: step.id,
        name: step.name,
        kind: step.kind,
        status: (row?.status ?? 'pending') as 'pending' | 'completed' | 'failed' | 'skipped',
        provider: row?.provider ?? null,
        model: row?.model ?? null,
        durationMs: row?.duration_ms ?? null,
        costActualUsd: runTotalUsd(num(row?.cost_actual_usd ?? 0), num(row?.subworkflow_actual_usd ?? 0)),
        error: row?.error ?? null,
        ...(row ? { attempts: row.attempts } : {}),
        ...(Array.isArray(row?.fallbacks) && row.fallbacks.length > 0 ? { fallbacks: row.fallbacks as StepFallback[] } : {}),
        ...(row && providerSpend ? { providerSpendUsd: providerSpend.get(index) ?? 0 } : {}),
        // What a person reading one run wants (the console's timeline, step inputs and outputs); left out of lists
        // and webhook payloads, where an output (a whole report) would make every item large.
        ...(providerSpend
          ? {
              startedAt: iso(row?.started_at ?? null),
              finishedAt: iso(row?.finished_at ?? null),
              output: row?.output ?? null,
              input: row?.input ?? null,
              inputOmitted: row?.input_omitted ?? false,
            }
          : {}),
      };
    }),
    error: run.error,
    errorCode: run.error_code,
    failureDetails: (run.failure_details as Record<string, unknown> | null) ?? null,
    parentRunId: run.parent_run_id,
    parentOrderId: run.parent_order_id,
    rerunOf: run.rerun_of,
    orderDedupeKey: run.order_dedupe_key,
    workerId: run.worker_id,
    archived: run.archived,
    notExecutedReason: run.not_executed_reason,
    reviewGate: run.review_gate_id
      ? {
          id: run.review_gate_id,
          name: run.review_gate_name ?? run.review_gate_id,
          holdFields: (run.hold_fields as unknown[] | null) ?? [],
        }
      : null,
    decisions: decisions.map((d) => ({
      decision: d.decision,
      note: d.note,
      gateId: d.gate_id,
      patch: (d.patch as Record<string, unknown> | null) ?? null,
      who: d.decided_by,
      via: d.decided_via,
      when: d.created_at.toISOString(),
    })),
    tags: run.tags ?? [],
    metadata: run.metadata ?? {},
  };
}
