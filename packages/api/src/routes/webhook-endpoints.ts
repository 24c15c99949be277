import type { z } from '@hono/zod-openapi';
import { enqueueWebhookMessage, eventBody, listWebhookEndpointDeliveries, webhookEndpointTargets } from '@atelier/db';
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
import { newWebhookMessageId } from '@atelier/engine/webhooks/index';
import { fail } from '../errors.js';
import { presentDelivery } from '../presenters/webhook-endpoint.js';
import { endpointTarget } from '../webhook-endpoints/records.js';
import { visibleTarget } from '../webhook-targets/signed-targets.js';
import { signedTargetRoutes, targetDeliveriesRoute } from './signed-target-routes.js';
import { callerOf } from '../http/caller.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('webhook endpoints');

const at = { tag: 'webhook endpoints', path: '/v1/webhook-endpoints', idParam: 'endpoint_id', idParams: WebhookEndpointIdParam };

/**
 * Event webhooks for integrators (docs/webhooks.md): a workspace's endpoints and the events they want. Each
 * event is recorded where the run or order changed (db/event-webhooks) and delivered by the engine through
 * the shared, signed webhook machinery; these routes manage the endpoints and show what was delivered.
 * Create, list, read, change and rotate are those of every signed webhook target; the rest is the endpoint's own.
 */
export const webhookEndpointRoutes = signedTargetRoutes(endpointTarget, {
  ...at,
  idPrefix: 'ep',
  urlField: 'url',
  schemas: {
    createRequest: WebhookEndpointCreateRequest,
    withSecret: WebhookEndpointWithSecret,
    listQuery: ListWebhookEndpointsQuery,
    list: WebhookEndpointList,
    record: WebhookEndpoint,
    updateRequest: WebhookEndpointUpdateRequest,
  },
  checkCreate: async (caller, access) => {
    if ((await webhookEndpointTargets.count(caller.services.db, access.workspaceId)) >= MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE) {
      throw fail.validation([
        {
          type: 'too_many_endpoints',
          loc: ['body'],
          msg: `a workspace has at most ${MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE} webhook endpoints; delete one, or subscribe an existing one to more events`,
          input: null,
        },
      ]);
    }
  },
  columns: (body: z.infer<typeof WebhookEndpointCreateRequest>) => ({
    url: body.url,
    description: body.description || null,
    events: body.events,
    enabled: body.enabled,
  }),
  changes: (body: z.infer<typeof WebhookEndpointUpdateRequest>) => ({
    ...(body.url !== undefined ? { url: body.url } : {}),
    ...(body.events !== undefined ? { events: body.events } : {}),
    ...(body.description !== undefined ? { description: body.description || null } : {}),
    ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
  }),
})
  .openapi(
    operation('DELETE /v1/webhook-endpoints/{endpoint_id}', { params: WebhookEndpointIdParam }, { 204: { description: 'Deleted' } }),
    async (c) => {
      const endpoint = await visibleTarget(callerOf(c), endpointTarget, c.req.valid('param').endpoint_id, true);
      if (!(await webhookEndpointTargets.delete(c.get('services').db, endpoint.id))) throw fail.notFound('webhook endpoint', endpoint.id);
      return c.body(null, 204);
    },
  )
  .openapi(
    operation('POST /v1/webhook-endpoints/{endpoint_id}/test', { params: WebhookEndpointIdParam }, { 202: WebhookEndpointTestResult }),
    async (c) => {
      const endpoint = await visibleTarget(callerOf(c), endpointTarget, c.req.valid('param').endpoint_id, true);
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
    ...targetDeliveriesRoute(endpointTarget, at, {
      query: ListWebhookDeliveriesQuery,
      list: WebhookEndpointDeliveryList,
      page: (db, endpoint, query: z.infer<typeof ListWebhookDeliveriesQuery>) => listWebhookEndpointDeliveries(db, endpoint.id, query),
      present: presentDelivery,
    }),
  );
