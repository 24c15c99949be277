import { createHash } from 'node:crypto';
import { type Selectable, sql } from 'kysely';
import { ORDER_STATUSES, type OrderStatus } from '@atelier/contracts/orders';
import { WEBHOOK_ALL_EVENTS, type WebhookEventType } from '@atelier/contracts/webhook-endpoints';
import { runTotalUsd } from '@atelier/domain/money';
import { type RunStatus, isRunStatus } from '@atelier/domain/run-status';
import type { Executor } from './connect.js';
import { enqueueEngineCommand } from './engine-commands.js';
import type { RunRow } from './runs/row.js';
import type { OrdersTable } from './schema.js';

/**
 * Event webhooks for integrators (docs/webhooks.md): when a run or an order reaches a status an integrator
 * can subscribe to, one message per enabled, subscribed endpoint of its workspace is recorded, with its
 * outbox command, IN THE WRITER'S TRANSACTION: an event is sent at least once if the change committed and
 * never if it rolled back. The shared webhook machinery (engine/webhooks) signs, sends, retries and records.
 *
 * Each message's id (the `webhook-id`) is derived from the event and the endpoint, so the same event
 * recorded twice (a writer retried after its commit) is one message: the second insert does nothing.
 */

type OrderRow = Selectable<OrdersTable>;

// Keyed by the status unions, so a status the contract drops (or misspelt here) is a compile error.
const RUN_EVENTS: Partial<Record<RunStatus, WebhookEventType>> = {
  completed: 'run.completed',
  failed: 'run.failed',
  review: 'run.review',
  cancelled: 'run.cancelled',
};

const ORDER_EVENTS: Partial<Record<OrderStatus, WebhookEventType>> = {
  completed: 'order.completed',
  attention: 'order.attention',
  failed: 'order.failed',
  cancelled: 'order.cancelled',
};

const isOrderStatus = (status: string): status is OrderStatus => (ORDER_STATUSES as readonly string[]).includes(status);

/** The event a run's new status announces, if any. */
export const runEventType = (status: string): WebhookEventType | undefined => (isRunStatus(status) ? RUN_EVENTS[status] : undefined);

/** The event an order's new status announces, if any. */
export const orderEventType = (status: string): WebhookEventType | undefined => (isOrderStatus(status) ? ORDER_EVENTS[status] : undefined);

/**
 * The `webhook-id` of one event at one endpoint: `msg_` + 32 hex of SHA-256 over both. Stable: the same event
 * recorded again for the same endpoint gets the same id (and is not recorded twice).
 */
export function eventMessageId(eventKey: string, endpointId: string): string {
  return `msg_${createHash('sha256').update(`${eventKey}\n${endpointId}`).digest('hex').slice(0, 32)}`;
}

/**
 * What identifies a run's event: a run moves forward only and reaches each announced status at most once,
 * so (run, status) names the event.
 */
export const runEventKey = (run: Pick<RunRow, 'id' | 'status'>) => `run:${run.id}:${run.status}`;

/**
 * What identifies an order's event. An order can come back to `attention` (or `failed`) after a retry of its
 * failed children, which adds children; the number of children tells those episodes apart, while setting the
 * same status twice without a retry in between names the same event.
 */
export const orderEventKey = (order: Pick<OrderRow, 'id' | 'status'>, children: number) => `order:${order.id}:${order.status}:${children}`;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The Standard Webhooks payload shape: `{ type, timestamp, data }`. */
export function eventBody(type: string, at: Date, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

/** A thin reference to the run (not the full `GET /v1/runs/{id}` record): what a consumer needs to act, and the link. */
export function runEventData(run: RunRow): Record<string, unknown> {
  return {
    object: 'run',
    id: run.id,
    status: run.status,
    workspaceId: run.workspace_id,
    projectId: run.project_id,
    templateId: run.template_id,
    templateName: run.template_name,
    workflowVersion: run.workflow_version,
    parentOrderId: run.parent_order_id,
    parentRunId: run.parent_run_id,
    rerunOf: run.rerun_of,
    artifactId: run.artifact_id,
    errorCode: run.error_code,
    error: run.error,
    reviewGate: run.review_gate_id ? { id: run.review_gate_id, name: run.review_gate_name ?? run.review_gate_id } : null,
    // As GET /v1/runs/{id} shows them: the total with the sub-workflow children's spend, and the run's own.
    totalCosts: {
      estimatedUsd: Number(run.estimated_usd ?? 0),
      actualUsd: runTotalUsd(Number(run.actual_usd ?? 0), Number(run.subworkflow_actual_usd ?? 0)),
      ownActualUsd: Number(run.actual_usd ?? 0),
      currency: run.currency,
    },
    createdAt: iso(run.created_at),
    finishedAt: iso(run.finished_at),
    url: `/v1/runs/${run.id}`,
  };
}

/** A thin reference to the order (counts and cost are read with `GET /v1/orders/{id}`). */
export function orderEventData(order: OrderRow): Record<string, unknown> {
  return {
    object: 'order',
    id: order.id,
    status: order.status,
    workspaceId: order.workspace_id,
    projectId: order.project_id,
    workflowId: order.workflow_id,
    workflowVersion: order.workflow_version,
    targetCount: order.target_count,
    acceptGapReason: order.accept_gap_reason,
    failureReason: order.failure_reason,
    createdAt: iso(order.created_at),
    startedAt: iso(order.started_at),
    finishedAt: iso(order.finished_at),
    url: `/v1/orders/${order.id}`,
  };
}

/** The enabled endpoints of a workspace subscribed to `type` (directly or through `*`). */
async function subscribedEndpoints(tx: Executor, workspaceId: string, type: WebhookEventType): Promise<string[]> {
  const rows = await tx
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('enabled', '=', true)
    .where(sql<boolean>`events && ${[type, WEBHOOK_ALL_EVENTS]}::text[]`)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Records one message (and its delivery command) per endpoint; a message already recorded for this event
 * and endpoint is left alone. Returns the ids of the messages recorded now.
 */
async function enqueueEvent(
  tx: Executor,
  endpointIds: string[],
  e: { workspaceId: string; type: WebhookEventType; key: string; body: string },
): Promise<string[]> {
  const recorded: string[] = [];
  for (const endpointId of endpointIds) {
    const inserted = await tx
      .insertInto('webhook_messages')
      .values({
        id: eventMessageId(e.key, endpointId),
        target_kind: 'webhook_endpoint',
        target_id: endpointId,
        workspace_id: e.workspaceId,
        event_type: e.type,
        body: e.body,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) continue;
    await enqueueEngineCommand(tx, 'deliver_webhook', inserted.id);
    recorded.push(inserted.id);
  }
  return recorded;
}

/**
 * Announces a run's new status to the endpoints that want it. Call it in the transaction that moved the
 * run, with the moved row; statuses no event names cost nothing.
 */
export async function emitRunEvent(tx: Executor, run: RunRow): Promise<string[]> {
  const type = runEventType(run.status);
  if (!type) return [];
  const endpoints = await subscribedEndpoints(tx, run.workspace_id, type);
  if (endpoints.length === 0) return [];
  const body = eventBody(type, new Date(), runEventData(run));
  return enqueueEvent(tx, endpoints, { workspaceId: run.workspace_id, type, key: runEventKey(run), body });
}

/** Announces an order's new status to the endpoints that want it, in the transaction that set it. */
export async function emitOrderEvent(tx: Executor, order: OrderRow): Promise<string[]> {
  const type = orderEventType(order.status);
  if (!type) return [];
  const endpoints = await subscribedEndpoints(tx, order.workspace_id, type);
  if (endpoints.length === 0) return [];
  const children = await tx
    .selectFrom('runs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('parent_order_id', '=', order.id)
    .executeTakeFirstOrThrow();
  const body = eventBody(type, new Date(), orderEventData(order));
  return enqueueEvent(tx, endpoints, {
    workspaceId: order.workspace_id,
    type,
    key: orderEventKey(order, Number(children.n)),
    body,
  });
}
