import { type Insertable, type Kysely, type Selectable, type Updateable, sql } from 'kysely';
import { type Executor, inTransaction } from './connect.js';
import type { PublicationsTable, WebhookTargetKind } from './schema-publications.js';
import type { WebhookEndpointsTable } from './schema-webhook-endpoints.js';
import { countOf, pageOf } from './paging.js';

/**
 * Signed webhook targets: a workspace's URL with a signing secret sealed at rest, delivered to through the
 * shared webhook tables (messages, attempts, health) under its kind. Publications and integrators' event
 * webhook endpoints are the two; each keeps in its own module only what differs (its table's other
 * columns, its lookups, its events).
 */
export interface SignedWebhookTargetTables {
  publications: PublicationsTable;
  webhook_endpoints: WebhookEndpointsTable;
}

/** The queries every signed webhook target answers, typed by its table. */
export interface SignedWebhookTargetStore<Table> {
  insert(db: Executor, row: Insertable<Table>): Promise<Selectable<Table>>;
  get(db: Executor, id: string): Promise<Selectable<Table> | undefined>;
  /** A workspace's targets, oldest first. */
  list(db: Executor, workspaceId: string, page: { offset: number; limit: number }): Promise<{ items: Selectable<Table>[]; total: number }>;
  count(db: Executor, workspaceId: string): Promise<number>;
  /** Changes the given columns (and updated_at); no row back means no such target. */
  update(db: Executor, id: string, patch: Updateable<Table>): Promise<Selectable<Table> | undefined>;
  /** Replaces the sealed signing secret: the old one stops signing at once, retries of earlier messages included. */
  replaceSecret(db: Executor, id: string, secretSealed: string): Promise<Selectable<Table> | undefined>;
  /**
   * Deletes a target with its health row. Its messages stay (listed nowhere, kept for the record); one still
   * being retried finds no target at its next attempt and fails for good, sending nothing.
   */
  delete(db: Executor, id: string): Promise<boolean>;
}

/** The columns the shared queries name: every target table has them. */
interface TargetColumns {
  id: string;
  workspace_id: string;
  secret_sealed: string;
  secret_rotated_at: Date;
  created_at: Date;
  updated_at: Date;
}

/**
 * The queries of the target stored in `table` whose webhook rows name it `kind`. They are written once
 * against the columns all target tables share (the table name is the only thing that varies in the SQL),
 * then typed by the target's own table.
 */
export function signedWebhookTargetStore<Name extends keyof SignedWebhookTargetTables>(
  table: Name,
  kind: WebhookTargetKind,
): SignedWebhookTargetStore<SignedWebhookTargetTables[Name]> {
  // The one place the table is named: as `target` for the type checker, by its real name in the SQL.
  const target = table as unknown as 'target';
  const on = (db: Executor) => db as unknown as Kysely<{ target: TargetColumns }>;
  const update = (db: Executor, id: string, patch: Updateable<TargetColumns>) =>
    on(db)
      .updateTable(target)
      .set({ ...patch, updated_at: sql<Date>`clock_timestamp()` })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  const store: SignedWebhookTargetStore<TargetColumns> = {
    insert: (db, row) => on(db).insertInto(target).values(row).returningAll().executeTakeFirstOrThrow(),
    get: (db, id) => on(db).selectFrom(target).selectAll().where('id', '=', id).executeTakeFirst(),
    list: (db, workspaceId, page) =>
      pageOf(on(db), on(db).selectFrom(target).where('workspace_id', '=', workspaceId), (qb) => qb.selectAll(), ['created_at', 'id'], page),
    count: (db, workspaceId) => countOf(on(db).selectFrom(target).where('workspace_id', '=', workspaceId)),
    update,
    replaceSecret: (db, id, secretSealed) => update(db, id, { secret_sealed: secretSealed, secret_rotated_at: new Date() }),
    delete: (db, id) =>
      inTransaction(db, async (tx) => {
        const deleted = await on(tx).deleteFrom(target).where('id', '=', id).executeTakeFirst();
        await tx.deleteFrom('webhook_target_health').where('target_kind', '=', kind).where('target_id', '=', id).execute();
        return Number(deleted.numDeletedRows) > 0;
      }),
  };
  return store as unknown as SignedWebhookTargetStore<SignedWebhookTargetTables[Name]>;
}
