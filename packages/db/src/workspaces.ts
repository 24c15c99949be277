import type { Selectable } from 'kysely';
import type { Db } from './connect';
import type { MembershipsTable, WorkspacesTable } from './schema';

export type WorkspaceRow = Selectable<WorkspacesTable>;
export type Role = Selectable<MembershipsTable>['role'];

export async function getMembership(db: Db, workspaceId: string, userId: string): Promise<Role | undefined> {
  const row = await db
    .selectFrom('memberships')
    .select('role')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.role;
}

/** The caller's default workspace: the first one they were made a member of. */
export async function defaultWorkspaceId(db: Db, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('memberships')
    .select('workspace_id')
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('workspace_id')
    .limit(1)
    .executeTakeFirst();
  return row?.workspace_id;
}

export async function getWorkspace(db: Db, id: string): Promise<WorkspaceRow | undefined> {
  return db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
}
