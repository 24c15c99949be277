import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import {
  createProject,
  deleteProject,
  getClient,
  projectHasCharacters,
  getProjectInWorkspace,
  listProjects,
  updateProject,
} from '@atelier/db';
import { newUuid } from '@atelier/domain';
import { listOf } from '@atelier/contracts/common';
import {
  ListProjectsQuery,
  Project,
  ProjectCreateRequest,
  ProjectParams,
  ProjectUpdateRequest,
  WorkspaceIdParam,
} from '@atelier/contracts/workspaces';
import { workspaceAccess, writerAccess } from '../access.js';
import { errorResponses, fail, validationHook } from '../errors.js';
import { PG, refusedBy } from '@atelier/db';
import type { AppEnv } from '../services.js';
import { json, jsonBody, secured, WHO_MAY_CALL } from '../http/route.js';
import { callerOf } from '../http/caller.js';
import { presentProject } from '../presenters/project.js';
import { presentPage } from '../presenters/page.js';

const projectNotFound = (id: string) => fail.notFound('project', id);

export const projectRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    createRoute({
      ...secured('projects'),
      method: 'get',
      path: '/v1/workspaces/{workspace_id}/projects',
      summary: 'Projects of a workspace, newest first; archived ones only with includeArchived=true',
      description: `The projects of a workspace, newest first and paged; archived ones appear only with includeArchived=true, and clientId filters by client (none for the organization's own). ${WHO_MAY_CALL.member}`,
      request: { params: WorkspaceIdParam, query: ListProjectsQuery },
      responses: { 200: { description: 'Projects', ...json(listOf(Project, 'ProjectList')) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const access = await workspaceAccess(callerOf(c), c.req.valid('param').workspace_id);
      const page = await listProjects(c.get('services').db, {
        workspaceId: access.workspaceId,
        includeArchived: q.includeArchived ?? false,
        clientId: q.clientId === 'none' ? null : q.clientId,
        offset: q.offset,
        limit: q.limit,
      });
      return c.json(presentPage(page, presentProject), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('projects'),
      method: 'post',
      path: '/v1/workspaces/{workspace_id}/projects',
      summary: 'Create a project (owners and admins)',
      description: `Creates a project in the workspace. ${WHO_MAY_CALL.admin}`,
      request: { params: WorkspaceIdParam, body: jsonBody(ProjectCreateRequest) },
      responses: { 201: { description: 'The project', ...json(Project) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const access = await writerAccess(callerOf(c), c.req.valid('param').workspace_id);
      const project = await createProject(c.get('services').db, {
        id: newUuid(),
        workspaceId: access.workspaceId,
        name: body.name,
        kind: body.kind,
        description: body.description ?? null,
      });
      return c.json(presentProject(project), 201);
    },
  )
  .openapi(
    createRoute({
      ...secured('projects'),
      method: 'get',
      path: '/v1/workspaces/{workspace_id}/projects/{project_id}',
      summary: 'A project',
      description: `A project of the workspace. ${WHO_MAY_CALL.member}`,
      request: { params: ProjectParams },
      responses: { 200: { description: 'The project', ...json(Project) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const { workspace_id, project_id } = c.req.valid('param');
      const access = await workspaceAccess(callerOf(c), workspace_id);
      const project = await getProjectInWorkspace(c.get('services').db, access.workspaceId, project_id);
      if (!project) throw projectNotFound(project_id);
      return c.json(presentProject(project), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('projects'),
      method: 'patch',
      path: '/v1/workspaces/{workspace_id}/projects/{project_id}',
      summary: 'Rename, describe, archive or unarchive a project, or link or unlink its client (owners and admins)',
      description:
        'Renames, describes, archives or unarchives a project, or links it to a client (clientId) or unlinks it (null); a project belongs to at most one client. Owners and admins only (403 admin_required); a client outside the workspace is 422 client_not_found.',
      request: { params: ProjectParams, body: jsonBody(ProjectUpdateRequest) },
      responses: { 200: { description: 'The project', ...json(Project) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const { workspace_id, project_id } = c.req.valid('param');
      const body = c.req.valid('json');
      const access = await writerAccess(callerOf(c), workspace_id);
      const { db } = c.get('services');
      if (!(await getProjectInWorkspace(db, access.workspaceId, project_id))) throw projectNotFound(project_id);
      const clientNotFound = () => fail.code('client_not_found', { message: `client ${body.clientId} not found in this workspace` });
      if (body.clientId) {
        const client = await getClient(db, body.clientId);
        if (!client || client.workspace_id !== access.workspaceId || client.archived_at) throw clientNotFound();
      }
      // The database refuses a link across workspaces too (a composite foreign key), e.g. a client moved meanwhile.
      const project = await refusedBy(
        () => updateProject(db, access.workspaceId, project_id, body),
        [PG.foreignKeyViolation],
        clientNotFound,
      );
      if (!project) throw projectNotFound(project_id);
      return c.json(presentProject(project), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('projects'),
      method: 'delete',
      path: '/v1/workspaces/{workspace_id}/projects/{project_id}',
      summary: 'Delete a project for good (owners and admins); its runs and artifacts stay, at workspace level',
      description:
        'A hard delete, by owners and admins only (403 admin_required); a project with characters is refused with 409 project_has_characters. Archiving (PATCH archived=true) is preferred: it hides the project from lists and keeps it.',
      request: { params: ProjectParams },
      responses: { 204: { description: 'Deleted' }, ...errorResponses(401, 403, 404, 409, 422) },
    }),
    async (c) => {
      const { workspace_id, project_id } = c.req.valid('param');
      const access = await writerAccess(callerOf(c), workspace_id);
      const { db } = c.get('services');
      const refuse = () => fail.code('project_has_characters', { message: 'this project has characters; archive it instead' });
      // Only a project of this workspace is looked into: a foreign id is not found, like a random one.
      if (!(await getProjectInWorkspace(db, access.workspaceId, project_id))) throw projectNotFound(project_id);
      if (await projectHasCharacters(db, project_id)) throw refuse();
      // A character created meanwhile is caught by the database (characters reference projects without cascade).
      const deleted = await refusedBy(() => deleteProject(db, access.workspaceId, project_id), [PG.foreignKeyViolation], refuse);
      if (!deleted) throw projectNotFound(project_id);
      return c.body(null, 204);
    },
  );
