import type { Selectable } from 'kysely';
import type { Db } from './connect';
import type { ProjectsTable } from './schema';

export type ProjectRow = Selectable<ProjectsTable>;

/** A project, only when it belongs to the given workspace. */
export async function getProjectInWorkspace(db: Db, workspaceId: string, projectId: string): Promise<ProjectRow | undefined> {
  return db.selectFrom('projects').selectAll().where('id', '=', projectId).where('workspace_id', '=', workspaceId).executeTakeFirst();
}
