import type { Context } from 'hono';
import type { z } from '@hono/zod-openapi';
import type { CreateRunRequest } from '@atelier/contracts/runs';
import type { WorkflowDefinition } from '@atelier/contracts/workflow-definition';
import {
  type RunRow,
  getProjectInWorkspace,
  getWorkflow,
  getWorkflowVersion,
  insertRun,
  moveRunStatus,
} from '@atelier/db';
import { estimateSteps, newRunId, resolveIntake, specVersionHash } from '@atelier/domain';
import { startRunWorkflow } from '@atelier/engine/client';
import { type WorkspaceAccess, workspaceAccess } from '../access';
import { ApiError, fail } from '../errors';
import type { AppEnv } from '../services';

type Body = z.infer<typeof CreateRunRequest>;

/** Which workflow version a run pins and what it binds each role to, after the run's overrides. */
async function pinnedDefinition(c: Context<AppEnv>, body: Body, access: WorkspaceAccess) {
  const { db, models } = c.get('services');
  const workflow = await getWorkflow(db, body.templateId);
  if (!workflow || (workflow.workspace_id !== null && workflow.workspace_id !== access.workspaceId) || !workflow.live_version) {
    throw fail.notFound(`workflow ${body.templateId} not found`);
  }
  if (workflow.status === 'deprecated') {
    throw fail.refused('template_deprecated', {
      templateId: workflow.id,
      supersededBy: workflow.superseded_by_id,
      message: `${workflow.id} is deprecated${workflow.superseded_by_id ? `; use ${workflow.superseded_by_id}` : ''}`,
    });
  }
  const version = await getWorkflowVersion(db, workflow.id, workflow.live_version);
  if (!version) throw fail.notFound(`workflow ${body.templateId} not found`);
  const definition = version.definition as WorkflowDefinition;

  const bindings = { ...definition.providers };
  for (const [role, modelId] of Object.entries(body.providers ?? {})) {
    if (!(role in definition.providers)) {
      throw fail.refused('invalid_provider_override', { role, modelId, message: `${workflow.id} has no role ${role}` });
    }
    const problem = models.bindingProblem(role, modelId);
    if (problem) throw fail.refused('invalid_provider_override', { role, modelId, message: problem });
    bindings[role] = modelId;
  }
  return { workflow, definition, bindings };
}

/**
 * POST /v1/runs: validates, pins the version and spec hash, records the run as pending and hands it to
 * Temporal. Nothing here waits for the run to make progress.
 */
export async function createRun(c: Context<AppEnv>, body: Body): Promise<RunRow> {
  const { db, temporal, taskQueue, models } = c.get('services');
  const principal = c.get('principal');
  const access = await workspaceAccess(c, body.workspaceId);
  if (body.projectId && !(await getProjectInWorkspace(db, access.workspaceId, body.projectId))) {
    throw fail.notFound(`project ${body.projectId} not found`);
  }
  const { workflow, definition, bindings } = await pinnedDefinition(c, body, access);

  const resolution = resolveIntake(definition.intakeSchema.fields, body.intake);
  if (resolution.unknownKeys.length > 0) {
    c.get('logger').warn({ templateId: workflow.id, unknownKeys: resolution.unknownKeys }, 'unknown intake keys ignored');
  }
  if (!resolution.ok) throw fail.intakeInvalid(resolution.errors);

  const estimate = estimateSteps(definition.runtimeSteps, (role) => {
    const id = bindings[role];
    return id ? models.get(id) : undefined;
  });
  const runId = newRunId();
  const run = await insertRun(db, {
    id: runId,
    workspace_id: access.workspaceId,
    project_id: body.projectId ?? null,
    template_id: workflow.id,
    template_name: definition.name,
    workflow_version: definition.version,
    spec_version_hash: specVersionHash(definition, resolution.intake),
    status: 'pending',
    intake: JSON.stringify(resolution.intake),
    definition: JSON.stringify(definition),
    bindings: JSON.stringify(bindings),
    created_via: principal.via,
    api_key_id: principal.apiKeyId ?? null,
    api_key_name: principal.apiKeyName ?? null,
    created_by: principal.userId,
    estimated_usd: estimate.typical,
  });

  try {
    await startRunWorkflow(
      temporal,
      { runId, workspaceId: access.workspaceId, definition, intake: resolution.intake, inputs: {}, bindings },
      { taskQueue, templateId: workflow.id },
    );
  } catch (err) {
    c.get('logger').error({ err, runId }, 'could not hand the run to Temporal');
    await moveRunStatus(db, runId, 'failed', { error: 'the execution engine was unreachable; nothing ran', error_code: 'engine_unavailable' });
    throw new ApiError(503, `the execution engine is unavailable; run ${runId} was recorded as failed and nothing was spent`);
  }
  await moveRunStatus(db, runId, 'queued');
  return run;
}
