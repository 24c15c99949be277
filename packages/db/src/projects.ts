import type { Selectable } from 'kysely';
import type { Db } from './connect.js';
import type { ProjectsTable } from './schema.js';
import { pageOf } from './paging.js';

export type ProjectRow = Selectable<ProjectsTable>;

/** A project, only when it belongs to the given workspace. */
export async function getProjectInWorkspace(db: Db, workspaceId: string, projectId: string): Promise<ProjectRow | undefined> {
  return db.selectFrom('projects').selectAll().where('id', '=', projectId).where('workspace_id', '=', workspaceId).executeTakeFirst();
}

/** A project by id, whatever its workspace (callers then check access to that workspace). */
export async function getProject(db: Db, projectId: string): Promise<ProjectRow | undefined> {
  return db.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirst();
}

export interface ProjectListQuery {
  workspaceId: string;
  includeArchived?: boolean;
  /** A client id; null for projects linked to no client; undefined for all. */
  clientId?: string | null;
  offset: number;
  limit: number;
}

/** Projects of a workspace, newest first; archived ones only when asked for. */
export async function listProjects(db: Db, q: ProjectListQuery): Promise<{ items: ProjectRow[]; total: number }> {
  let base = db.selectFrom('projects').where('workspace_id', '=', q.workspaceId);
  if (!q.includeArchived) base = base.where('archived', '=', false);
  if (q.clientId === null) base = base.where('client_id', 'is', null);
  else if (q.clientId !== undefined) base = base.where('client_id', '=', q.clientId);
  return pageOf(db, base, (qb) => qb.selectAll(), [['created_at', 'desc'], 'id'], q);
}

export interface NewProject {
  id: string;
  workspaceId: string;
  name: string;
  kind: string;
  description: string | null;
}

export async function createProject(db: Db, p: NewProject): Promise<ProjectRow> {
  return db
    .insertInto('projects')
    .values({ id: p.id, workspace_id: p.workspaceId, name: p.name, kind: p.kind, description: p.description })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface ProjectPatch {
  name?: string;
  description?: string | null;
  archived?: boolean;
  clientId?: string | null;
}

/** Applies the given fields to a project of the workspace; undefined when there is no such project. */
export async function updateProject(db: Db, workspaceId: string, projectId: string, patch: ProjectPatch): Promise<ProjectRow | undefined> {
  return db
    .updateTable('projects')
    .set({
      updated_at: new Date(),
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.description !== undefined ? { description: patch.description } : {}),
      ...(patch.archived !== undefined ? { archived: patch.archived } : {}),
      ...(patch.clientId !== undefined ? { client_id: patch.clientId } : {}),
    })
    .where('id', '=', projectId)
    .where('workspace_id', '=', workspaceId)
    .returningAll()
    .executeTakeFirst();
}

/** Hard-deletes a project; runs and artifacts that referenced it keep their workspace and lose the project (FK SET NULL). */
export async function deleteProject(db: Db, workspaceId: string, projectId: string): Promise<boolean> {
  const res = await db.deleteFrom('projects').where('id', '=', projectId).where('workspace_id', '=', workspaceId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
