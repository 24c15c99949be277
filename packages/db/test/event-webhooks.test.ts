import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES, WebhookEndpointCreateRequest, WebhookEndpointUpdateRequest } from '@atelier/contracts/webhook-endpoints';
import {
  eventBody,
  eventMessageId,
  orderEventData,
  orderEventKey,
  orderEventType,
  runEventData,
  runEventKey,
  runEventType,
} from '../src/event-webhooks.js';

const at = new Date('2026-11-24T09:00:00.000Z');

const run = {
  id: 'run-0123abcd',
  workspace_id: '00000000-0000-4000-8000-000000000001',
  project_id: null,
  template_id: 'plan-research-report',
  template_name: 'Research report',
  workflow_version: '2026.11.01',
  status: 'failed',
  parent_order_id: 'order-0123456789abcdef',
  parent_run_id: null,
  rerun_of: null,
  artifact_id: null,
  error_code: 'gate_rejected',
  error: 'Safety check rejected the work',
  review_gate_id: null,
  review_gate_name: null,
  estimated_usd: '0.040000',
  actual_usd: '0.012000',
  subworkflow_actual_usd: '0.030000',
  currency: 'USD',
  intake: { topic: 'secret plans' },
  created_at: at,
  finished_at: at,
} as never;

const order = {
  id: 'order-0123456789abcdef',
  workspace_id: '00000000-0000-4000-8000-000000000001',
  project_id: null,
  workflow_id: 'plan-research-report',
  workflow_version: '2026.11.01',
  status: 'attention',
  target_count: 3,
  accept_gap_reason: null,
  failure_reason: null,
  created_at: at,
  started_at: at,
  finished_at: null,
} as never;

describe('which status changes are events', () => {
  it('announces the four run outcomes integrators subscribe to and nothing on the way there', () => {
    expect(['completed', 'failed', 'review', 'cancelled'].map(runEventType)).toEqual([
      'run.completed',
      'run.failed',
      'run.review',
      'run.cancelled',
    ]);
    for (const status of ['planned', 'pending', 'queued', 'running', 'rejected', 'changes_requested', 'nonsense'])
      expect(runEventType(status)).toBeUndefined();
  });

  it('announces an order settling or needing attention, not its start', () => {
    expect(['completed', 'attention', 'failed', 'cancelled'].map(orderEventType)).toEqual([
      'order.completed',
      'order.attention',
      'order.failed',
      'order.cancelled',
    ]);
    for (const status of ['planned', 'running']) expect(orderEventType(status)).toBeUndefined();
  });

  it('names only event types the contract lists', () => {
    const named = [...['completed', 'failed', 'review', 'cancelled'].map(runEventType), ...['completed', 'attention'].map(orderEventType)];
    for (const type of named) expect(WEBHOOK_EVENT_TYPES).toContain(type);
  });
});

describe('webhook-id of an event at an endpoint', () => {
  it('is the same every time the same event is recorded for the same endpoint, so consumers and the database de-duplicate', () => {
    const key = runEventKey({ id: 'run-1', status: 'completed' });
    expect(eventMessageId(key, 'ep-a')).toBe(eventMessageId(key, 'ep-a'));
    // The shape webhook_messages accepts (msg_ + 16–64 alphanumerics).
    expect(eventMessageId(key, 'ep-a')).toMatch(/^msg_[0-9a-f]{32}$/);
  });

  it('differs between endpoints and between events', () => {
    const completed = runEventKey({ id: 'run-1', status: 'completed' });
    const other = runEventKey({ id: 'run-2', status: 'completed' });
    const ids = new Set([eventMessageId(completed, 'ep-a'), eventMessageId(completed, 'ep-b'), eventMessageId(other, 'ep-a')]);
    expect(ids.size).toBe(3);
  });

  it("tells an order's second time in attention (after a retry added children) from the same status set twice", () => {
    const o = { id: 'order-1', status: 'attention' as const };
    expect(orderEventKey(o, 3)).toBe(orderEventKey(o, 3));
    expect(orderEventKey(o, 4)).not.toBe(orderEventKey(o, 3));
    expect(orderEventKey({ ...o, status: 'completed' }, 3)).not.toBe(orderEventKey(o, 3));
  });
});

describe('payload', () => {
  it('is { type, timestamp, data } with a thin reference to the run and its link, never its intake', () => {
    const parsed = JSON.parse(eventBody('run.failed', at, runEventData(run)));
    expect(parsed).toEqual({
      type: 'run.failed',
      timestamp: '2026-11-24T09:00:00.000Z',
      data: {
        object: 'run',
        id: 'run-0123abcd',
        status: 'failed',
        workspaceId: '00000000-0000-4000-8000-000000000001',
        projectId: null,
        templateId: 'plan-research-report',
        templateName: 'Research report',
        workflowVersion: '2026.11.01',
        parentOrderId: 'order-0123456789abcdef',
        parentRunId: null,
        rerunOf: null,
        artifactId: null,
        errorCode: 'gate_rejected',
        error: 'Safety check rejected the work',
        reviewGate: null,
        // The total with its sub-workflow children's spend, and its own beside it.
        totalCosts: { estimatedUsd: 0.04, actualUsd: 0.042, ownActualUsd: 0.012, currency: 'USD' },
        createdAt: '2026-11-24T09:00:00.000Z',
        finishedAt: '2026-11-24T09:00:00.000Z',
        url: '/v1/runs/run-0123abcd',
      },
    });
    expect(JSON.stringify(parsed)).not.toContain('secret plans');
  });

  it('links an order event to GET /v1/orders/{id}', () => {
    expect(orderEventData(order)).toMatchObject({
      object: 'order',
      id: 'order-0123456789abcdef',
      status: 'attention',
      targetCount: 3,
      url: '/v1/orders/order-0123456789abcdef',
    });
  });
});

describe('endpoint requests', () => {
  const base = { url: 'https://hooks.example.com/atelier' };

  it('accepts the listed event types and *, ignoring duplicates, and refuses anything else', () => {
    const ok = WebhookEndpointCreateRequest.parse({ ...base, events: ['run.completed', 'run.completed', 'order.attention'] });
    expect(ok).toMatchObject({ events: ['run.completed', 'order.attention'], enabled: true });
    expect(WebhookEndpointCreateRequest.parse({ ...base, events: ['*'] }).events).toEqual(['*']);
    expect(WebhookEndpointCreateRequest.safeParse({ ...base, events: [] }).success).toBe(false);
    expect(WebhookEndpointCreateRequest.safeParse({ ...base, events: ['run.started'] }).success).toBe(false);
    expect(WebhookEndpointCreateRequest.safeParse({ ...base, events: ['endpoint.test'] }).success).toBe(false);
  });

  it('takes only http(s) URLs', () => {
    expect(WebhookEndpointCreateRequest.safeParse({ url: 'ftp://example.com/x', events: ['*'] }).success).toBe(false);
    expect(WebhookEndpointUpdateRequest.safeParse({ url: 'javascript:alert(1)' }).success).toBe(false);
    expect(WebhookEndpointUpdateRequest.parse({ description: null, enabled: false })).toEqual({ description: null, enabled: false });
  });
});
