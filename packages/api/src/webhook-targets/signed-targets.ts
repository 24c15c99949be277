import { type Executor, type WebhookAttemptRow, type WebhookHealthRow, type WebhookTargetKind, webhookHealthOf } from '@atelier/db';
import { secretsKeyFromEnv } from '@atelier/engine/webhooks/index';
import { visibleRecord } from '../access.js';
import type { Caller } from '../caller.js';
import { type NotFoundNoun, fail } from '../errors.js';
import { iso } from '../presenters/time.js';

/**
 * Signed webhook targets: a workspace's URL with a signing secret sealed at rest (shown once, at creation
 * and at each rotation), delivered to per Standard Webhooks, with its delivery health. Publications and
 * event webhook endpoints are the two; this module holds what they share (access, records, the secrets
 * key), and routes/signed-target-routes.ts the operations they share (create, list, read, change, rotate
 * the secret, deliveries).
 */

export type DeliveryHealth = ReturnType<typeof presentHealth>;

export function presentHealth(h: WebhookHealthRow | undefined) {
  if (!h) return { status: 'unknown' as const, lastAttemptAt: null, lastStatusCode: null, consecutiveFailures: 0 };
  return {
    status: h.last_ok ? ('healthy' as const) : ('failing' as const),
    lastAttemptAt: iso(h.last_attempt_at),
    lastStatusCode: h.last_status_code,
    consecutiveFailures: h.consecutive_failures,
  };
}

/** One attempt at delivering a message, as every target's delivery listing shows it. */
export function presentAttemptOf(a: WebhookAttemptRow) {
  return {
    attempt: a.attempt,
    attemptedAt: iso(a.started_at),
    webhookTimestamp: Number(a.webhook_timestamp),
    url: a.url,
    statusCode: a.status_code,
    outcome: a.outcome,
    error: a.error,
    redirectedTo: a.redirected_to,
    durationMs: a.duration_ms,
  };
}

/** The deployment's secrets key; a gateway without one cannot create, rotate or verify (503, naming the setting). */
export function secretsKeyOf(caller: Caller): Buffer {
  const key = caller.services.secretsKey ?? secretsKeyFromEnv(process.env);
  if (!key) throw fail.unavailable('webhook signing secrets cannot be sealed: ATELIER_SECRETS_KEY is not set on this gateway', 60);
  return key;
}

export type TargetRow = { id: string; workspace_id: string; secret_rotated_at: Date; created_at: Date; updated_at: Date };

/** One kind of signed webhook target: how it is stored, named and shown. */
export interface SignedTarget<Row extends TargetRow, Insert, Patch, Own> {
  /** Its kind in the shared webhook tables and in its secret's seal. */
  kind: WebhookTargetKind;
  /** How a 404 names one (`publication`, `webhook endpoint`). */
  noun: NotFoundNoun;
  /** Its queries (db signed-webhook-targets). */
  store: {
    insert(db: Executor, row: Insert): Promise<Row>;
    get(db: Executor, id: string): Promise<Row | undefined>;
    list(db: Executor, workspaceId: string, page: { offset: number; limit: number }): Promise<{ items: Row[]; total: number }>;
    update(db: Executor, id: string, patch: Patch): Promise<Row | undefined>;
    replaceSecret(db: Executor, id: string, secretSealed: string): Promise<Row | undefined>;
  };
  /** Its own fields in its record, which stand between workspaceId and secretRotatedAt. */
  fields(row: Row): Own;
}

/** A target's record: id and workspace, its own fields, then its secret's age, its delivery health and its times. */
export function presentTarget<Row extends TargetRow, Own>(target: SignedTarget<Row, never, never, Own>, row: Row, health: DeliveryHealth) {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    ...target.fields(row),
    secretRotatedAt: iso(row.secret_rotated_at),
    deliveryHealth: health,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** A target the caller may read (write: change); 404 outside the caller's workspaces, 403 admin_required for members writing. */
export async function visibleTarget<Row extends TargetRow>(
  caller: Caller,
  target: SignedTarget<Row, never, never, unknown>,
  id: string,
  write: boolean,
): Promise<Row> {
  return (await visibleRecord(caller, await target.store.get(caller.services.db, id), { noun: target.noun, id }, write)).row;
}

/** Targets with their delivery health (one query for the lot). */
export async function targetRecords<Row extends TargetRow, Own>(caller: Caller, target: SignedTarget<Row, never, never, Own>, rows: Row[]) {
  const health = await webhookHealthOf(
    caller.services.db,
    target.kind,
    rows.map((r) => r.id),
  );
  return rows.map((r) => presentTarget(target, r, presentHealth(health.get(r.id))));
}

export async function targetRecord<Row extends TargetRow, Own>(caller: Caller, target: SignedTarget<Row, never, never, Own>, row: Row) {
  return (await targetRecords(caller, target, [row]))[0]!;
}
