import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { getOrder, orderCounts } from '@atelier/db';
import {
  AcceptGapRequest,
  CreateOrderRequest,
  ListOrdersQuery,
  Order,
  OrderIdParam,
  OrderList,
  RetryFailedRequest,
} from '@atelier/contracts/orders';
import type { Context } from 'hono';
import { errorResponses, validationHook } from '../errors.js';
import { listVisibleOrders } from '../orders/list-orders.js';
import { acceptGap, cancelOrder, retryFailed, startOrder, visibleOrder } from '../orders/order-actions.js';
import { planOrder, planOrderOnce } from '../orders/plan-order.js';
import { presentOrder } from '../presenters/order.js';
import type { AppEnv } from '../services.js';
import { IDEMPOTENCY_DESCRIPTION, IdempotencyHeaders, REPLAYED_HEADER, ReplayedHeaders, idempotencyKeyOf } from '../http/idempotency.js';
import { json, jsonBody, secured, WHO_MAY_CALL } from '../http/route.js';
import { callerOf } from '../http/caller.js';

const orderBody = { ...json(Order) };

async function orderResponse(c: Context<AppEnv>, orderId: string) {
  const { db } = c.get('services');
  const order = (await getOrder(db, orderId))!;
  return presentOrder(order, await orderCounts(db, orderId));
}

export const orderRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    createRoute({
      ...secured('orders'),
      method: 'post',
      path: '/v1/orders',
      summary: 'Plan an order: children are created as planned runs with an estimate; nothing runs or is spent',
      description: `Plans an order: one child run per variation, created as planned runs with an estimate; nothing runs or is spent until POST /v1/orders/{order_id}/start. Any member of the workspace may call it; refused with 404 unknown workflow, 400 template_deprecated, invalid_provider_override or character_batch_unsupported, 422 intake_invalid or character_not_usable, and 402 budget_exceeded when the estimate breaches a budget or budgetLimitUsd. ${IDEMPOTENCY_DESCRIPTION('order')}`,
      request: { body: jsonBody(CreateOrderRequest), headers: IdempotencyHeaders },
      responses: {
        201: {
          description:
            'The planned order; or, replayed, the order an earlier request with the same Idempotency-Key planned, as it now stands',
          headers: ReplayedHeaders,
          ...orderBody,
        },
        ...errorResponses(400, 401, 402, 403, 404, 422),
      },
    }),
    async (c) => {
      const caller = callerOf(c);
      const body = c.req.valid('json');
      const key = idempotencyKeyOf(c, body);
      const { row, replayed } = key ? await planOrderOnce(caller, body, key) : { row: await planOrder(caller, body), replayed: false };
      if (replayed) c.header(REPLAYED_HEADER, 'true');
      return c.json(await orderResponse(c, row.id), 201);
    },
  )
  .openapi(
    createRoute({
      ...secured('orders'),
      method: 'get',
      path: '/v1/orders',
      summary: 'Orders of a workspace, newest first, each as GET /v1/orders/{order_id} shows it',
      description:
        'Pages by offset and limit, as every list does, or by cursor: each page carries nextCursor (null on the last page), ' +
        'and passing it as cursor gives the page after it, without gaps or repeats however many orders are created meanwhile. ' +
        'cursor and offset together are a 422 validation error. total counts every matching order whichever way the list is paged.',
      request: { query: ListOrdersQuery },
      responses: { 200: { description: 'Orders', ...json(OrderList) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => c.json(await listVisibleOrders(callerOf(c), c.req.valid('query')), 200),
  )
  .openapi(
    createRoute({
      ...secured('orders'),
      method: 'get',
      path: '/v1/orders/{order_id}',
      summary: 'An order with counts and actualCostUsd (children: GET /v1/runs?parentOrderId=)',
      description: `An order with its status, counts (planned, running, succeeded, failed, skipped), estimatedCostUsd and actualCostUsd, which rolls up every child; its children are listed by GET /v1/runs?parentOrderId=. ${WHO_MAY_CALL.member}`,
      request: { params: OrderIdParam },
      responses: { 200: { description: 'The order', ...orderBody }, ...errorResponses(401, 403, 404) },
    }),
    async (c) => {
      const order = await visibleOrder(callerOf(c), c.req.valid('param').order_id);
      return c.json(await orderResponse(c, order.id), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('orders'),
      method: 'post',
      path: '/v1/orders/{order_id}/start',
      summary: 'Start a planned order; every budget is re-checked against current spend (402 if refused)',
      description: `Starts a planned order: every budget is re-checked against current spend, then its children execute. ${WHO_MAY_CALL.member} A budget that would be breached is 402 budget_exceeded (recorded), and an order that is not planned is 409 invalid_transition.`,
      request: { params: OrderIdParam },
      responses: { 200: { description: 'The running order', ...orderBody }, ...errorResponses(401, 402, 403, 404, 409) },
    }),
    async (c) => {
      const { order_id: orderId } = c.req.valid('param');
      await startOrder(callerOf(c), orderId);
      return c.json(await orderResponse(c, orderId), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('orders'),
      method: 'post',
      path: '/v1/orders/{order_id}/retry-failed',
      summary: 'Re-run failed children (all, or runIds); deterministic failures are skipped unless includeDeterministic',
      description: `Re-runs the failed children of an order (all, or those named), moving it back to running; deterministic failures are skipped unless includeDeterministic is true. ${WHO_MAY_CALL.member} A budget refusal is 402 budget_exceeded; an order in a state that cannot retry is 409 invalid_transition.`,
      request: { params: OrderIdParam, body: jsonBody(RetryFailedRequest) },
      responses: {
        200: {
          description: 'The order and the fresh child runs',
          content: { 'application/json': { schema: z.object({ order: Order, retried: z.array(z.string()) }) } },
        },
        ...errorResponses(401, 402, 403, 404, 409, 422),
      },
    }),
    async (c) => {
      const { order_id: orderId } = c.req.valid('param');
      const retried = await retryFailed(callerOf(c), orderId, c.req.valid('json'));
      return c.json({ order: await orderResponse(c, orderId), retried }, 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('orders'),
      method: 'post',
      path: '/v1/orders/{order_id}/accept-gap',
      summary: 'Settle an order short of its target; the reason is kept on the order',
      description: `Settles an order in attention as completed short of its target; the reason (required) is recorded on the order. ${WHO_MAY_CALL.member} An order not in attention is 409 invalid_transition.`,
      request: { params: OrderIdParam, body: jsonBody(AcceptGapRequest) },
      responses: { 200: { description: 'The completed order', ...orderBody }, ...errorResponses(401, 403, 404, 409, 422) },
    }),
    async (c) => {
      const { order_id: orderId } = c.req.valid('param');
      await acceptGap(callerOf(c), orderId, c.req.valid('json').reason);
      return c.json(await orderResponse(c, orderId), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('orders'),
      method: 'post',
      path: '/v1/orders/{order_id}/cancel',
      summary: 'Cancel an order: no new children start; those in flight stop at their next step boundary',
      description: `Cancels an order: no new children start and those in flight stop at their next step boundary; spend so far stays billed. ${WHO_MAY_CALL.member} An order that already ended is 409 invalid_transition.`,
      request: { params: OrderIdParam },
      responses: { 200: { description: 'The order', ...orderBody }, ...errorResponses(401, 403, 404, 409) },
    }),
    async (c) => {
      const { order_id: orderId } = c.req.valid('param');
      await cancelOrder(callerOf(c), orderId);
      return c.json(await orderResponse(c, orderId), 200);
    },
  );
