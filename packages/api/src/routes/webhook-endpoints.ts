import { randomBytes } from 'node:crypto';
import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import {
  countWebhookEndpoints,
  deleteWebhookEndpoint,
  enqueueWebhookMessage,
  eventBody,
  insertWebhookEndpoint,
  listWebhookEndpointDeliveries,
  listWebhookEndpoints,
  updateWebhookEndpoint,
} from '@atelier/db';
import {
  ListWebhookDeliveriesQuery,
  ListWebhookEndpointsQuery,
  MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE,
  WEBHOOK_TEST_EVENT,
  WebhookEndpoint,
  WebhookEndpointCreateRequest,
  WebhookEndpointDeliveryList,
  WebhookEndpointIdParam,
  WebhookEndpointList,
  WebhookEndpointTestResult,
  WebhookEndpointUpdateRequest,
  WebhookEndpointWithSecret,
} from '@atelier/contracts/webhook-endpoints';
import { formatWebhookSecret, generateWebhookKey, newWebhookMessageId, sealTargetKey } from '@atelier/engine/webhooks/index';
import { requireWriter, workspaceAccess } from '../access.js';
import { errorResponses, fail, validationHook } from '../errors.js';
import { requireSendableUrl } from '../http/outbound-url.js';
import { json, jsonBody, secured } from '../http/route.js';
import { secretsKeyOf } from '../publications/records.js';
import type { AppEnv } from '../services.js';
import { endpointFor, endpointRecord, endpointRecords, presentDelivery } from '../webhook-endpoints/records.js';

/**
 * Event webhooks for integrators (docs/webhooks.md): a workspace's endpoints and the events they want. Each
 * event is recorded where the run or order changed (db/event-webhooks) and delivered by the engine through
 * the shared, signed webhook machinery; these routes manage the endpoints and show what was delivered.
 */
const newEndpointId = () => `ep-${randomBytes(8).toString('hex')}`;

export const webhookEndpointRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    createRoute({
      ...secured('webhook-endpoints'),
      method: 'post',
      path: '/v1/webhook-endpoints',
      summary: `Register an endpoint for a workspace's events (owners and admins; at most ${MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE} per workspace); the signing secret is in this response only`,
      request: { body: jsonBody(WebhookEndpointCreateRequest) },
      responses: {
        201: { description: 'The endpoint and its secret, shown once', ...json(WebhookEndpointWithSecret) },
        ...errorResponses(401, 403, 404, 422, 503),
      },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const access = await workspaceAccess(c, body.workspaceId);
      requireWriter(access);
      await requireSendableUrl(c, body.url, ['body', 'url']);
      const { db } = c.get('services');
      if ((await countWebhookEndpoints(db, access.workspaceId)) >= MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE) {
        throw fail.validation([
          {
            type: 'too_many_endpoints',
            loc: ['body'],
            msg: `a workspace has at most ${MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE} webhook endpoints; delete one, or subscribe an existing one to more events`,
            input: null,
          },
        ]);
      }
      const secretsKey = secretsKeyOf(c);
      const id = newEndpointId();
      const key = generateWebhookKey();
      const row = await insertWebhookEndpoint(db, {
        id,
        workspace_id: access.workspaceId,
        url: body.url,
        description: body.description || null,
        events: body.events,
        enabled: body.enabled,
        secret_sealed: sealTargetKey(secretsKey, 'webhook_endpoint', id, key),
        created_by: c.get('principal').userId,
      });
      return c.json({ ...(await endpointRecord(c, row)), secret: formatWebhookSecret(key) }, 201);
    },
  )
  .openapi(
    createRoute({
      ...secured('webhook-endpoints'),
      method: 'get',
      path: '/v1/webhook-endpoints',
      summary: "A workspace's webhook endpoints with their delivery health (never their secrets), oldest first",
      request: { query: ListWebhookEndpointsQuery },
      responses: { 200: { description: 'Endpoints', ...json(WebhookEndpointList) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const access = await workspaceAccess(c, q.workspaceId);
      const page = await listWebhookEndpoints(c.get('services').db, access.workspaceId, q);
      return c.json({ items: await endpointRecords(c, page.items), total: page.total }, 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('webhook-endpoints'),
      method: 'get',
      path: '/v1/webhook-endpoints/{endpoint_id}',
      summary: 'A webhook endpoint with its delivery health',
      request: { params: WebhookEndpointIdParam },
      responses: { 200: { description: 'The endpoint', ...json(WebhookEndpoint) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const { endpoint } = await endpointFor(c, c.req.valid('param').endpoint_id, false);
      return c.json(await endpointRecord(c, endpoint), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('webhook-endpoints'),
      method: 'patch',
      path: '/v1/webhook-endpoints/{endpoint_id}',
      summary:
        'Change the url, the events, the description, or enable/disable the endpoint (owners and admins). A disabled endpoint is sent no new events',
      request: { params: WebhookEndpointIdParam, body: jsonBody(WebhookEndpointUpdateRequest) },
      responses: { 200: { description: 'The endpoint', ...json(WebhookEndpoint) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const { endpoint } = await endpointFor(c, c.req.valid('param').endpoint_id, true);
      if (body.url !== undefined) await requireSendableUrl(c, body.url, ['body', 'url']);
      const updated = await updateWebhookEndpoint(c.get('services').db, endpoint.id, {
        ...(body.url !== undefined ? { url: body.url } : {}),
        ...(body.events !== undefined ? { events: body.events } : {}),
        ...(body.description !== undefined ? { description: body.description || null } : {}),
        ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
      });
      if (!updated) throw fail.notFound(`webhook endpoint ${endpoint.id} not found`);
      return c.json(await endpointRecord(c, updated), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('webhook-endpoints'),
      method: 'delete',
      path: '/v1/webhook-endpoints/{endpoint_id}',
      summary: 'Delete the endpoint (owners and admins): nothing more is sent to it, messages still being retried included',
      request: { params: WebhookEndpointIdParam },
      responses: { 204: { description: 'Deleted' }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const { endpoint } = await endpointFor(c, c.req.valid('param').endpoint_id, true);
      if (!(await deleteWebhookEndpoint(c.get('services').db, endpoint.id)))
        throw fail.notFound(`webhook endpoint ${endpoint.id} not found`);
      return c.body(null, 204);
    },
  )
  .openapi(
    createRoute({
      ...secured('webhook-endpoints'),
      method: 'post',
      path: '/v1/webhook-endpoints/{endpoint_id}/rotate-secret',
      summary:
        'Replace the signing secret (owners and admins); the new one is in this response only and the old one stops signing at once, retries of earlier messages included',
      request: { params: WebhookEndpointIdParam },
      responses: {
        200: { description: 'The endpoint and its new secret, shown once', ...json(WebhookEndpointWithSecret) },
        ...errorResponses(401, 403, 404, 422, 503),
      },
    }),
    async (c) => {
      const { endpoint } = await endpointFor(c, c.req.valid('param').endpoint_id, true);
      const key = generateWebhookKey();
      const updated = await updateWebhookEndpoint(c.get('services').db, endpoint.id, {
        secret_sealed: sealTargetKey(secretsKeyOf(c), 'webhook_endpoint', endpoint.id, key),
        secret_rotated_at: new Date(),
      });
      if (!updated) throw fail.notFound(`webhook endpoint ${endpoint.id} not found`);
      return c.json({ ...(await endpointRecord(c, updated)), secret: formatWebhookSecret(key) }, 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('webhook-endpoints'),
      method: 'post',
      path: '/v1/webhook-endpoints/{endpoint_id}/test',
      summary: `Send an ${WEBHOOK_TEST_EVENT} event (owners and admins), delivered by the engine like any event, with the same signing and retries, even to a disabled endpoint; follow it under deliveries`,
      request: { params: WebhookEndpointIdParam },
      responses: {
        202: { description: 'The test message is recorded and on its way', ...json(WebhookEndpointTestResult) },
        ...errorResponses(401, 403, 404, 422),
      },
    }),
    async (c) => {
      const { endpoint } = await endpointFor(c, c.req.valid('param').endpoint_id, true);
      const services = c.get('services');
      const message = await enqueueWebhookMessage(services.db, {
        id: newWebhookMessageId(),
        target_kind: 'webhook_endpoint',
        target_id: endpoint.id,
        workspace_id: endpoint.workspace_id,
        event_type: WEBHOOK_TEST_EVENT,
        body: eventBody(WEBHOOK_TEST_EVENT, new Date(), {
          object: 'webhook_endpoint',
          id: endpoint.id,
          workspaceId: endpoint.workspace_id,
          url: `/v1/webhook-endpoints/${endpoint.id}`,
        }),
      });
      services.dispatcher?.wake();
      return c.json({ messageId: message.id, type: WEBHOOK_TEST_EVENT, status: 'pending' as const }, 202);
    },
  )
  .openapi(
    createRoute({
      ...secured('webhook-endpoints'),
      method: 'get',
      path: '/v1/webhook-endpoints/{endpoint_id}/deliveries',
      summary: 'The messages sent to this endpoint, newest first, each with its payload and every attempt',
      request: { params: WebhookEndpointIdParam, query: ListWebhookDeliveriesQuery },
      responses: { 200: { description: 'Deliveries', ...json(WebhookEndpointDeliveryList) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const { endpoint } = await endpointFor(c, c.req.valid('param').endpoint_id, false);
      const page = await listWebhookEndpointDeliveries(c.get('services').db, endpoint.id, c.req.valid('query'));
      return c.json({ items: page.items.map(presentDelivery), total: page.total }, 200);
    },
  );
