import type { z } from '@hono/zod-openapi';
import type { CreateOrderRequest } from '@atelier/contracts/orders';
import { LIMITS } from '@atelier/contracts/common';
import type { IntakeField, WorkflowDefinition } from '@atelier/contracts/workflow-definition';
import {
  type IdempotencyKey,
  type OrderRow,
  type PlannedChild,
  getArtifact,
  idempotentCreations,
  getProjectInWorkspace,
  getWorkflowVersion,
  insertOrderWithChildren,
} from '@atelier/db';
import {
  VariationError,
  estimateSteps,
  intakeSizeProblems,
  measureIntake,
  newRunId,
  orderDedupeKey,
  primaryModel,
  resolveIntake,
  resolveVariations,
  roundUsd,
  specVersionHash,
} from '@atelier/domain';
import { randomBytes } from 'node:crypto';
import { workspaceAccess } from '../access.js';
import { underBudgets } from '../budgets/enforce.js';
import { fail } from '../errors.js';
import { createdOnce } from '../http/idempotency.js';
import { refuseUnusableCharacter } from '../runs/character-gate.js';
import { applyOverrides, pinnedVersion } from '../runs/create-run.js';
import { resolveSuppliedArtifacts } from '../runs/supplied-artifacts.js';
import type { Caller } from '../caller.js';

type Body = z.infer<typeof CreateOrderRequest>;

/** CSV cells are text: numbers and booleans are converted for the fields that expect them. */
function csvCoercer(fields: readonly IntakeField[]) {
  const types = new Map(fields.map((f) => [f.name, f.type]));
  return (field: string, value: string): unknown => {
    const type = types.get(field);
    if ((type === 'integer' || type === 'number') && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
    if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
    if ((type === 'array' || type === 'object') && /^[[{]/.test(value.trim())) {
      try {
        return JSON.parse(value);
      } catch {
        return value;
      }
    }
    return value;
  };
}

async function orderVersion(caller: Caller, body: Body, workspaceId: string): Promise<WorkflowDefinition> {
  const { workflow, definition, runnable } = await pinnedVersion(caller, body.workflowId, { workspaceId, role: 'member' });
  if (body.workflowVersion && body.workflowVersion !== definition.version) {
    const pinned = await getWorkflowVersion(caller.services.db, workflow.id, body.workflowVersion);
    if (pinned?.state !== 'published') throw fail.notFound('published version', `${body.workflowVersion} of workflow ${workflow.id}`);
    return pinned.definition as WorkflowDefinition;
  }
  if (!runnable)
    throw fail.invalid('workflow_not_runnable', { message: `${workflow.id} has no published version; drafts cannot be ordered` });
  return definition;
}

/**
 * POST /v1/orders with an `Idempotency-Key`: the order is planned once per workspace and key within the
 * key's window; a retry with the same body gets that order back (`replayed`), another body is refused.
 */
export async function planOrderOnce(caller: Caller, body: Body, key: IdempotencyKey): Promise<{ row: OrderRow; replayed: boolean }> {
  const access = await workspaceAccess(caller, body.workspaceId);
  return createdOnce(idempotentCreations('orders'), caller.services.db, access.workspaceId, key, () => planOrder(caller, body, key));
}

/**
 * POST /v1/orders: resolves the variations, validates every merged intake, collapses duplicates by
 * orderDedupeKey, prices the order and records it with its children as planned runs, all in one
 * transaction under the budgets. Nothing runs and nothing is spent.
 */
export async function planOrder(caller: Caller, body: Body, idempotency?: IdempotencyKey): Promise<OrderRow> {
  const { principal } = caller;
  const { db, models } = caller.services;
  const access = await workspaceAccess(caller, body.workspaceId);
  const projectId = body.projectId ?? null;
  if (projectId && !(await getProjectInWorkspace(db, access.workspaceId, projectId))) throw fail.notFound('project', projectId);
  // A pack links artifacts of one workspace: the plan artifact must be one the caller's workspace holds.
  if (body.planArtifactId && (await getArtifact(db, body.planArtifactId))?.workspace_id !== access.workspaceId) {
    throw fail.code('artifact_not_found', {
      planArtifactId: body.planArtifactId,
      message: `artifact ${body.planArtifactId} not found in this workspace`,
    });
  }
  const definition = await orderVersion(caller, body, access.workspaceId);
  const bindings = applyOverrides(caller, definition, body.providerOverrides);
  const fields = definition.intakeSchema.fields;
  const known = new Set(fields.map((f) => f.name));

  let variations: Record<string, unknown>[];
  try {
    variations = resolveVariations(body.variationSpec, csvCoercer(fields));
  } catch (err) {
    if (err instanceof VariationError) throw fail.invalid('variations_invalid', { message: err.message });
    throw err;
  }

  const problems: Array<{ index: number; fields: string[] }> = [];
  const children = new Map<string, PlannedChild>();
  // One intake per distinct character use (character, use, channel, territory) is enough for the gate.
  const characterUses = new Map<string, Record<string, unknown>>();
  const baseSize = measureIntake(body.intakeBase ?? {});
  let intakeBytes = 0;
  for (const [index, variation] of variations.entries()) {
    const size = measureIntake(variation);
    const tooLarge = intakeSizeProblems(baseSize, size);
    if (tooLarge.length > 0) {
      problems.push({ index, fields: tooLarge });
      continue;
    }
    const unknown = Object.keys({ ...body.intakeBase, ...variation }).filter((k) => !known.has(k));
    const resolution = resolveIntake(fields, { ...body.intakeBase, ...variation });
    const errors = [...unknown.map((k) => `${k} is not an intake field of ${definition.id}`), ...(resolution.ok ? [] : resolution.errors)];
    if (errors.length > 0 || !resolution.ok) {
      problems.push({ index, fields: errors });
      continue;
    }
    const supplied = await resolveSuppliedArtifacts(db, access.workspaceId, fields, resolution.intake);
    if (supplied.errors.length > 0) {
      problems.push({ index, fields: supplied.errors });
      continue;
    }
    if (typeof resolution.intake.characterId === 'string') {
      const { characterId, use, channel, territory } = resolution.intake;
      characterUses.set(JSON.stringify([characterId, use, channel, territory]), resolution.intake);
    }
    const dedupeKey = orderDedupeKey(definition.id, definition.version, resolution.intake);
    if (!children.has(dedupeKey)) {
      intakeBytes += baseSize.bytes + size.bytes;
      children.set(dedupeKey, {
        id: newRunId(),
        intake: resolution.intake,
        dedupeKey,
        inputs: supplied.inputs,
        sourceArtifactIds: supplied.artifactIds,
      });
    }
  }
  if (problems.length > 0) {
    throw fail.invalid('intake_invalid', {
      fields: problems.slice(0, 50).flatMap((p) => p.fields.map((f) => `variation ${p.index}: ${f}`)),
      variations: problems.slice(0, 50),
    });
  }
  // intakeBase is copied into every child: 10,000 children of a 256 KB base would be 2.5 GB of rows.
  if (intakeBytes > LIMITS.orderIntakeBytes) {
    throw fail.invalid('variations_invalid', {
      message: `the children's intakes come to ${intakeBytes.toLocaleString('en-US')} bytes (intakeBase is copied into each); at most ${LIMITS.orderIntakeBytes.toLocaleString('en-US')} are allowed per order`,
    });
  }
  const targetCount = body.targetCount ?? children.size;
  if (targetCount > children.size) {
    throw fail.validation([
      {
        type: 'too_big',
        loc: ['body', 'targetCount'],
        msg: `targetCount may not exceed the ${children.size} distinct variations`,
        input: body.targetCount,
      },
    ]);
  }

  if (characterUses.size > 0 && body.executionMode === 'batch') {
    const characterId = [...characterUses.values()][0]!.characterId;
    throw fail.code('character_batch_unsupported', { characterId, message: 'orders featuring a character cannot use batch mode' });
  }
  for (const intake of characterUses.values()) {
    await refuseUnusableCharacter(
      db,
      { workspaceId: access.workspaceId, intake, artifactClass: definition.artifactSchema.artifactClass, bindings },
      'order',
    );
  }

  const batch = body.executionMode === 'batch';
  const perChild = estimateSteps(
    definition.runtimeSteps,
    (role) => {
      const primary = primaryModel(bindings[role]);
      return primary ? models.get(primary) : undefined;
    },
    {
      batch,
    },
  ).typical;
  const estimate = roundUsd(perChild * children.size);
  const orderId = `order-${randomBytes(8).toString('hex')}`;
  const enforcementMode = body.budgetEnforcementMode ?? 'hard_stop';
  return underBudgets(
    caller,
    {
      workspaceId: access.workspaceId,
      projectId,
      // A plan reserves nothing yet; it is refused when its estimate alone would break a budget.
      estimateUsd: estimate,
      largestRunUsd: perChild,
      attempted: 'order.plan',
      ...(body.budgetLimitUsd !== undefined ? { orderCap: { limitUsd: body.budgetLimitUsd, enforcementMode, spentUsd: 0 } } : {}),
    },
    (tx) =>
      insertOrderWithChildren(
        tx,
        {
          id: orderId,
          workspace_id: access.workspaceId,
          project_id: projectId,
          workflow_id: definition.id,
          workflow_version: definition.version,
          status: 'planned',
          execution_mode: batch ? 'batch' : 'standard',
          target_count: targetCount,
          planned_count: children.size,
          skipped_count: variations.length - children.size,
          estimated_cost_usd: estimate,
          budget_limit_usd: body.budgetLimitUsd ?? null,
          budget_enforcement_mode: enforcementMode,
          provider_overrides: JSON.stringify(body.providerOverrides ?? {}),
          intake_base: JSON.stringify(body.intakeBase ?? {}),
          variation_spec: JSON.stringify(body.variationSpec),
          plan_artifact_id: body.planArtifactId ?? null,
          priority: body.priority ?? null,
          max_concurrency: body.maxConcurrency ?? null,
          created_by: principal.userId,
          created_via: principal.via,
          api_key_id: principal.apiKeyId ?? null,
          ...(idempotency ? { idempotency_key: idempotency.key, idempotency_hash: idempotency.hash } : {}),
        },
        {
          workspace_id: access.workspaceId,
          project_id: projectId,
          template_id: definition.id,
          template_name: definition.name,
          workflow_version: definition.version,
          definition: JSON.stringify(definition),
          bindings: JSON.stringify(bindings),
          created_via: principal.via,
          api_key_id: principal.apiKeyId ?? null,
          api_key_name: principal.apiKeyName ?? null,
          created_by: principal.userId,
          estimated_usd: perChild,
          execution_mode: batch ? 'batch' : 'standard',
          tags: body.tags ?? [],
          metadata: JSON.stringify(body.metadata ?? {}),
          specHash: (intake) => specVersionHash(definition, intake),
        },
        [...children.values()],
      ),
  );
}
