import type { Context } from 'hono';
import { type WebhookDeliveryRow, type WebhookEndpointRow, getWebhookEndpoint, webhookHealthOf } from '@atelier/db';
import { type WorkspaceAccess, requireWriter, resourceAccess } from '../access.js';
import { fail } from '../errors.js';
import { presentHealth } from '../publications/records.js';
import type { AppEnv } from '../services.js';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function presentEndpoint(e: WebhookEndpointRow, health: ReturnType<typeof presentHealth>) {
  return {
    id: e.id,
    workspaceId: e.workspace_id,
    url: e.url,
    description: e.description,
    events: e.events,
    enabled: e.enabled,
    secretRotatedAt: iso(e.secret_rotated_at)!,
    deliveryHealth: health,
    createdAt: iso(e.created_at)!,
    updatedAt: iso(e.updated_at)!,
  };
}

/** Endpoints with their delivery health (one query for the lot). */
export async function endpointRecords(c: Context<AppEnv>, rows: WebhookEndpointRow[]) {
  const health = await webhookHealthOf(
    c.get('services').db,
    'webhook_endpoint',
    rows.map((r) => r.id),
  );
  return rows.map((r) => presentEndpoint(r, presentHealth(health.get(r.id))));
}

export async function endpointRecord(c: Context<AppEnv>, row: WebhookEndpointRow) {
  return (await endpointRecords(c, [row]))[0]!;
}

/** The stored body is what was sent; shown parsed (it is always JSON this gateway wrote). */
function payloadOf(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

export function presentDelivery(m: WebhookDeliveryRow) {
  return {
    messageId: m.id,
    type: m.event_type,
    status: m.status,
    attemptCount: m.attempts,
    lastError: m.last_error,
    createdAt: iso(m.created_at)!,
    settledAt: iso(m.settled_at),
    payload: payloadOf(m.body),
    attempts: m.attempt_rows.map((a) => ({
      attempt: a.attempt,
      attemptedAt: iso(a.started_at)!,
      webhookTimestamp: Number(a.webhook_timestamp),
      url: a.url,
      statusCode: a.status_code,
      outcome: a.outcome,
      error: a.error,
      redirectedTo: a.redirected_to,
      durationMs: a.duration_ms,
    })),
  };
}

/** An endpoint the caller may read (write: change); 404 outside the caller's workspaces, 403 admin_required for members writing. */
export async function endpointFor(
  c: Context<AppEnv>,
  id: string,
  write: boolean,
): Promise<{ endpoint: WebhookEndpointRow; access: WorkspaceAccess }> {
  const notFound = `webhook endpoint ${id} not found`;
  const endpoint = await getWebhookEndpoint(c.get('services').db, id);
  if (!endpoint) throw fail.notFound(notFound);
  const access = await resourceAccess(c, endpoint.workspace_id, notFound);
  if (write) requireWriter(access);
  return { endpoint, access };
}
