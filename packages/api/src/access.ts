import type { Context } from 'hono';
import { type Role, defaultWorkspaceId, getMembership } from '@atelier/db';
import { fail } from './errors';
import type { AppEnv } from './services';

export interface WorkspaceAccess {
  workspaceId: string;
  role: Role;
}

/**
 * Resolves the workspace a request acts in (the one named, else the key's, else the caller's default)
 * and the caller's role there. A workspace-bound key naming another workspace is 403; a workspace the
 * caller is not a member of is reported as not found.
 */
export async function workspaceAccess(c: Context<AppEnv>, workspaceId?: string | null): Promise<WorkspaceAccess> {
  const { db } = c.get('services');
  const principal = c.get('principal');
  const bound = principal.keyWorkspaceId ?? null;
  if (workspaceId && bound && workspaceId !== bound) {
    throw fail.forbidden('this API key is bound to another workspace');
  }
  const target = workspaceId ?? bound ?? (await defaultWorkspaceId(db, principal.userId));
  if (!target) throw fail.notFound('workspace not found');
  const role = await getMembership(db, target, principal.userId);
  if (!role) throw fail.notFound(`workspace ${target} not found`);
  return { workspaceId: target, role };
}

/** Access to an existing resource that lives in `workspaceId`: 404 to outsiders, 403 to a key bound elsewhere. */
export async function resourceAccess(c: Context<AppEnv>, workspaceId: string, notFoundMessage: string): Promise<WorkspaceAccess> {
  const { db } = c.get('services');
  const principal = c.get('principal');
  const role = await getMembership(db, workspaceId, principal.userId);
  if (!role) throw fail.notFound(notFoundMessage);
  if (principal.keyWorkspaceId && principal.keyWorkspaceId !== workspaceId) {
    throw fail.forbidden('this API key is bound to another workspace');
  }
  return { workspaceId, role };
}

export function requireWriter(access: WorkspaceAccess): void {
  if (access.role === 'member') throw fail.adminRequired();
}
