import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
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
import { Pagination, listOf } from '@atelier/contracts/common';
import {
  MemberAddRequest,
  MemberParams,
  MemberUpdateRequest,
  Workspace,
  WorkspaceCreateRequest,
  WorkspaceIdParam,
  WorkspaceMember,
} from '@atelier/contracts/workspaces';
import { requireAccountScope, requireWriter, workspaceAccess, writerAccess } from '../access.js';
import { errorResponses, fail, validationHook } from '../errors.js';
import { kept } from '../kept/index.js';
import type { AppEnv } from '../services.js';
import { json, jsonBody, secured, WHO_MAY_CALL } from '../http/route.js';
import { callerOf } from '../http/caller.js';
import { presentMember, presentWorkspace } from '../presenters/workspace.js';
import { presentPage } from '../presenters/page.js';

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
  .openapi(
    createRoute({
      ...secured('workspaces'),
      method: 'get',
      path: '/v1/workspaces',
      summary: 'Your workspaces with your role in each, the default one first',
      description:
        "The workspaces the caller is a member of, with the caller's role in each, the default one first, paged. A workspace-bound API key sees only its workspace.",
      request: { query: Pagination },
      responses: { 200: { description: 'Workspaces', ...json(listOf(Workspace, 'WorkspaceList')) }, ...errorResponses(401, 422) },
    }),
    async (c) => {
      const principal = c.get('principal');
      // A workspace-bound API key sees only its own workspace.
      const page = await listWorkspacesForUser(c.get('services').db, principal.userId, {
        ...c.req.valid('query'),
        onlyWorkspaceId: principal.keyWorkspaceId ?? null,
      });
      return c.json(presentPage(page, presentWorkspace), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('workspaces'),
      method: 'post',
      path: '/v1/workspaces',
      summary: 'Create a workspace; you become its owner',
      description:
        'Creates a workspace with the caller as its owner. A workspace-bound API key cannot create workspaces (403 account_scope_required).',
      request: { body: jsonBody(WorkspaceCreateRequest) },
      responses: { 201: { description: 'The workspace', ...json(Workspace) }, ...errorResponses(401, 403, 422) },
    }),
    async (c) => {
      const principal = c.get('principal');
      requireAccountScope(callerOf(c));
      const workspace = await createWorkspace(c.get('services').db, {
        id: newUuid(),
        name: c.req.valid('json').name,
        ownerId: principal.userId,
      });
      return c.json(presentWorkspace(workspace), 201);
    },
  )
  .openapi(
    createRoute({
      ...secured('workspaces'),
      method: 'get',
      path: '/v1/workspaces/{workspace_id}',
      summary: 'A workspace you are a member of, with your role',
      description:
        "A workspace the caller is a member of, with the caller's role. Any other workspace is 404; a workspace-bound key reaching another workspace gets 403.",
      request: { params: WorkspaceIdParam },
      responses: { 200: { description: 'The workspace', ...json(Workspace) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const access = await workspaceAccess(callerOf(c), c.req.valid('param').workspace_id);
      const workspace = await getWorkspace(c.get('services').db, access.workspaceId);
      if (!workspace) throw fail.notFound('workspace', access.workspaceId);
      return c.json(presentWorkspace({ ...workspace, role: access.role }), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('workspaces'),
      method: 'get',
      path: '/v1/workspaces/{workspace_id}/members',
      summary: 'Members of a workspace and their roles',
      description: `The members of a workspace with their roles (owner, admin, member). ${WHO_MAY_CALL.member}`,
      request: { params: WorkspaceIdParam, query: Pagination },
      responses: {
        200: { description: 'Members', ...json(listOf(WorkspaceMember, 'WorkspaceMemberList')) },
        ...errorResponses(401, 403, 404, 422),
      },
    }),
    async (c) => {
      const access = await workspaceAccess(callerOf(c), c.req.valid('param').workspace_id);
      const page = await listMembers(c.get('services').db, access.workspaceId, c.req.valid('query'));
      return c.json(presentPage(page, presentMember), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('workspaces'),
      method: 'post',
      path: '/v1/workspaces/{workspace_id}/members',
      summary: 'Add an existing user to a workspace (owners and admins)',
      description:
        'Adds an existing user to the workspace with a role. Owners and admins only (403 admin_required), and only an owner may grant the owner role; a user already a member is 409 member_exists.',
      request: { params: WorkspaceIdParam, body: jsonBody(MemberAddRequest) },
      responses: { 201: { description: 'The new member', ...json(WorkspaceMember) }, ...errorResponses(401, 403, 404, 409, 422) },
    }),
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
    createRoute({
      ...secured('workspaces'),
      method: 'patch',
      path: '/v1/workspaces/{workspace_id}/members/{user_id}',
      summary: "Change a member's role (owners and admins; only owners touch the owner role)",
      description:
        "Changes a member's role. Owners and admins only (403 admin_required), and only an owner may grant, change or remove the owner role; demoting the last owner is 409 last_owner.",
      request: { params: MemberParams, body: jsonBody(MemberUpdateRequest) },
      responses: { 200: { description: 'The member', ...json(WorkspaceMember) }, ...errorResponses(401, 403, 404, 409, 422) },
    }),
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
    createRoute({
      ...secured('workspaces'),
      method: 'delete',
      path: '/v1/workspaces/{workspace_id}/members/{user_id}',
      summary: 'Remove a member (owners and admins), or leave a workspace yourself',
      description:
        'Removes a member; any member may remove themselves (leave). Removing someone else needs an owner or admin (403 admin_required), removing an owner needs an owner, and the last owner cannot leave (409 last_owner).',
      request: { params: MemberParams },
      responses: { 204: { description: 'Removed' }, ...errorResponses(401, 403, 404, 409, 422) },
    }),
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
