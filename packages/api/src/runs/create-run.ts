import type { Insertable } from 'kysely';
import type { z } from '@hono/zod-openapi';
import type { CreateRunRequest } from '@atelier/contracts/runs';
import type { WorkflowDefinition } from '@atelier/contracts/workflow-definition';
import {
  type Executor,
  type IdempotencyKey,
  type RunRow,
  idempotentCreations,
  getNewestVersion,
  getWorkflowVersion,
  getProjectInWorkspace,
  insertRun,
  insertRunIf,
  insertRunLeased,
  type LeasedCommand,
  type NoBudgetApplies,
  type RunsTable,
  moveRunStatus,
  newRunRow,
  runEstimate,
  withFreeRunId,
} from '@atelier/db';
import {
  type Bindings,
  type CostEstimate,
  type ModelBinding,
  intakeSizeProblems,
  measureIntake,
  newRunId,
  resolveIntake,
} from '@atelier/domain';
import { templateLabel } from '@atelier/engine/metrics';
import { nameRunOnSpan } from '@atelier/engine/tracing';
import { type WorkspaceAccess, workspaceAccess } from '../access.js';
import { fail } from '../errors.js';
import type { Caller } from '../caller.js';
import { refuseUnusableCharacter } from './character-gate.js';
import { resolveSuppliedArtifacts } from './supplied-artifacts.js';
import { refuseOverBudget, underBudgetsOrAlone } from '../budgets/enforce.js';
import { createdOnce } from '../http/idempotency.js';
import { kept } from '../kept/index.js';

type Body = z.infer<typeof CreateRunRequest>;

/**
 * The version a new run pins: the live (newest published) one; for a workflow never published, its
 * newest draft, which is recorded but not executed. A rerun names its original's `version` instead, so it
 * runs what the original ran even after a newer version went live. A deprecated workflow refuses either.
 */
export async function pinnedVersion(caller: Caller, templateId: string, access: WorkspaceAccess, pinned?: string) {
  const { services } = caller;
  const { db } = services;
  // The workflow and its live version, kept in memory while the catalog does not change: every run creation reads it.
  const found = await kept(services).workflows.get(templateId);
  if (!found || (found.workflow.workspace_id !== null && found.workflow.workspace_id !== access.workspaceId)) {
    throw fail.notFound('workflow', templateId);
  }
  const { workflow, live } = found;
  if (workflow.status === 'deprecated') {
    throw fail.code('template_deprecated', {
      templateId: workflow.id,
      supersededBy: workflow.superseded_by_id,
      message: `${workflow.id} is deprecated${workflow.superseded_by_id ? `; use ${workflow.superseded_by_id}` : ''}`,
    });
  }
  const version =
    pinned !== undefined
      ? await getWorkflowVersion(db, workflow.id, pinned)
      : workflow.live_version
        ? live
        : await getNewestVersion(db, workflow.id, 'draft');
  if (!version)
    throw pinned === undefined ? fail.notFound('workflow', templateId) : fail.notFound('version', `${pinned} of workflow ${templateId}`);
  const runnable = version.state === 'published' && workflow.visibility !== 'draft';
  return { workflow, definition: version.definition as WorkflowDefinition, runnable };
}

/** The definition's bindings with the caller's overrides applied: each a model id or an ordered list (primary, then fallbacks). */
export function applyOverrides(caller: Caller, definition: WorkflowDefinition, overrides: Bindings | undefined) {
  const { models } = caller.services;
  const bindings: Record<string, ModelBinding> = { ...definition.providers };
  for (const [role, modelId] of Object.entries(overrides ?? {})) {
    if (!(role in definition.providers)) {
      throw fail.code('invalid_provider_override', { role, modelId, message: `${definition.id} has no role ${role}` });
    }
    const problem = models.bindingProblem(role, modelId);
    if (problem) throw fail.code('invalid_provider_override', { role, modelId, message: problem });
    bindings[role] = modelId;
  }
  return bindings;
}

/** How a run comes to be beyond its create body: a rerun pins its original's version and links to it (rerun.ts). */
export interface RunOrigin {
  /** The workflow version to pin instead of the live one. */
  version: string;
  /** The run this one is created again from. */
  rerunOf: string;
}

export interface CreateRunOptions {
  /** Written in the run's own transaction (e.g. a brand import's record); throwing undoes the run. */
  alsoRecord?: (tx: Executor, run: RunRow) => Promise<void>;
  /** The request's `Idempotency-Key`, recorded with the run (createRunOnce). */
  idempotency?: IdempotencyKey;
  origin?: RunOrigin;
}

/**
 * A run checked and priced but not recorded: everything POST /v1/runs refuses before budgets (workspace,
 * project, workflow and version, bindings, intake, supplied artifacts, characters) is refused here, so a
 * run and its dry run are refused alike.
 */
async function checkedRun(caller: Caller, body: Body, options: CreateRunOptions) {
  const { services, principal } = caller;
  const { db, models } = services;
  const access = await workspaceAccess(caller, body.workspaceId);
  const tooLarge = intakeSizeProblems(measureIntake(body.intake));
  if (tooLarge.length > 0) throw fail.intakeInvalid(tooLarge);
  if (body.projectId && !(await getProjectInWorkspace(db, access.workspaceId, body.projectId))) {
    throw fail.notFound('project', body.projectId);
  }
  const { workflow, definition, runnable } = await pinnedVersion(caller, body.templateId, access, options.origin?.version);
  const bindings = applyOverrides(caller, definition, body.providers);

  const resolution = resolveIntake(definition.intakeSchema.fields, body.intake);
  if (resolution.unknownKeys.length > 0) {
    caller.logger.warn({ templateId: workflow.id, unknownKeys: resolution.unknownKeys }, 'unknown intake keys ignored');
  }
  if (!resolution.ok) throw fail.intakeInvalid(resolution.errors);
  const supplied = await resolveSuppliedArtifacts(db, access.workspaceId, definition.intakeSchema.fields, resolution.intake);
  if (supplied.errors.length > 0) throw fail.intakeInvalid(supplied.errors);

  await refuseUnusableCharacter(
    db,
    { workspaceId: access.workspaceId, intake: resolution.intake, artifactClass: definition.artifactSchema.artifactClass, bindings },
    'run',
  );

  const notExecuted = runnable
    ? null
    : `${workflow.id} ${definition.version} is a draft: runs of drafts are recorded but never executed; publish it to run it`;
  const row = newRunRow(
    {
      id: newRunId(),
      workspaceId: access.workspaceId,
      projectId: body.projectId ?? null,
      definition,
      intake: resolution.intake,
      bindings,
      createdVia: principal.via,
      apiKeyId: principal.apiKeyId,
      apiKeyName: principal.apiKeyName,
      createdBy: principal.userId,
      inputs: supplied.inputs,
      sourceArtifactIds: supplied.artifactIds,
      priority: body.priority ?? null,
      ...(body.tags ? { tags: body.tags } : {}),
      ...(body.metadata ? { metadata: body.metadata } : {}),
      rerunOf: options.origin?.rerunOf ?? null,
      ...(options.idempotency ? { idempotency: options.idempotency } : {}),
    },
    models,
  );
  return { access, workflow, definition, bindings, row, notExecuted };
}

/**
 * POST /v1/runs: validates, pins the version and spec hash, and records the run as pending together with
 * the command that starts it, in one transaction; the dispatcher hands it to Temporal. The answer costs
 * one transaction and never waits on Temporal, which may even be down.
 */
export async function createRun(caller: Caller, body: Body, options: CreateRunOptions = {}): Promise<RunRow> {
  const { services } = caller;
  const { db } = services;
  const { alsoRecord } = options;
  const { access, workflow, row: checked, notExecuted } = await checkedRun(caller, body, options);
  // A draft's run never executes and costs nothing, so only runs that will execute answer to budgets.
  const estimate = Number(checked.estimated_usd ?? 0);
  // With a dispatcher here, the run's start is leased to it and handed over as soon as the run commits.
  const dispatcher = services.dispatcher;
  const leased = dispatcher?.handOver !== undefined;
  const record = (row: Insertable<RunsTable>): Promise<{ run: RunRow; command?: LeasedCommand }> =>
    notExecuted
      ? db.transaction().execute(async (tx) => {
          const inserted = await insertRun(tx, row);
          await alsoRecord?.(tx, inserted);
          return { run: inserted };
        })
      : underBudgetsOrAlone(
          caller,
          {
            workspaceId: access.workspaceId,
            projectId: body.projectId ?? null,
            estimateUsd: estimate,
            largestRunUsd: estimate,
            attempted: 'run',
          },
          // With nothing else to record, a run no budget applies to is one statement.
          alsoRecord ? undefined : (onlyIf) => recordRunToStart(db, row, leased, onlyIf),
          async (tx) => {
            // The engine learns of the run from the same statement: a Temporal outage delays it, never loses it.
            const inserted = (await recordRunToStart(tx, row, leased))!;
            await alsoRecord?.(tx, inserted.run);
            return inserted;
          },
        );
  const recorded = await withFreeRunId(checked, record);
  const { run } = recorded;
  nameRunOnSpan({ runId: run.id, workspaceId: access.workspaceId, templateId: workflow.id });
  caller.metrics?.runsCreated.inc({ template: templateLabel(workflow.id, workflow.workspace_id === null) });
  if (notExecuted) {
    const recorded = await moveRunStatus(db, run.id, 'failed', {
      error: notExecuted,
      error_code: 'draft_not_executed',
      not_executed_reason: notExecuted,
      cost_status: 'not_executed',
    });
    return recorded ?? run;
  }
  if (recorded.command) dispatcher?.handOver?.(recorded.command);
  else dispatcher?.wake();
  return run;
}

/**
 * createRun without creating: the same refusals, the budgets judged as they stand (402 with the same body,
 * not recorded: nothing was attempted), and the estimate the run would be judged on.
 */
export async function priceRun(caller: Caller, body: Body, origin?: RunOrigin): Promise<CostEstimate> {
  const { access, definition, bindings, notExecuted } = await checkedRun(caller, body, origin ? { origin } : {});
  const estimate = runEstimate(definition, bindings, caller.services.models);
  // As createRun: a draft's run never executes, so no budget judges it.
  if (!notExecuted) {
    await refuseOverBudget(caller, {
      workspaceId: access.workspaceId,
      projectId: body.projectId ?? null,
      estimateUsd: estimate.typical,
      largestRunUsd: estimate.typical,
      attempted: 'run',
    });
  }
  return estimate;
}

/**
 * POST /v1/runs with an `Idempotency-Key`: the run is created once per workspace and key within the key's
 * window; a retry with the same body gets that run back (`replayed`), another body is refused.
 */
export async function createRunOnce(
  caller: Caller,
  body: Body,
  key: IdempotencyKey,
  origin?: RunOrigin,
): Promise<{ row: RunRow; replayed: boolean }> {
  const access = await workspaceAccess(caller, body.workspaceId);
  return createdOnce(idempotentCreations('runs'), caller.services.db, access.workspaceId, key, () =>
    createRun(caller, body, { idempotency: key, ...(origin ? { origin } : {}) }),
  );
}

/** The run with its `start_run`: due for any dispatcher, or `leased` to this gateway's, which is handed it. */
async function recordRunToStart(
  db: Executor,
  row: Insertable<RunsTable>,
  leased: boolean,
  onlyIf?: NoBudgetApplies,
): Promise<{ run: RunRow; command?: LeasedCommand } | undefined> {
  if (leased) return insertRunLeased(db, row, onlyIf);
  const run = await insertRunIf(db, row, 'start_run', onlyIf);
  return run && { run };
}
