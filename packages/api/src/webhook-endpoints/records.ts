import { webhookEndpointTargets } from '@atelier/db';
import { endpointFields } from '../presenters/webhook-endpoint.js';

/** An endpoint is a signed webhook target (webhook-targets/signed-targets.ts): its store, and its own fields in its record. */
export const endpointTarget = {
  kind: 'webhook_endpoint' as const,
  noun: 'webhook endpoint' as const,
  store: webhookEndpointTargets,
  fields: endpointFields,
};
