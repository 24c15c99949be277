import { type Role, defaultWorkspaceId, getMembership, getOrder, getProject } from '@atelier/db';
import { type NotFoundNoun, fail } from './errors.js';
import type { Caller } from './caller.js';

export interface WorkspaceAccess {
  workspaceId: string;
  role: Role;
}

/**
 * The caller's role in a workspace. Their home workspace's (the key's, else their default) was read with
 * their credential in the same request; any other is read now.
 */
async function roleIn(caller: Caller, workspaceId: string): Promise<Role | undefined> {
  const principal = caller.principal;
  if (principal.home && principal.home.workspaceId === workspaceId) return principal.home.role ?? undefined;
  return getMembership(caller.services.db, workspaceId, principal.userId);
}

/**
 * Resolves the workspace a request acts in (the one named, else the key's, else the caller's default)
 * and the caller's role there. A workspace-bound key naming another workspace is 403; a workspace the
 * caller is not a member of is reported as not found.
 */
export async function workspaceAccess(caller: Caller, workspaceId?: string | null): Promise<WorkspaceAccess> {
  const { db } = caller.services;
  const principal = caller.principal;
  const bound = principal.keyWorkspaceId ?? null;
  if (workspaceId && bound && workspaceId !== bound) {
    throw fail.forbidden('this API key is bound to another workspace');
  }
  const target = workspaceId ?? bound ?? (principal.home ? principal.home.workspaceId : await defaultWorkspaceId(db, principal.userId));
  if (!target) throw fail.notFound('workspace');
  const role = await roleIn(caller, target);
  if (!role) throw fail.notFound('workspace', target);
  return { workspaceId: target, role };
}

/** Access to an existing resource that lives in `workspaceId`: 404 to outsiders, 403 to a key bound elsewhere. */
export async function resourceAccess(caller: Caller, workspaceId: string, noun: NotFoundNoun, id: string): Promise<WorkspaceAccess> {
  const principal = caller.principal;
  const role = await roleIn(caller, workspaceId);
  if (!role) throw fail.notFound(noun, id);
  if (principal.keyWorkspaceId && principal.keyWorkspaceId !== workspaceId) {
    throw fail.forbidden('this API key is bound to another workspace');
  }
  return { workspaceId, role };
}

/**
 * A record of a workspace as the caller may see it, with their access: 404 when there is no such record
 * and when it lies outside the caller's workspaces (one answer, so an id reveals nothing), 403 to a key
 * bound elsewhere, and with `write` 403 admin_required to a member. `missing` is what the 404 names.
 */
export async function visibleRecord<Row extends { workspace_id: string }>(
  caller: Caller,
  row: Row | undefined,
  missing: { noun: NotFoundNoun; id: string },
  write = false,
): Promise<{ row: Row; access: WorkspaceAccess }> {
  if (!row) throw fail.notFound(missing.noun, missing.id);
  const access = await resourceAccess(caller, row.workspace_id, missing.noun, missing.id);
  if (write) requireWriter(access);
  return { row, access };
}

export function requireWriter(access: WorkspaceAccess): void {
  if (access.role === 'member') throw fail.adminRequired();
}

/** A workspace's access (workspaceAccess) for a change only its owners and admins may make: a member gets 403. */
export async function writerAccess(caller: Caller, workspaceId?: string | null): Promise<WorkspaceAccess> {
  const access = await workspaceAccess(caller, workspaceId);
  requireWriter(access);
  return access;
}

/**
 * Account-level actions (the account's keys, the user record, new workspaces) need a session or an
 * unbound key: a key bound to one workspace acts only inside it.
 */
export function requireAccountScope(caller: Caller): void {
  if (caller.principal.keyWorkspaceId) {
    throw fail.code('account_scope_required', {
      message: 'this API key is bound to one workspace; account-level actions need a session or an unbound key',
    });
  }
}

/** What a list filter may name besides the workspace: each implies the workspace it lives in. */
export interface ListScope {
  workspaceId?: string | null;
  projectId?: string | null;
  parentOrderId?: string | null;
}

/**
 * The workspace a filtered list reads: the one named, else the one implied by a project or order the
 * filter names, else the key's or the caller's default. A project or order outside the caller's reach
 * (or outside the named workspace) is reported as not found, in the same words as a random id.
 */
export async function listAccess(caller: Caller, scope: ListScope): Promise<WorkspaceAccess> {
  const { db } = caller.services;
  const implied: Array<{ workspaceId: string | undefined; noun: NotFoundNoun; id: string }> = [];
  if (scope.projectId)
    implied.push({ workspaceId: (await getProject(db, scope.projectId))?.workspace_id, noun: 'project', id: scope.projectId });
  if (scope.parentOrderId)
    implied.push({ workspaceId: (await getOrder(db, scope.parentOrderId))?.workspace_id, noun: 'order', id: scope.parentOrderId });
  let workspaceId = scope.workspaceId ?? undefined;
  for (const { workspaceId: owner, noun, id } of implied) {
    if (!owner || (workspaceId && owner !== workspaceId)) throw fail.notFound(noun, id);
    if (!(await roleIn(caller, owner))) throw fail.notFound(noun, id);
    workspaceId = owner;
  }
  return workspaceAccess(caller, workspaceId);
}
