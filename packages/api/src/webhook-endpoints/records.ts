import type { Context } from 'hono';
import { type WebhookDeliveryRow, type WebhookEndpointRow, webhookEndpointTargets } from '@atelier/db';
import type { WorkspaceAccess } from '../access.js';
import type { AppEnv } from '../services.js';
import { type DeliveryHealth, targetFor } from '../webhook-targets/signed-targets.js';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function presentEndpoint(e: WebhookEndpointRow, health: DeliveryHealth) {
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

/** An endpoint is a signed webhook target (webhook-targets/signed-targets.ts). */
export const endpointTarget = {
  kind: 'webhook_endpoint' as const,
  noun: 'webhook endpoint',
  store: webhookEndpointTargets,
  present: presentEndpoint,
};

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
  const { row, access } = await targetFor(c, endpointTarget, id, write);
  return { endpoint: row, access };
}
