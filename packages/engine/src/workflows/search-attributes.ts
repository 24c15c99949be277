import { SearchAttributeType, defineSearchAttributeKey } from '@temporalio/common';

/**
 * Custom search attributes that let on-call find executions in the Temporal Web UI. `RunId` is a
 * Temporal system attribute (the execution's own run id), so Atelier's run id is the workflow id:
 * search `WorkflowId = "run-1a2b3c4d"`.
 */
export const SEARCH_ATTRIBUTES = {
  OrderId: defineSearchAttributeKey('OrderId', SearchAttributeType.KEYWORD),
  WorkspaceId: defineSearchAttributeKey('WorkspaceId', SearchAttributeType.KEYWORD),
  TemplateId: defineSearchAttributeKey('TemplateId', SearchAttributeType.KEYWORD),
  RunStatus: defineSearchAttributeKey('RunStatus', SearchAttributeType.KEYWORD),
} as const;
