import { OpenAPIHono } from '@hono/zod-openapi';
import {
  type MemberRow,
  type MembershipChange,
  addMember,
  changeMembership,
  createWorkspace,
  findUserByEmail,
  getWorkspace,
  listMembers,
  listWorkspacesForUser,
} from '@atelier/db';
import { newUuid } from '@atelier/domain';
import { Pagination } from '@atelier/contracts/common';
import {
  MemberAddRequest,
  MemberParams,
  MemberUpdateRequest,
  Workspace,
  WorkspaceCreateRequest,
  WorkspaceIdParam,
  WorkspaceMember,
  WorkspaceList,
  WorkspaceMemberList,
} from '@atelier/contracts/workspaces';
import { requireAccountScope, requireWriter, workspaceAccess, writerAccess } from '../access.js';
import { fail, validationHook } from '../errors.js';
import { kept } from '../kept/index.js';
import type { AppEnv } from '../services.js';
import { callerOf } from '../http/caller.js';
import { presentMember, presentWorkspace } from '../presenters/workspace.js';
import { presentPage } from '../presenters/page.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('workspaces');

/*
 * Who may change memberships. Owners and admins manage members; the owner role itself is the owners'
 * business: an admin may not grant it, nor change or remove an owner (403 admin_required), so an admin can
 * never take a workspace away from its owners. Anyone may remove themselves (leave). Whatever the caller,
 * a workspace always keeps at least one owner (409 last_owner).
 */
const ownerRoleRefused = () => fail.code('admin_required', { message: 'only an owner can grant, change or remove the owner role' });

/** The member after a change (null once removed), or the refusal the change met. */
function settled(result: MembershipChange): MemberRow | null {
  if (result.outcome === 'ok') return result.member;
  if (result.outcome === 'owner_protected') throw ownerRoleRefused();
  if (result.outcome === 'last_owner') throw fail.code('last_owner', { message: 'a workspace must keep at least one owner' });
  throw fail.notFound('member');
}

export const workspaceRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(operation('GET /v1/workspaces', { query: Pagination }, { 200: WorkspaceList }), async (c) => {
    const principal = c.get('principal');
    // A workspace-bound API key sees only its own workspace.
    const page = await listWorkspacesForUser(c.get('services').db, principal.userId, {
      ...c.req.valid('query'),
      onlyWorkspaceId: principal.keyWorkspaceId ?? null,
    });
    return c.json(presentPage(page, presentWorkspace), 200);
  })
  .openapi(operation('POST /v1/workspaces', { body: WorkspaceCreateRequest }, { 201: Workspace }), async (c) => {
    const principal = c.get('principal');
    requireAccountScope(callerOf(c));
    const workspace = await createWorkspace(c.get('services').db, {
      id: newUuid(),
      name: c.req.valid('json').name,
      ownerId: principal.userId,
    });
    return c.json(presentWorkspace(workspace), 201);
  })
  .openapi(operation('GET /v1/workspaces/{workspace_id}', { params: WorkspaceIdParam }, { 200: Workspace }), async (c) => {
    const access = await workspaceAccess(callerOf(c), c.req.valid('param').workspace_id);
    const workspace = await getWorkspace(c.get('services').db, access.workspaceId);
    if (!workspace) throw fail.notFound('workspace', access.workspaceId);
    return c.json(presentWorkspace({ ...workspace, role: access.role }), 200);
  })
  .openapi(
    operation('GET /v1/workspaces/{workspace_id}/members', { params: WorkspaceIdParam, query: Pagination }, { 200: WorkspaceMemberList }),
    async (c) => {
      const access = await workspaceAccess(callerOf(c), c.req.valid('param').workspace_id);
      const page = await listMembers(c.get('services').db, access.workspaceId, c.req.valid('query'));
      return c.json(presentPage(page, presentMember), 200);
    },
  )
  .openapi(
    operation('POST /v1/workspaces/{workspace_id}/members', { params: WorkspaceIdParam, body: MemberAddRequest }, { 201: WorkspaceMember }),
    async (c) => {
      const { db } = c.get('services');
      const body = c.req.valid('json');
      const access = await writerAccess(callerOf(c), c.req.valid('param').workspace_id);
      if (body.role === 'owner' && access.role !== 'owner') throw ownerRoleRefused();
      const user = await findUserByEmail(db, body.email);
      if (!user) throw fail.notFound('user');
      const member = await addMember(db, access.workspaceId, user.id, body.role);
      kept(c.get('services')).apiKeys.forget();
      if (!member) throw fail.code('member_exists', { message: 'this user is already a member of the workspace' });
      return c.json(presentMember(member), 201);
    },
  )
  .openapi(
    operation(
      'PATCH /v1/workspaces/{workspace_id}/members/{user_id}',
      { params: MemberParams, body: MemberUpdateRequest },
      { 200: WorkspaceMember },
    ),
    async (c) => {
      const { workspace_id, user_id } = c.req.valid('param');
      const access = await writerAccess(callerOf(c), workspace_id);
      const result = await changeMembership(c.get('services').db, {
        workspaceId: access.workspaceId,
        userId: user_id,
        role: c.req.valid('json').role,
        mayTouchOwners: access.role === 'owner',
      });
      kept(c.get('services')).apiKeys.forget();
      const member = settled(result);
      if (!member) throw fail.notFound('member');
      return c.json(presentMember(member), 200);
    },
  )
  .openapi(
    operation('DELETE /v1/workspaces/{workspace_id}/members/{user_id}', { params: MemberParams }, { 204: { description: 'Removed' } }),
    async (c) => {
      const { workspace_id, user_id } = c.req.valid('param');
      const access = await workspaceAccess(callerOf(c), workspace_id);
      const leaving = user_id === c.get('principal').userId;
      if (!leaving) requireWriter(access);
      const result = await changeMembership(c.get('services').db, {
        workspaceId: access.workspaceId,
        userId: user_id,
        role: null,
        mayTouchOwners: leaving || access.role === 'owner',
      });
      kept(c.get('services')).apiKeys.forget();
      settled(result);
      return c.body(null, 204);
    },
  );
