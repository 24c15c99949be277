import { z } from '@hono/zod-openapi';
import { generatedIdParam, Id, LIMITS, orNull, Pagination, Text, listOf } from './common.js';
import { HoldField } from './workflow-definition.js';

export const REVIEW_DECISION_VALUES = ['approve', 'reject', 'request_changes'] as const;

export const QueueFilters = z.object({
  workspaceId: z.string().uuid().optional().describe("Defaults to the API key's workspace, else the caller's default"),
  projectId: z.string().uuid().optional(),
  templateId: Id.optional(),
});

export const ListQueueQuery = Pagination.extend(QueueFilters.shape);

export const QaCheck = z
  .object({ id: z.string(), label: z.string(), status: z.enum(['pass', 'fail', 'pending']), detail: z.string() })
  .openapi('QaCheck');

export const QaRecord = z.object({ status: z.string(), checks: z.array(QaCheck) }).openapi('QaRecord');

export const QueueItem = z
  .object({
    runId: z.string(),
    templateId: z.string(),
    templateName: z.string(),
    workspaceId: z.string().uuid(),
    projectId: z.string().uuid().nullable(),
    gateId: z.string().nullable().describe('The approval gate the run waits on'),
    gateName: z.string().nullable(),
    status: z.literal('review'),
    artifactId: z.string().nullable(),
    artifactTitle: z.string().nullable(),
    artifactStatus: z.string().nullable(),
    intakeSummary: z
      .string()
      .nullable()
      .describe(
        "The run's first one or two text or number intake values, in the workflow's field order, joined by ' · ' (each cut at 80 characters): " +
          'what tells two queued runs of one workflow apart. Null when the intake has none',
      ),
    qa: orNull(QaRecord).describe("The artifact's QA record; approval needs every check at pass"),
    holdFields: z.array(HoldField).describe('Fields an approval must supply in its patch, exactly'),
    queuedAt: z.string(),
    createdAt: z.string(),
    enteredReviewAt: z.string().describe('When the run reached review; the queue is ordered by it, oldest first'),
  })
  .openapi('QueueItem');

export const QueueCount = z.object({ count: z.number().int() }).openapi('QueueCount');

export const QueueDecisionRequest = z
  .object({
    decision: z.enum(REVIEW_DECISION_VALUES),
    note: Text.nullish().describe('Kept in the decision ledger with who and when'),
    patch: z
      .record(z.string(), z.unknown())
      .nullish()
      .describe('Releases a typed hold on approval: exactly the fields the hold declared, each of its type'),
    gateId: Id.nullish().describe('When given, must be the gate the run waits on'),
  })
  .openapi('QueueDecisionRequest', { example: { decision: 'approve', note: 'Sources check out; ready to publish.' } });

export const QueueDecisionEntry = QueueDecisionRequest.extend({ runId: Id }).openapi('QueueDecisionEntry', {
  example: { runId: 'run-3f9a1c2e', decision: 'approve', note: 'Looks good' },
});

export const QueueBatchRequest = z
  .object({
    decisions: z
      .array(
        // Entries are validated one by one in the handler so that a malformed entry fails alone; the
        // document still describes each as a QueueDecisionEntry.
        z.unknown().openapi({ allOf: [{ $ref: '#/components/schemas/QueueDecisionEntry' }] }),
      )
      .min(1)
      .max(LIMITS.batch),
  })
  .openapi('QueueBatchRequest', {
    example: {
      decisions: [
        { runId: 'run-3f9a1c2e', decision: 'approve', note: 'Looks good' },
        { runId: 'run-7b2d4e8f', decision: 'request_changes', note: 'Cite a source for the second section' },
      ],
    },
  });

export const QueueBatchResult = z
  .union([
    z.object({ runId: z.string().nullable(), ok: z.literal(true), status: z.string().describe('The run status after the decision') }),
    z.object({
      runId: z.string().nullable(),
      ok: z.literal(false),
      statusCode: z.number().int().describe('The status the single-decision endpoint would have answered'),
      detail: z.unknown().describe('The error detail the single-decision endpoint would have answered'),
    }),
  ])
  .openapi('QueueBatchResult');

export const QueueBatchResponse = z
  .object({ results: z.array(QueueBatchResult), succeeded: z.number().int(), failed: z.number().int() })
  .openapi('QueueBatchResponse');

export const QueueRunIdParam = z.object({
  run_id: generatedIdParam('run_id', 'run-1a2b3c4d'),
});

export const QueueList = listOf(QueueItem, 'QueueList');
