import type { WebhookDeliveryRow, WebhookEndpointRow } from '@atelier/db';
import { presentAttemptOf } from '../webhook-targets/signed-targets.js';
import { iso } from './time.js';

/** An endpoint's own fields in its signed-target record (the rest is presentTarget's, webhook-targets/signed-targets.ts). */
export const endpointFields = (e: WebhookEndpointRow) => ({ url: e.url, description: e.description, events: e.events, enabled: e.enabled });

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
    createdAt: iso(m.created_at),
    settledAt: iso(m.settled_at),
    payload: payloadOf(m.body),
    attempts: m.attempt_rows.map(presentAttemptOf),
  };
}
