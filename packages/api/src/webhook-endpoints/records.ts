import { type WebhookDeliveryRow, type WebhookEndpointRow, webhookEndpointTargets } from '@atelier/db';
import { presentAttemptOf } from '../webhook-targets/signed-targets.js';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** An endpoint is a signed webhook target (webhook-targets/signed-targets.ts); its own fields are these. */
export const endpointTarget = {
  kind: 'webhook_endpoint' as const,
  noun: 'webhook endpoint' as const,
  store: webhookEndpointTargets,
  fields: (e: WebhookEndpointRow) => ({ url: e.url, description: e.description, events: e.events, enabled: e.enabled }),
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
    attempts: m.attempt_rows.map(presentAttemptOf),
  };
}
