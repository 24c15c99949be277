import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from './connect.js';
import { enqueueEngineCommand } from './engine-commands.js';
import type { Executor } from './connect.js';
import type {
  WebhookAttemptOutcome,
  WebhookAttemptsTable,
  WebhookMessagesTable,
  WebhookTargetHealthTable,
  WebhookTargetKind,
} from './schema-publications.js';
import { pageOf } from './paging.js';

/**
 * The generic outbound webhook records, shared by every kind of target (publications today, integrator
 * event webhooks later): messages (one per event; the body every attempt sends), attempts, and health.
 */
export type WebhookMessageRow = Selectable<WebhookMessagesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;
export type WebhookHealthRow = Selectable<WebhookTargetHealthTable>;

/**
 * Records a message and, unless `deliver` is false (a verify sent synchronously), the outbox command that
 * has the engine deliver it. Call it in the transaction that writes the change the message announces.
 */
export async function enqueueWebhookMessage(
  tx: Executor,
  row: Insertable<WebhookMessagesTable>,
  deliver = true,
): Promise<WebhookMessageRow> {
  const message = await tx.insertInto('webhook_messages').values(row).returningAll().executeTakeFirstOrThrow();
  if (deliver) await enqueueEngineCommand(tx, 'deliver_webhook', message.id);
  return message;
}

export async function getWebhookMessage(db: Executor, id: string): Promise<WebhookMessageRow | undefined> {
  return db.selectFrom('webhook_messages').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface WebhookAttemptRecord {
  messageId: string;
  targetKind: WebhookTargetKind;
  targetId: string;
  attempt: number;
  webhookTimestamp: number;
  url: string;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  outcome: WebhookAttemptOutcome;
  error: string | null;
  redirectedTo: string | null;
}

/**
 * Records one attempt, moves the target's health and, when the attempt settles the message (delivered,
 * or failed for good), settles it: all in one transaction, so health never disagrees with the attempts.
 */
export async function recordWebhookAttempt(db: Db, a: WebhookAttemptRecord): Promise<WebhookAttemptRow> {
  const ok = a.outcome === 'delivered';
  return db.transaction().execute(async (tx) => {
    const row = await tx
      .insertInto('webhook_attempts')
      .values({
        message_id: a.messageId,
        target_kind: a.targetKind,
        target_id: a.targetId,
        attempt: a.attempt,
        webhook_timestamp: a.webhookTimestamp,
        url: a.url,
        started_at: a.startedAt,
        duration_ms: a.durationMs,
        status_code: a.statusCode,
        outcome: a.outcome,
        error: a.error?.slice(0, 2000) ?? null,
        redirected_to: a.redirectedTo?.slice(0, 2048) ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const settle = a.outcome === 'retrying' ? null : a.outcome;
    await tx
      .updateTable('webhook_messages')
      .set({
        attempts: sql<number>`greatest(attempts, ${a.attempt})`,
        last_error: ok ? null : (a.error?.slice(0, 2000) ?? null),
        ...(settle
          ? {
              status: sql<'delivered' | 'failed'>`case when status = 'pending' then ${settle} else status end`,
              settled_at: sql<Date>`coalesce(settled_at, now())`,
            }
          : {}),
      })
      .where('id', '=', a.messageId)
      .execute();
    await sql`
      INSERT INTO webhook_target_health (target_kind, target_id, last_attempt_at, last_status_code, last_ok, consecutive_failures, last_success_at)
      VALUES (${a.targetKind}, ${a.targetId}, ${a.startedAt}, ${a.statusCode}, ${ok}, ${ok ? 0 : 1}, ${ok ? a.startedAt : null})
      ON CONFLICT (target_kind, target_id) DO UPDATE SET
        last_attempt_at = excluded.last_attempt_at,
        last_status_code = excluded.last_status_code,
        last_ok = excluded.last_ok,
        consecutive_failures = CASE WHEN excluded.last_ok THEN 0 ELSE webhook_target_health.consecutive_failures + 1 END,
        last_success_at = coalesce(excluded.last_success_at, webhook_target_health.last_success_at)`.execute(tx);
    return row;
  });
}

/** Settles a message still pending (its workflow gave up without a final attempt record); false when already settled. */
export async function settleWebhookMessage(
  db: Executor,
  id: string,
  status: 'delivered' | 'failed',
  error: string | null,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_messages')
    .set({ status, settled_at: new Date(), ...(error !== null ? { last_error: error.slice(0, 2000) } : {}) })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export type WebhookAttemptListRow = WebhookAttemptRow & { event_type: string };

/** A target's attempts, newest first, with the event each attempt carried. */
export async function listWebhookAttempts(
  db: Executor,
  kind: WebhookTargetKind,
  targetId: string,
  page: { offset: number; limit: number },
): Promise<{ items: WebhookAttemptListRow[]; total: number }> {
  // The count reads the attempts alone: each has its message (message_id is NOT NULL and cascades), so the join adds columns only.
  const base = db.selectFrom('webhook_attempts as a').where('a.target_kind', '=', kind).where('a.target_id', '=', targetId);
  return pageOf(
    db,
    base,
    (qb) => qb.innerJoin('webhook_messages as m', 'm.id', 'a.message_id').selectAll('a').select('m.event_type'),
    [['a.id', 'desc']],
    page,
  );
}

/** Health rows of the named targets of one kind, by target id (a target never attempted has none). */
export async function webhookHealthOf(db: Executor, kind: WebhookTargetKind, targetIds: string[]): Promise<Map<string, WebhookHealthRow>> {
  if (targetIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('webhook_target_health')
    .selectAll()
    .where('target_kind', '=', kind)
    .where('target_id', 'in', targetIds)
    .execute();
  return new Map(rows.map((r) => [r.target_id, r]));
}
