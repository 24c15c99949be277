import { SearchAttributeType, defineSearchAttributeKey } from '@temporalio/common';

/**
 * Custom search attributes that let on-call find executions in the Temporal Web UI and with
 * `temporal workflow list --query` (the queries on-call uses: docs/operations.md). `RunId` is a Temporal
 * system attribute (the execution's own run id), so Atelier's run id is the workflow id: search
 * `WorkflowId = "run-1a2b3c4d"`. Every key here is registered from `temporal/dev-server.json`.
 *
 * - `RunStatus`: the run's status as the run workflow last wrote it: `pending`/`queued` at start, then the
 *   settled status, then for a run in review (shape 6, which waits open) the decided one.
 * - `OrderStatus`: on order workflows only, the order's status as the order workflow last wrote it
 *   (`running` at start, then `completed`, `attention`, `failed` or `cancelled`).
 * - `OrderId`: on an order's workflow and on each of its child runs.
 */
export const SEARCH_ATTRIBUTES = {
  OrderId: defineSearchAttributeKey('OrderId', SearchAttributeType.KEYWORD),
  WorkspaceId: defineSearchAttributeKey('WorkspaceId', SearchAttributeType.KEYWORD),
  TemplateId: defineSearchAttributeKey('TemplateId', SearchAttributeType.KEYWORD),
  RunStatus: defineSearchAttributeKey('RunStatus', SearchAttributeType.KEYWORD),
  OrderStatus: defineSearchAttributeKey('OrderStatus', SearchAttributeType.KEYWORD),
} as const;
