import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db } from './connect.js';
import type { Executor } from './connect.js';
import type {
  CampaignRequestEntriesTable,
  CampaignStatus,
  CampaignsTable,
  ManagedRequestState,
  OpsNotificationsTable,
  OpsTasksTable,
} from './schema-brands.js';
import { pageOf } from './paging.js';

export type CampaignRow = Selectable<CampaignsTable>;
export type CampaignRequestEntryRow = Selectable<CampaignRequestEntriesTable>;
export type OpsTaskRow = Selectable<OpsTasksTable> & { campaign_name: string; project_id: string; request_state: string | null };
export type OpsNotificationRow = Selectable<OpsNotificationsTable>;

export interface NewCampaign {
  id: string;
  workspaceId: string;
  projectId: string;
  name: string;
  brief: Record<string, unknown>;
  brandSnapshotId: string;
  etag: string;
  createdBy: string | null;
}

export async function insertCampaign(db: Executor, c: NewCampaign): Promise<CampaignRow> {
  return db
    .insertInto('campaigns')
    .values({
      id: c.id,
      workspace_id: c.workspaceId,
      project_id: c.projectId,
      name: c.name,
      brief: JSON.stringify(c.brief),
      brand_snapshot_id: c.brandSnapshotId,
      etag: c.etag,
      created_by: c.createdBy,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function getCampaign(db: Executor, id: string): Promise<CampaignRow | undefined> {
  return db.selectFrom('campaigns').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface CampaignListQuery {
  projectId: string;
  status?: CampaignStatus;
  includeArchived?: boolean;
  offset: number;
  limit: number;
}

export async function listCampaigns(db: Db, q: CampaignListQuery): Promise<{ items: CampaignRow[]; total: number }> {
  let base = db.selectFrom('campaigns').where('project_id', '=', q.projectId);
  if (q.status) base = base.where('status', '=', q.status);
  if (!q.includeArchived) base = base.where('archived', '=', false);
  return pageOf(db, base, (qb) => qb.selectAll(), [['created_at', 'desc'], 'id'], q);
}

/** Edits a draft campaign; undefined when it is no longer a draft (or the etag, when given, is stale). */
export async function updateDraftCampaign(
  db: Executor,
  id: string,
  patch: { name?: string; brief?: Record<string, unknown> },
  etag: string,
  expectedEtag?: string,
): Promise<CampaignRow | undefined> {
  let q = db
    .updateTable('campaigns')
    .set({
      etag,
      updated_at: new Date(),
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.brief !== undefined ? { brief: JSON.stringify(patch.brief) } : {}),
    })
    .where('id', '=', id)
    .where('status', '=', 'draft');
  if (expectedEtag !== undefined) q = q.where('etag', '=', expectedEtag);
  return q.returningAll().executeTakeFirst();
}

/**
 * Draft → submitted with the managed request received, one operator task and one inbox notification,
 * all in one transaction. Only the call that moves the row writes anything: concurrent and repeated
 * submits find it submitted already and write nothing. Returns the campaign and whether this call moved it.
 */
export async function submitCampaign(
  db: Db,
  id: string,
  message: string,
): Promise<{ campaign: CampaignRow; submitted: boolean } | undefined> {
  return db.transaction().execute(async (tx) => {
    const moved = await tx
      .updateTable('campaigns')
      .set({ status: 'submitted', request_state: 'received', submitted_at: new Date(), updated_at: new Date(), etag: randomUUID() })
      .where('id', '=', id)
      .where('status', '=', 'draft')
      .returningAll()
      .executeTakeFirst();
    if (!moved) {
      const current = await getCampaign(tx, id);
      return current ? { campaign: current, submitted: false } : undefined;
    }
    await tx
      .insertInto('ops_tasks')
      .values({ id: randomUUID(), kind: 'campaign_submitted', campaign_id: id, workspace_id: moved.workspace_id })
      .onConflict((oc) => oc.columns(['kind', 'campaign_id']).doNothing())
      .execute();
    await tx
      .insertInto('ops_notifications')
      .values({ id: randomUUID(), kind: 'campaign_submitted', campaign_id: id, workspace_id: moved.workspace_id, message })
      .onConflict((oc) => oc.columns(['kind', 'campaign_id']).doNothing())
      .execute();
    await tx
      .insertInto('campaign_request_entries')
      .values({
        id: randomUUID(),
        campaign_id: id,
        from_state: null,
        to_state: 'received',
        note: null,
        visibility: 'campaign',
        actor_id: moved.created_by,
      })
      .execute();
    return { campaign: moved, submitted: true };
  });
}

/** Soft archive; a no-op when archived already. */
export async function archiveCampaign(db: Executor, id: string): Promise<CampaignRow | undefined> {
  await db
    .updateTable('campaigns')
    .set({ archived: true, updated_at: new Date(), etag: randomUUID() })
    .where('id', '=', id)
    .where('archived', '=', false)
    .execute();
  return getCampaign(db, id);
}

export async function listCampaignRequestEntries(
  db: Executor,
  campaignId: string,
  visibility?: 'campaign',
): Promise<CampaignRequestEntryRow[]> {
  let q = db.selectFrom('campaign_request_entries').selectAll().where('campaign_id', '=', campaignId);
  if (visibility) q = q.where('visibility', '=', visibility);
  return q.orderBy('created_at').orderBy('id').execute();
}

/**
 * An operator's move of the managed request and/or note. `allowed(from, to)` judges the move under a
 * row lock; false refuses it (returns `refused` with the current state). Reaching in_production makes
 * the campaign producing; closing the request closes its queue task.
 */
export async function moveCampaignRequest(
  db: Db,
  id: string,
  move: { to?: ManagedRequestState; note?: string; visibility: 'internal' | 'campaign'; actorId: string },
  allowed: (from: ManagedRequestState, to: ManagedRequestState) => boolean,
): Promise<{ campaign: CampaignRow } | { refused: CampaignRow } | undefined> {
  return db.transaction().execute(async (tx) => {
    const current = await tx.selectFrom('campaigns').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    if (!current) return undefined;
    const from = current.request_state;
    if (move.to !== undefined && (from === null || !allowed(from, move.to))) return { refused: current };
    let campaign = current;
    if (move.to !== undefined) {
      const status: CampaignStatus = move.to === 'in_production' || current.status === 'producing' ? 'producing' : current.status;
      campaign = await tx
        .updateTable('campaigns')
        .set({ request_state: move.to, status, updated_at: new Date(), etag: randomUUID() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (move.to === 'closed') {
        await tx.updateTable('ops_tasks').set({ status: 'done', updated_at: new Date() }).where('campaign_id', '=', id).execute();
      }
    }
    await tx
      .insertInto('campaign_request_entries')
      .values({
        id: randomUUID(),
        campaign_id: id,
        from_state: move.to !== undefined ? from : null,
        to_state: move.to ?? null,
        note: move.note ?? null,
        visibility: move.visibility,
        actor_id: move.actorId,
      })
      .execute();
    return { campaign };
  });
}

// ----- operators ----------------------------------------------------------------------------------

export async function isPlatformOperator(db: Executor, userId: string): Promise<boolean> {
  return (await db.selectFrom('platform_operators').select('user_id').where('user_id', '=', userId).executeTakeFirst()) !== undefined;
}

/** Emails are matched case-insensitively and trimmed, as the operator commands take them from a person typing. */
const userByEmail = (db: Db, email: string) =>
  db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
    .executeTakeFirst();

/** Grants the operator role to the user with this email (case-insensitive); false when there is no such user. */
export async function grantPlatformOperator(db: Db, email: string, grantedBy: string): Promise<'granted' | 'already' | 'no_user'> {
  const user = await userByEmail(db, email);
  if (!user) return 'no_user';
  const row = await db
    .insertInto('platform_operators')
    .values({ user_id: user.id, granted_by: grantedBy })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .returning('user_id')
    .executeTakeFirst();
  return row ? 'granted' : 'already';
}

export async function revokePlatformOperator(db: Db, email: string): Promise<'revoked' | 'not_operator' | 'no_user'> {
  const user = await userByEmail(db, email);
  if (!user) return 'no_user';
  const res = await db.deleteFrom('platform_operators').where('user_id', '=', user.id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0 ? 'revoked' : 'not_operator';
}

export async function listPlatformOperators(db: Db): Promise<Array<{ email: string; granted_by: string; granted_at: Date }>> {
  return db
    .selectFrom('platform_operators as o')
    .innerJoin('users as u', 'u.id', 'o.user_id')
    .select(['u.email', 'o.granted_by', 'o.granted_at'])
    .orderBy('o.granted_at')
    .execute();
}

export async function listOpsTasks(
  db: Db,
  q: { status?: 'open' | 'done'; offset: number; limit: number },
): Promise<{ items: OpsTaskRow[]; total: number }> {
  let base = db.selectFrom('ops_tasks as t').innerJoin('campaigns as c', 'c.id', 't.campaign_id');
  if (q.status) base = base.where('t.status', '=', q.status);
  return pageOf(
    db,
    base,
    (qb) => qb.selectAll('t').select(['c.name as campaign_name', 'c.project_id', 'c.request_state']),
    [['t.created_at', 'desc'], 't.id'],
    q,
  );
}

export async function listOpsNotifications(
  db: Db,
  q: { offset: number; limit: number },
): Promise<{ items: OpsNotificationRow[]; total: number }> {
  const base = db.selectFrom('ops_notifications');
  return pageOf(db, base, (qb) => qb.selectAll(), [['created_at', 'desc'], 'id'], q);
}
