import type { Selectable } from 'kysely';
import type { Db } from './connect.js';
import type { MembershipsTable, UsersTable, WorkspacesTable } from './schema.js';
import { pageOf } from './paging.js';

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

/**
 * The workspace a caller acts in when a request names none (an API key's bound workspace, else their
 * default) and their role there, read together with their credential so that a request in it needs no
 * query of its own for access.
 */
export interface HomeMembership {
  /** Null when the caller belongs to no workspace and holds no bound key. */
  workspaceId: string | null;
  /** Null when the caller is not (or no longer) a member of it. */
  role: Role | null;
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

export interface Page {
  offset: number;
  limit: number;
}

export type WorkspaceWithRole = WorkspaceRow & { role: Role };

/** Creates a (non-personal) workspace with its creator as owner. */
export async function createWorkspace(db: Db, w: { id: string; name: string; ownerId: string }): Promise<WorkspaceWithRole> {
  return db.transaction().execute(async (tx) => {
    const workspace = await tx
      .insertInto('workspaces')
      .values({ id: w.id, name: w.name, personal: false })
      .returningAll()
      .executeTakeFirstOrThrow();
    await tx.insertInto('memberships').values({ workspace_id: w.id, user_id: w.ownerId, role: 'owner' }).execute();
    return { ...workspace, role: 'owner' as const };
  });
}

/** The user's workspaces with their role, in the order they joined (the default one first). */
export async function listWorkspacesForUser(
  db: Db,
  userId: string,
  page: Page & { onlyWorkspaceId?: string | null },
): Promise<{ items: WorkspaceWithRole[]; total: number }> {
  let base = db.selectFrom('memberships as m').innerJoin('workspaces as w', 'w.id', 'm.workspace_id').where('m.user_id', '=', userId);
  if (page.onlyWorkspaceId) base = base.where('w.id', '=', page.onlyWorkspaceId);
  return pageOf(db, base, (qb) => qb.selectAll('w').select('m.role'), ['m.created_at', 'w.id'], page);
}

export type MemberRow = Pick<Selectable<UsersTable>, 'email' | 'name'> & { user_id: string; role: Role; created_at: Date };

const memberColumns = ['m.user_id', 'm.role', 'm.created_at', 'u.email', 'u.name'] as const;

/** Members of a workspace with their user's email and name, in the order they joined. */
export async function listMembers(db: Db, workspaceId: string, page: Page): Promise<{ items: MemberRow[]; total: number }> {
  const base = db.selectFrom('memberships as m').innerJoin('users as u', 'u.id', 'm.user_id').where('m.workspace_id', '=', workspaceId);
  return pageOf(db, base, (qb) => qb.select(memberColumns), ['m.created_at', 'm.user_id'], page);
}

export async function getMember(db: Db, workspaceId: string, userId: string): Promise<MemberRow | undefined> {
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(memberColumns)
    .where('m.workspace_id', '=', workspaceId)
    .where('m.user_id', '=', userId)
    .executeTakeFirst();
}

/** Adds a user to a workspace; undefined when they already are a member. */
export async function addMember(db: Db, workspaceId: string, userId: string, role: Role): Promise<MemberRow | undefined> {
  const inserted = await db
    .insertInto('memberships')
    .values({ workspace_id: workspaceId, user_id: userId, role })
    .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doNothing())
    .returning('user_id')
    .executeTakeFirst();
  return inserted ? getMember(db, workspaceId, userId) : undefined;
}

export type MembershipChange = { outcome: 'ok'; member: MemberRow | null } | { outcome: 'not_member' | 'last_owner' | 'owner_protected' };

/**
 * Changes a member's role (`role`) or removes them (`role: null`), under a lock on the workspace so that
 * concurrent changes cannot leave it without an owner. When `mayTouchOwners` is false, granting the owner
 * role or changing or removing an owner is refused with `owner_protected`.
 */
export async function changeMembership(
  db: Db,
  c: { workspaceId: string; userId: string; role: Role | null; mayTouchOwners: boolean },
): Promise<MembershipChange> {
  return db.transaction().execute(async (tx) => {
    await tx.selectFrom('workspaces').select('id').where('id', '=', c.workspaceId).forUpdate().executeTakeFirst();
    const current = await tx
      .selectFrom('memberships')
      .select('role')
      .where('workspace_id', '=', c.workspaceId)
      .where('user_id', '=', c.userId)
      .executeTakeFirst();
    if (!current) return { outcome: 'not_member' } as const;
    if (!c.mayTouchOwners && (current.role === 'owner' || c.role === 'owner') && current.role !== c.role) {
      return { outcome: 'owner_protected' } as const;
    }
    if (current.role === 'owner' && c.role !== 'owner') {
      const owners = await tx
        .selectFrom('memberships')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('workspace_id', '=', c.workspaceId)
        .where('role', '=', 'owner')
        .executeTakeFirstOrThrow();
      if (Number(owners.n) <= 1) return { outcome: 'last_owner' } as const;
    }
    if (c.role === null) {
      await tx.deleteFrom('memberships').where('workspace_id', '=', c.workspaceId).where('user_id', '=', c.userId).execute();
      return { outcome: 'ok', member: null } as const;
    }
    await tx
      .updateTable('memberships')
      .set({ role: c.role })
      .where('workspace_id', '=', c.workspaceId)
      .where('user_id', '=', c.userId)
      .execute();
    return { outcome: 'ok', member: (await getMember(tx as unknown as Db, c.workspaceId, c.userId)) ?? null } as const;
  });
}
