import type { Insertable } from 'kysely';
import type { Priority } from '@atelier/contracts/priorities';
import type { WorkflowDefinition } from '@atelier/contracts/workflow-definition';
import type { IdempotencyKey } from './idempotency.js';
import type { RunsTable } from './schema.js';
import { type Bindings, type CostEstimate, type ModelRegistry, estimateSteps, primaryModel, specVersionHash } from '@atelier/domain';

export interface NewRun {
  id: string;
  workspaceId: string;
  projectId: string | null;
  definition: WorkflowDefinition;
  intake: Record<string, unknown>;
  /** Role → model id, or an ordered list (primary, then fallbacks). */
  bindings: Bindings;
  createdVia: 'session' | 'api_key' | 'worker';
  apiKeyId?: string | null;
  apiKeyName?: string | null;
  createdBy?: string | null;
  status?: string;
  parentRunId?: string | null;
  inputs?: Record<string, unknown>;
  sourceArtifactIds?: Record<string, string>;
  /** Absent or null: normal. */
  priority?: Priority | null;
  /** The request's `Idempotency-Key`, when it named one. */
  idempotency?: IdempotencyKey;
  /** As the caller gave them, already checked (contracts/run-tags.ts); absent: none. */
  tags?: string[];
  metadata?: Record<string, string>;
  /** The run this one reruns (POST /v1/runs/{run_id}/rerun). */
  rerunOf?: string | null;
}

/** What a run of `definition` with `bindings` is estimated to cost; priced on its primary models, as newRunRow prices it. */
export function runEstimate(definition: WorkflowDefinition, bindings: Bindings, models: ModelRegistry): CostEstimate {
  // A fallback runs only when the primary cannot.
  return estimateSteps(definition.runtimeSteps, (role) => {
    const id = primaryModel(bindings[role]);
    return id ? models.get(id) : undefined;
  });
}

/**
 * The row of a new run: version and spec hash pinned, the frozen definition stored with it, and the
 * estimate from registry pricing. API-created runs and sub-workflow children are made the same way.
 */
export function newRunRow(r: NewRun, models: ModelRegistry): Insertable<RunsTable> {
  const estimate = runEstimate(r.definition, r.bindings, models);
  return {
    id: r.id,
    workspace_id: r.workspaceId,
    project_id: r.projectId,
    template_id: r.definition.id,
    template_name: r.definition.name,
    workflow_version: r.definition.version,
    spec_version_hash: specVersionHash(r.definition, r.intake),
    status: r.status ?? 'pending',
    intake: JSON.stringify(r.intake),
    definition: JSON.stringify(r.definition),
    bindings: JSON.stringify(r.bindings),
    created_via: r.createdVia,
    api_key_id: r.apiKeyId ?? null,
    api_key_name: r.apiKeyName ?? null,
    created_by: r.createdBy ?? null,
    estimated_usd: estimate.typical,
    parent_run_id: r.parentRunId ?? null,
    inputs: JSON.stringify(r.inputs ?? {}),
    source_artifact_ids: JSON.stringify(r.sourceArtifactIds ?? {}),
    ...(r.priority ? { priority: r.priority } : {}),
    tags: r.tags ?? [],
    metadata: JSON.stringify(r.metadata ?? {}),
    ...(r.idempotency ? { idempotency_key: r.idempotency.key, idempotency_hash: r.idempotency.hash } : {}),
    ...(r.rerunOf ? { rerun_of: r.rerunOf } : {}),
  };
}
