import { OpenAPIHono, z } from '@hono/zod-openapi';
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
import { validationHook } from '../errors.js';
import { listVisibleOrders } from '../orders/list-orders.js';
import { acceptGap, cancelOrder, retryFailed, startOrder, visibleOrder } from '../orders/order-actions.js';
import { planOrder, planOrderOnce } from '../orders/plan-order.js';
import { presentOrder } from '../presenters/order.js';
import type { AppEnv } from '../services.js';
import { IdempotencyHeaders, REPLAYED_HEADER, idempotencyKeyOf, replayable } from '../http/idempotency.js';
import { callerOf } from '../http/caller.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('orders');

async function orderResponse(c: Context<AppEnv>, orderId: string) {
  const { db } = c.get('services');
  const order = (await getOrder(db, orderId))!;
  return presentOrder(order, await orderCounts(db, orderId));
}

export const orderRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    operation('POST /v1/orders', { body: CreateOrderRequest, headers: IdempotencyHeaders }, { 201: replayable(Order) }),
    async (c) => {
      const caller = callerOf(c);
      const body = c.req.valid('json');
      const key = idempotencyKeyOf(c, body);
      const { row, replayed } = key ? await planOrderOnce(caller, body, key) : { row: await planOrder(caller, body), replayed: false };
      if (replayed) c.header(REPLAYED_HEADER, 'true');
      return c.json(await orderResponse(c, row.id), 201);
    },
  )
  .openapi(operation('GET /v1/orders', { query: ListOrdersQuery }, { 200: OrderList }), async (c) =>
    c.json(await listVisibleOrders(callerOf(c), c.req.valid('query')), 200),
  )
  .openapi(operation('GET /v1/orders/{order_id}', { params: OrderIdParam }, { 200: Order }), async (c) => {
    const order = await visibleOrder(callerOf(c), c.req.valid('param').order_id);
    return c.json(await orderResponse(c, order.id), 200);
  })
  .openapi(operation('POST /v1/orders/{order_id}/start', { params: OrderIdParam }, { 200: Order }), async (c) => {
    const { order_id: orderId } = c.req.valid('param');
    await startOrder(callerOf(c), orderId);
    return c.json(await orderResponse(c, orderId), 200);
  })
  .openapi(
    operation(
      'POST /v1/orders/{order_id}/retry-failed',
      { params: OrderIdParam, body: RetryFailedRequest },
      {
        200: {
          description: 'The order and the fresh child runs',
          content: { 'application/json': { schema: z.object({ order: Order, retried: z.array(z.string()) }) } },
        },
      },
    ),
    async (c) => {
      const { order_id: orderId } = c.req.valid('param');
      const retried = await retryFailed(callerOf(c), orderId, c.req.valid('json'));
      return c.json({ order: await orderResponse(c, orderId), retried }, 200);
    },
  )
  .openapi(
    operation('POST /v1/orders/{order_id}/accept-gap', { params: OrderIdParam, body: AcceptGapRequest }, { 200: Order }),
    async (c) => {
      const { order_id: orderId } = c.req.valid('param');
      await acceptGap(callerOf(c), orderId, c.req.valid('json').reason);
      return c.json(await orderResponse(c, orderId), 200);
    },
  )
  .openapi(operation('POST /v1/orders/{order_id}/cancel', { params: OrderIdParam }, { 200: Order }), async (c) => {
    const { order_id: orderId } = c.req.valid('param');
    await cancelOrder(callerOf(c), orderId);
    return c.json(await orderResponse(c, orderId), 200);
  });
