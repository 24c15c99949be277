import { z } from '@hono/zod-openapi';
import { HttpUrl, LIMITS, listOf, Pagination, pathParam, WorkspaceListQuery } from './common.js';
import { DeliveryHealth, withSigningSecret } from './publications.js';

/**
 * Event webhooks for integrators (docs/webhooks.md): a workspace's endpoints, each with the event types it
 * wants, a signing secret shown once (Standard Webhooks), enable/disable, a test send, its deliveries (messages
 * with their attempts) and its delivery health.
 */

/** Every event type an endpoint can subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  'run.completed',
  'run.failed',
  'run.review',
  'run.cancelled',
  'order.completed',
  'order.attention',
  'order.failed',
  'order.cancelled',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent only by a test send (`POST /v1/webhook-endpoints/{endpoint_id}/test`), whatever the endpoint subscribes to. */
export const WEBHOOK_TEST_EVENT = 'endpoint.test' as const;

/** Subscribing to `*` means every event type, including ones added later. */
export const WEBHOOK_ALL_EVENTS = '*' as const;

/** At most this many endpoints per workspace: each event fans out to every one inside the write that caused it. */
export const MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE = 20;

const EventSelector = z.enum([...WEBHOOK_EVENT_TYPES, WEBHOOK_ALL_EVENTS]);
const Events = z
  .array(EventSelector)
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length + 1)
  .transform((events) => [...new Set(events)])
  .describe('The event types to deliver (duplicates are ignored); `*` for every event type, including ones added later');
const EndpointUrl = HttpUrl.describe('Where events are POSTed, in its canonical form (a redirect is never followed)');
const Description = z.string().trim().max(LIMITS.shortText);

export const WebhookEndpointIdParam = z.object({
  endpoint_id: pathParam('endpoint_id', z.string().min(1).max(LIMITS.generatedId), 'ep-0123456789abcdef'),
});

export const ListWebhookEndpointsQuery = WorkspaceListQuery;

export const WebhookEndpoint = z
  .object({
    id: z.string(),
    workspaceId: z.string().uuid(),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.string()).describe('The subscribed event types, or `*`'),
    enabled: z.boolean().describe('A disabled endpoint is sent no new events (a test send still goes)'),
    secretRotatedAt: z.string(),
    deliveryHealth: DeliveryHealth,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('WebhookEndpoint');

export const WebhookEndpointWithSecret = withSigningSecret(WebhookEndpoint, 'WebhookEndpointWithSecret', 'verify every delivery with it');

export const WebhookEndpointList = listOf(WebhookEndpoint, 'WebhookEndpointList');

export const WebhookEndpointCreateRequest = z
  .object({
    workspaceId: z.string().uuid().optional().describe("The workspace whose events are sent; by default the key's, else the caller's"),
    url: EndpointUrl,
    events: Events,
    description: Description.optional(),
    enabled: z.boolean().default(true),
  })
  .openapi('WebhookEndpointCreateRequest', {
    example: {
      workspaceId: '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34',
      url: 'https://hooks.acmehoney.example/atelier',
      events: ['run.completed', 'run.failed', 'order.completed'],
      description: 'Production notifier',
      enabled: true,
    },
  });

export const WebhookEndpointUpdateRequest = z
  .object({
    url: EndpointUrl.optional(),
    events: Events.optional(),
    description: Description.nullable().optional().describe('null clears it'),
    enabled: z.boolean().optional(),
  })
  .openapi('WebhookEndpointUpdateRequest', { example: { events: ['*'], enabled: false } });

export const WebhookEndpointTestResult = z
  .object({
    messageId: z.string().describe('The webhook-id of the test message; follow it under deliveries'),
    type: z.literal(WEBHOOK_TEST_EVENT),
    status: z.literal('pending').describe('The engine delivers it like any event, with the same retries'),
  })
  .openapi('WebhookEndpointTestResult');

export const WebhookEndpointAttempt = z
  .object({
    attempt: z.number().int().describe("The attempt's number (an attempt lost with a killed worker leaves a gap)"),
    attemptedAt: z.string(),
    webhookTimestamp: z.number().int().describe('The webhook-timestamp this attempt was signed with'),
    url: z.string(),
    statusCode: z.number().int().nullable().describe('null when no answer came (network error, timeout, refused URL)'),
    outcome: z.enum(['delivered', 'retrying', 'failed']).describe('failed: final (no further attempt of this message)'),
    error: z.string().nullable(),
    redirectedTo: z.string().nullable(),
    durationMs: z.number().int(),
  })
  .openapi('WebhookEndpointAttempt');

export const WebhookEndpointDelivery = z
  .object({
    messageId: z.string().describe('The webhook-id: the same on every attempt of this message'),
    type: z.string().describe('The event type (or endpoint.test)'),
    status: z.enum(['pending', 'delivered', 'failed']).describe('pending: being delivered or waiting for its next attempt'),
    attemptCount: z.number().int(),
    lastError: z.string().nullable(),
    createdAt: z.string(),
    settledAt: z.string().nullable(),
    payload: z.unknown().describe('The exact JSON every attempt sends'),
    attempts: z.array(WebhookEndpointAttempt).describe('Oldest first'),
  })
  .openapi('WebhookEndpointDelivery');

export const WebhookEndpointDeliveryList = z
  .object({ items: z.array(WebhookEndpointDelivery), total: z.number().int() })
  .openapi('WebhookEndpointDeliveryList');

export const ListWebhookDeliveriesQuery = Pagination.extend({
  status: z
    .enum(['pending', 'delivered', 'failed'])
    .optional()
    .openapi({ param: { name: 'status', in: 'query' } }),
});
