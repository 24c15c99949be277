import { type Insertable, type Selectable, type Updateable, sql } from 'kysely';
import { type Executor, inTransaction } from './connect.js';
import type { WebhookMessageStatus } from './schema-publications.js';
import type { WebhookEndpointsTable } from './schema-webhook-endpoints.js';
import type { WebhookAttemptRow, WebhookMessageRow } from './webhooks.js';
import { pageOf } from './paging.js';

/** Integrators' event webhook endpoints (docs/webhooks.md); their messages live in the shared webhook tables. */
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;

export async function insertWebhookEndpoint(db: Executor, row: Insertable<WebhookEndpointsTable>): Promise<WebhookEndpointRow> {
  return db.insertInto('webhook_endpoints').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function getWebhookEndpoint(db: Executor, id: string): Promise<WebhookEndpointRow | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A workspace's endpoints, oldest first. */
export async function listWebhookEndpoints(
  db: Executor,
  workspaceId: string,
  page: { offset: number; limit: number },
): Promise<{ items: WebhookEndpointRow[]; total: number }> {
  const base = db.selectFrom('webhook_endpoints').where('workspace_id', '=', workspaceId);
  return pageOf(base, (qb) => qb.selectAll(), ['created_at', 'id'], page);
}

export async function countWebhookEndpoints(db: Executor, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateWebhookEndpoint(
  db: Executor,
  id: string,
  patch: Updateable<WebhookEndpointsTable>,
): Promise<WebhookEndpointRow | undefined> {
  return db
    .updateTable('webhook_endpoints')
    .set({ ...patch, updated_at: sql<Date>`clock_timestamp()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Deletes an endpoint with its health row. Its messages stay (listed nowhere, kept for the record); one still
 * being retried finds no target at its next attempt and fails for good, sending nothing.
 */
export async function deleteWebhookEndpoint(db: Executor, id: string): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const deleted = await tx.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
    await tx.deleteFrom('webhook_target_health').where('target_kind', '=', 'webhook_endpoint').where('target_id', '=', id).execute();
    return Number(deleted.numDeletedRows) > 0;
  });
}

export type WebhookDeliveryRow = WebhookMessageRow & { attempt_rows: WebhookAttemptRow[] };

/** An endpoint's messages, newest first, each with its attempts (oldest first); optionally only those in one status. */
export async function listWebhookEndpointDeliveries(
  db: Executor,
  endpointId: string,
  page: { offset: number; limit: number; status?: WebhookMessageStatus },
): Promise<{ items: WebhookDeliveryRow[]; total: number }> {
  let base = db.selectFrom('webhook_messages').where('target_kind', '=', 'webhook_endpoint').where('target_id', '=', endpointId);
  if (page.status) base = base.where('status', '=', page.status);
  const { items: messages, total } = await pageOf(
    base,
    (qb) => qb.selectAll(),
    [
      ['created_at', 'desc'],
      ['id', 'desc'],
    ],
    page,
  );
  const attempts =
    messages.length === 0
      ? []
      : await db
          .selectFrom('webhook_attempts')
          .selectAll()
          .where(
            'message_id',
            'in',
            messages.map((m) => m.id),
          )
          .orderBy('id')
          .execute();
  const byMessage = new Map<string, WebhookAttemptRow[]>();
  for (const a of attempts) byMessage.set(a.message_id, [...(byMessage.get(a.message_id) ?? []), a]);
  return { items: messages.map((m) => ({ ...m, attempt_rows: byMessage.get(m.id) ?? [] })), total };
}
