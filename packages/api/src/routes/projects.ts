import { OpenAPIHono } from '@hono/zod-openapi';
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
import {
  ListProjectsQuery,
  Project,
  ProjectCreateRequest,
  ProjectParams,
  ProjectUpdateRequest,
  WorkspaceIdParam,
  ProjectList,
} from '@atelier/contracts/workspaces';
import { workspaceAccess, writerAccess } from '../access.js';
import { fail, validationHook } from '../errors.js';
import { PG, refusedBy } from '@atelier/db';
import type { AppEnv } from '../services.js';
import { callerOf } from '../http/caller.js';
import { presentProject } from '../presenters/project.js';
import { presentPage } from '../presenters/page.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('projects');

const projectNotFound = (id: string) => fail.notFound('project', id);

export const projectRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    operation('GET /v1/workspaces/{workspace_id}/projects', { params: WorkspaceIdParam, query: ListProjectsQuery }, { 200: ProjectList }),
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
    operation('POST /v1/workspaces/{workspace_id}/projects', { params: WorkspaceIdParam, body: ProjectCreateRequest }, { 201: Project }),
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
  .openapi(operation('GET /v1/workspaces/{workspace_id}/projects/{project_id}', { params: ProjectParams }, { 200: Project }), async (c) => {
    const { workspace_id, project_id } = c.req.valid('param');
    const access = await workspaceAccess(callerOf(c), workspace_id);
    const project = await getProjectInWorkspace(c.get('services').db, access.workspaceId, project_id);
    if (!project) throw projectNotFound(project_id);
    return c.json(presentProject(project), 200);
  })
  .openapi(
    operation(
      'PATCH /v1/workspaces/{workspace_id}/projects/{project_id}',
      { params: ProjectParams, body: ProjectUpdateRequest },
      { 200: Project },
    ),
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
    operation('DELETE /v1/workspaces/{workspace_id}/projects/{project_id}', { params: ProjectParams }, { 204: { description: 'Deleted' } }),
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
