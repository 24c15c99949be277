import { type Insertable, type Selectable, type Updateable, sql } from 'kysely';
import { actAs } from './actor.js';
import type { Db } from './connect.js';
import type { ClientContactsTable, ClientEventsTable, ClientsTable } from './schema-clients.js';
import { createOnce, editRecord } from './managed-records.js';
import { pageOf } from './paging.js';

/** Clients, their contacts, status history and the month's rollup over their projects. */
export type ClientRow = Selectable<ClientsTable>;
export type ClientContactRow = Selectable<ClientContactsTable>;
export type ClientEventRow = Selectable<ClientEventsTable>;

/** Creates a client once per requestId (managed-records.ts), recording who did. */
export async function createClientOnce(
  db: Db,
  row: Insertable<ClientsTable>,
  actorId: string,
): Promise<{ client: ClientRow; created: boolean }> {
  return db.transaction().execute(async (tx) => {
    await actAs(tx, actorId);
    const { row: client, created } = await createOnce(tx, 'clients', row);
    return { client, created };
  });
}

export async function getClient(db: Db, id: string): Promise<ClientRow | undefined> {
  return db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface ClientListQuery {
  workspaceId: string;
  status?: ClientRow['status'];
  includeArchived: boolean;
  offset: number;
  limit: number;
}

function clientFilter(db: Db, f: Omit<ClientListQuery, 'offset' | 'limit'>) {
  let base = db.selectFrom('clients').where('workspace_id', '=', f.workspaceId);
  if (f.status) base = base.where('status', '=', f.status);
  if (!f.includeArchived) base = base.where('archived_at', 'is', null);
  return base;
}

export async function listClients(db: Db, f: ClientListQuery) {
  const base = clientFilter(db, f);
  return pageOf(db, base, (qb) => qb.selectAll(), ['name', 'id'], f);
}

/** Every client matching the filter that counts towards totals (leads and past clients do not). */
export async function clientsInTotals(db: Db, f: Omit<ClientListQuery, 'offset' | 'limit'>): Promise<ClientRow[]> {
  return clientFilter(db, f).selectAll().where('status', 'in', ['active', 'paused']).execute();
}

/** Applies `patch` when the stored etag is still `expectedEtag`; undefined means it was not (or no such client). */
export async function updateClient(
  db: Db,
  id: string,
  expectedEtag: string | undefined,
  patch: Updateable<ClientsTable>,
  actorId: string,
): Promise<ClientRow | undefined> {
  return db.transaction().execute(async (tx) => {
    await actAs(tx, actorId);
    return editRecord(tx, 'clients', id, expectedEtag, patch);
  });
}

export async function clientProjects(db: Db, clientIds: string[]) {
  if (clientIds.length === 0) return [];
  return db
    .selectFrom('projects')
    .select(['id', 'name', 'archived', 'client_id'])
    .where('client_id', 'in', clientIds)
    .orderBy('created_at')
    .execute();
}

export interface ClientMonth {
  costUsd: number;
  waitingOnYou: number;
  made: number;
}

/**
 * The month's figures of each client, from the runs and artifacts of its projects. The cost adds each run's
 * own spend: a sub-workflow child is in its parent's project and summed itself, so it is counted once.
 */
export async function clientMonths(db: Db, clientIds: string[], periodStart: string): Promise<Map<string, ClientMonth>> {
  const months = new Map<string, ClientMonth>(clientIds.map((id) => [id, { costUsd: 0, waitingOnYou: 0, made: 0 }]));
  if (clientIds.length === 0) return months;
  const ids = sql.join(clientIds.map((id) => sql`${id}::uuid`));
  const [runs, made] = await Promise.all([
    sql<{ client_id: string; cost: string | null; waiting: number }>`
      select p.client_id,
             sum(r.actual_usd) filter (where r.created_at >= ${periodStart}::date) as cost,
             count(*) filter (where r.status = 'review') as waiting
      from runs r join projects p on p.id = r.project_id
      where p.client_id in (${ids})
      group by p.client_id`.execute(db),
    sql<{ client_id: string; made: number }>`
      select p.client_id, count(*) as made
      from artifacts a join projects p on p.id = a.project_id
      where p.client_id in (${ids}) and a.created_at >= ${periodStart}::date
      group by p.client_id`.execute(db),
  ]);
  for (const r of runs.rows) Object.assign(months.get(r.client_id)!, { costUsd: Number(r.cost ?? 0), waitingOnYou: Number(r.waiting) });
  for (const r of made.rows) months.get(r.client_id)!.made = Number(r.made);
  return months;
}

export async function listClientEvents(db: Db, clientId: string, page: { offset: number; limit: number }) {
  const base = db.selectFrom('client_events').where('client_id', '=', clientId);
  return pageOf(db, base, (qb) => qb.selectAll(), [['id', 'desc']], page);
}

export async function listClientContacts(db: Db, clientId: string, page: { offset: number; limit: number }) {
  const base = db.selectFrom('client_contacts').where('client_id', '=', clientId);
  return pageOf(db, base, (qb) => qb.selectAll(), ['created_at', 'id'], page);
}

export async function createClientContact(db: Db, row: Insertable<ClientContactsTable>): Promise<ClientContactRow> {
  return db.insertInto('client_contacts').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateClientContact(
  db: Db,
  clientId: string,
  contactId: string,
  patch: Updateable<ClientContactsTable>,
): Promise<ClientContactRow | undefined> {
  return db
    .updateTable('client_contacts')
    .set({ ...patch, updated_at: new Date() })
    .where('client_id', '=', clientId)
    .where('id', '=', contactId)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteClientContact(db: Db, clientId: string, contactId: string): Promise<boolean> {
  const res = await db.deleteFrom('client_contacts').where('client_id', '=', clientId).where('id', '=', contactId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
