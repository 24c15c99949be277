import type { z } from '@hono/zod-openapi';
import { type OrderKey, listOrders, ordersCounts } from '@atelier/db';
import type { ListOrdersQuery, OrderList } from '@atelier/contracts/orders';
import { listAccess } from '../access.js';
import type { Caller } from '../caller.js';
import { fail } from '../errors.js';
import { presentOrder } from '../presenters/order.js';

type Query = z.output<typeof ListOrdersQuery>;

const MICROSECOND_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** The cursor is opaque to clients: base64url of the key of the last order of the page it follows. */
function encodeCursor(key: OrderKey): string {
  return Buffer.from(JSON.stringify([key.createdAt, key.id])).toString('base64url');
}

function decodeCursor(cursor: string): OrderKey {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  if (
    Array.isArray(key) &&
    key.length === 2 &&
    typeof key[0] === 'string' &&
    MICROSECOND_INSTANT.test(key[0]) &&
    !Number.isNaN(Date.parse(key[0])) &&
    typeof key[1] === 'string'
  )
    return { createdAt: key[0], id: key[1] };
  throw fail.validation([
    {
      type: 'cursor_invalid',
      loc: ['query', 'cursor'],
      msg: "not a cursor this list gave out (pass a page's nextCursor as it came)",
      input: cursor,
    },
  ]);
}

/**
 * Orders of the workspace the query reads (the one named, else the one its project implies, else the
 * caller's), newest first, each as GET /v1/orders/{order_id} shows it.
 */
export async function listVisibleOrders(caller: Caller, q: Query): Promise<z.output<typeof OrderList>> {
  const { db } = caller.services;
  const after = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
  const access = await listAccess(caller, q);
  const page = await listOrders(db, {
    workspaceId: access.workspaceId,
    projectId: q.projectId,
    status: q.status,
    workflowId: q.workflowId,
    createdAfter: q.createdAfter,
    createdBefore: q.createdBefore,
    offset: q.offset ?? 0,
    limit: q.limit,
    after,
  });
  const counts = await ordersCounts(
    db,
    page.items.map((o) => o.id),
  );
  return {
    items: page.items.map((o) => presentOrder(o, counts.get(o.id)!)),
    total: page.total,
    nextCursor: page.next ? encodeCursor(page.next) : null,
  };
}
