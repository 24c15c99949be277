import type { z } from '@hono/zod-openapi';
import type { AuthorWorkflowRequest, DeprecateWorkflowRequest, PublishWorkflowRequest } from '@atelier/contracts/workflows';
import {
  type WorkflowRow,
  type WorkflowVersionRow,
  deprecateWorkflow,
  getWorkflow,
  listWorkflowVersions,
  publishWorkflowVersion,
  saveWorkflowDraft,
} from '@atelier/db';
import { checkDefinition, compareVersions } from '@atelier/domain';
import { type WorkspaceAccess, requireWriter, resourceAccess, writerAccess } from '../access.js';
import { fail } from '../errors.js';
import type { Caller } from '../caller.js';
import { kept } from '../kept/index.js';
import { iso } from '../presenters/time.js';

/** The contract's refusal of a definition: every broken rule at once, as sentences. */
export const workflowInvalid = (errors: string[]) => fail.invalid('workflow_invalid', { errors });

export function presentWorkflowSummary(w: WorkflowRow) {
  return {
    id: w.id,
    name: w.name,
    workspaceId: w.workspace_id,
    builtin: w.workspace_id === null,
    status: w.status,
    supersededById: w.superseded_by_id,
    visibility: w.visibility,
    liveVersion: w.live_version,
    createdAt: w.created_at.toISOString(),
    updatedAt: w.updated_at.toISOString(),
  };
}

export function presentWorkflowVersion(v: WorkflowVersionRow) {
  return {
    version: v.version,
    state: v.state,
    visibility: v.visibility,
    definitionHash: v.definition_hash,
    createdAt: v.created_at.toISOString(),
    publishedAt: iso(v.published_at),
  };
}

const newestPublished = (versions: readonly WorkflowVersionRow[]) =>
  versions.filter((v) => v.state === 'published').sort((a, b) => compareVersions(b.version, a.version))[0];

/** The workflow with its versions and the full definition of its live version (else its newest draft). */
export async function workflowResponse(caller: Caller, id: string) {
  const { db } = caller.services;
  const workflow = await getWorkflow(db, id);
  if (!workflow) throw fail.notFound('workflow', id);
  const versions = await listWorkflowVersions(db, id);
  const draft = versions.find((v) => v.state === 'draft');
  const shown = versions.find((v) => v.version === workflow.live_version) ?? draft ?? versions[0];
  if (!shown) throw fail.notFound('workflow', id);
  return {
    ...presentWorkflowSummary(workflow),
    draftVersion: draft?.version ?? null,
    versions: versions.map(presentWorkflowVersion),
    definitionVersion: shown.version,
    definition: shown.definition as Record<string, unknown>,
  };
}

/**
 * A workflow the caller may read: built-ins to anyone signed in (access is then null), a workspace's
 * own workflows to its members; anything else is not found.
 */
export async function visibleWorkflow(caller: Caller, id: string): Promise<{ workflow: WorkflowRow; access: WorkspaceAccess | null }> {
  const workflow = await getWorkflow(caller.services.db, id);
  if (!workflow) throw fail.notFound('workflow', id);
  if (workflow.workspace_id === null) return { workflow, access: null };
  return { workflow, access: await resourceAccess(caller, workflow.workspace_id, 'workflow', id) };
}

/** A workflow the caller may change: their workspace's own, and they are an owner or admin there. */
async function ownedWorkflow(caller: Caller, id: string) {
  const { workflow, access } = await visibleWorkflow(caller, id);
  if (!access) throw fail.forbidden(`${id} is a built-in workflow; only the platform changes it`);
  requireWriter(access);
  return { workflow, access };
}

/**
 * POST /v1/workflows: creates the workflow with a draft, or replaces its draft. Published versions are
 * frozen (409 version_frozen) and ids belong to one workflow forever (409 workflow_id_taken).
 */
export async function authorWorkflow(caller: Caller, body: z.infer<typeof AuthorWorkflowRequest>) {
  const { db, models } = caller.services;
  const access = await writerAccess(caller, body.workspaceId);
  const raw = body.definition;
  const id = typeof raw.id === 'string' && raw.id.length > 0 ? raw.id : null;
  if (!id) throw workflowInvalid(checkDefinition(raw, { models }).errors);

  const { created } = await saveWorkflowDraft(db, { id, workspaceId: access.workspaceId }, (existing, versions) => {
    if (existing && existing.workspace_id !== access.workspaceId) {
      throw fail.code('workflow_id_taken', { id, message: `the workflow id ${id} is taken; ids are never reused for another workflow` });
    }
    const frozen = versions.find((v) => v.state === 'published' && v.version === raw.version);
    if (frozen) {
      throw fail.code('version_frozen', {
        id,
        version: frozen.version,
        message: `${id} ${frozen.version} is published and frozen; save the change as a later version`,
      });
    }
    const check = checkDefinition(raw, { models, previousVersion: newestPublished(versions)?.version });
    if (!check.definition) throw workflowInvalid(check.errors);
    return { name: check.definition.name, version: check.definition.version, definition: check.definition };
  });
  kept(caller.services).workflows.forget();
  return { created, workflow: await workflowResponse(caller, id) };
}

/** POST /v1/workflows/{id}/publish: the draft becomes the frozen, live version; the workflow becomes internal. */
export async function publishWorkflow(caller: Caller, id: string, body: z.infer<typeof PublishWorkflowRequest>) {
  const { db, models } = caller.services;
  await ownedWorkflow(caller, id);
  if (body.visibility !== 'internal') {
    throw fail.validation([
      {
        type: 'value_error',
        loc: ['body', 'visibility'],
        msg: "workspace-authored workflows are published as internal; the public catalog holds only the platform's workflows",
        input: body.visibility,
      },
    ]);
  }
  await publishWorkflowVersion(db, id, body.version, 'internal', (_workflow, versions) => {
    const target = versions.find((v) => v.version === body.version);
    if (target?.state === 'published') {
      throw fail.code('version_frozen', { id, version: body.version, message: `${id} ${body.version} is already published and frozen` });
    }
    if (!target) {
      const draft = versions.find((v) => v.state === 'draft');
      throw fail.notFound('draft version', `${body.version} of workflow ${id}`, draft ? `its draft is ${draft.version}` : undefined);
    }
    const check = checkDefinition(target.definition, { models, previousVersion: newestPublished(versions)?.version });
    if (check.errors.length > 0) throw workflowInvalid(check.errors);
  });
  kept(caller.services).workflows.forget();
  return workflowResponse(caller, id);
}

/** POST /v1/workflows/{id}/deprecate: new runs are refused with 400 template_deprecated naming the successor. */
export async function deprecate(caller: Caller, id: string, body: z.infer<typeof DeprecateWorkflowRequest>) {
  const { db } = caller.services;
  const { workflow } = await ownedWorkflow(caller, id);
  const successor = await getWorkflow(db, body.supersededById);
  const visible = successor && (successor.workspace_id === null || successor.workspace_id === workflow.workspace_id);
  if (!visible || successor.id === id) {
    throw fail.code('invalid_successor', {
      supersededById: body.supersededById,
      message: successor?.id === id ? 'a workflow cannot supersede itself' : `workflow ${body.supersededById} not found`,
    });
  }
  await deprecateWorkflow(db, id, successor.id);
  kept(caller.services).workflows.forget();
  return workflowResponse(caller, id);
}

/**
 * Published workflows cannot be dry-run or estimated: a built-in id, or the id and version of one of the
 * workspace's published versions, is refused with 409 workflow_published. Otherwise answers the newest
 * published version of the workspace's workflow of that id, which a new draft must sort after.
 */
export async function refusePublished(caller: Caller, workspaceId: string, id: unknown, version: unknown): Promise<string | undefined> {
  if (typeof id !== 'string' || !id) return undefined;
  const { db } = caller.services;
  const workflow = await getWorkflow(db, id);
  if (!workflow || (workflow.workspace_id !== null && workflow.workspace_id !== workspaceId)) return undefined;
  const versions = await listWorkflowVersions(db, id);
  const published = versions.find((v) => v.state === 'published' && (workflow.workspace_id === null || v.version === version));
  if (published) {
    throw fail.code('workflow_published', {
      id,
      version: workflow.workspace_id === null ? workflow.live_version : published.version,
      message: `published workflows cannot be dry-run or estimated: ${id}${workflow.workspace_id === null ? ' is a published catalog workflow' : ` ${published.version} is published`}`,
    });
  }
  return newestPublished(versions)?.version;
}
