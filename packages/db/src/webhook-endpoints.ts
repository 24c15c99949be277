import type { Selectable } from 'kysely';
import type { Executor } from './connect.js';
import type { WebhookMessageStatus } from './schema-publications.js';
import type { WebhookEndpointsTable } from './schema-webhook-endpoints.js';
import { signedWebhookTargetStore } from './signed-webhook-targets.js';
import { pageOf } from './paging.js';
import type { WebhookAttemptRow, WebhookMessageRow } from './webhooks.js';

/** Integrators' event webhook endpoints (docs/webhooks.md); their messages live in the shared webhook tables. */
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;

/** An endpoint is a signed webhook target (signed-webhook-targets.ts); its own are the events and its deliveries. */
export const webhookEndpointTargets = signedWebhookTargetStore('webhook_endpoints', 'webhook_endpoint');

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
    db,
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
