import { z } from '@hono/zod-openapi';
import { BindingMap, generatedIdParam, Id, Instant, Intake, LIMITS, Pagination, QueryBoolean, listOf } from './common.js';

import { PRIORITY_VALUES } from './priorities.js';
import { RUN_STATUS_VALUES } from './run-statuses.js';
import { MetadataFilter, RunMetadata, RunTags, TagFilter, checkMetadataParams, metadataParamsOf } from './run-tags.js';

export { RUN_STATUS_VALUES };

export const CreateRunRequest = z
  .object({
    templateId: Id,
    intake: Intake,
    workspaceId: z.string().uuid().optional(),
    projectId: z.string().uuid().nullish(),
    providers: BindingMap.optional().describe(
      'Role to model-registry id, or to an ordered list of ids (primary first, then fallbacks), for this run only',
    ),
    priority: z
      .enum(PRIORITY_VALUES)
      .optional()
      .describe(
        'How soon the run is served when workers are busy (default normal). A run goes ahead of order children of the same priority; ' +
          'within one priority each workspace gets its share of the workers',
      ),
    tags: RunTags.optional(),
    metadata: RunMetadata.optional(),
  })
  .openapi('CreateRunRequest', {
    example: {
      templateId: 'plan-research-report',
      intake: { topic: 'urban beekeeping' },
      workspaceId: '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34',
      projectId: '9b2e7d41-3c6a-4f58-8e19-6a0d2c7b5e83',
      priority: 'normal',
      tags: ['q3-content', 'blog'],
      metadata: { customer: 'acme' },
    },
  });

export const StepFallback = z
  .object({
    role: z.string().describe('The role whose binding listed the model'),
    model: z.string().describe('The model-registry id skipped'),
    reason: z
      .enum(['provider_unavailable', 'model_not_found', 'provider_throttled'])
      .describe(
        'provider_unavailable: down, 5xx or timeouts after retries, or 503; model_not_found: 404; provider_throttled: 429s outlasted the bounded wait',
      ),
    error: z.string().describe("The provider's failure, as the engine saw it"),
  })
  .openapi('StepFallback');

export const RunStep = z
  .object({
    id: z.string().describe('The definition step id'),
    name: z.string(),
    kind: z.string(),
    status: z.enum(['pending', 'completed', 'failed', 'skipped']),
    provider: z.string().nullable(),
    model: z.string().nullable(),
    durationMs: z.number().int().nullable(),
    costActualUsd: z
      .number()
      .describe(
        "What the step cost. A subWorkflow step's is its child run's total (totalCosts.actualUsd), billed on the child run, not on this one",
      ),
    error: z.string().nullable().optional(),
    attempts: z.number().int().optional().describe('Times the step was started: more than 1 when a worker died mid-step and it ran again'),
    fallbacks: z
      .array(StepFallback)
      .optional()
      .describe('Models of the role binding skipped before the one that ran (provider and model), in the order tried; only when any was'),
    providerSpendUsd: z
      .number()
      .optional()
      .describe(
        'What the providers charged for this step, every attempt included; costActualUsd is what is billed, once. On reads of one run',
      ),
    startedAt: z
      .string()
      .nullable()
      .optional()
      .describe('When the step (its last attempt) started; null until it has. On reads of one run'),
    finishedAt: z.string().nullable().optional().describe('When the step settled; null until it has. On reads of one run'),
    output: z
      .unknown()
      .optional()
      .describe(
        "The step's recorded output (a subWorkflow step's carries its child's runId); null until it has one. On reads of one run, " +
          'so a list of runs stays small',
      ),
    input: z
      .unknown()
      .optional()
      .describe(
        'What the step was given, resolved against the run as it started: a model step its rendered prompt (`{ prompt }`, an image ' +
          "step's params beside it), a tool or code function its input, a code expression the run context it reads. null until the " +
          'step starts, for a step with no input of its own (skipped, subWorkflow: its child run has the intake), for steps recorded ' +
          'before inputs were kept, and when its JSON is over 64 KB (then inputOmitted is true). On reads of one run',
      ),
    inputOmitted: z
      .boolean()
      .optional()
      .describe('True when the input was over 64 KB as JSON and was not kept (input is null). On reads of one run'),
  })
  .openapi('RunStep');

export const RunDecision = z
  .object({
    decision: z.enum(['approve', 'reject', 'request_changes']),
    note: z.string().nullable(),
    gateId: z.string().nullable(),
    patch: z.record(z.string(), z.unknown()).nullable(),
    who: z.string().describe('The user who decided'),
    via: z.string().describe('session or api_key'),
    when: z.string(),
  })
  .openapi('RunDecision');

export const TotalCosts = z
  .object({
    estimatedUsd: z.number(),
    actualUsd: z
      .number()
      .describe("The run's total: its own spend and its sub-workflow children's (theirs in full, their children's included)"),
    ownActualUsd: z
      .number()
      .describe(
        "What the run's own steps spent, its children's left out: each child bills its own, so a sum across runs (GET /v1/costs, budgets) adds this",
      ),
    currency: z.string(),
    status: z.string(),
  })
  .openapi('TotalCosts');

export const Run = z
  .object({
    id: z.string(),
    templateId: z.string(),
    templateName: z.string(),
    status: z.enum(RUN_STATUS_VALUES),
    currentStepIndex: z.number().int(),
    intake: z.record(z.string(), z.unknown()),
    artifactId: z.string().nullable(),
    durationMs: z.number().int().nullable(),
    workflowVersion: z.string(),
    specVersionHash: z.string(),
    createdVia: z.enum(['session', 'api_key', 'worker']),
    apiKeyId: z.string().nullable(),
    apiKeyName: z.string().nullable(),
    workspaceId: z.string().uuid(),
    projectId: z.string().uuid().nullable(),
    queuedAt: z.string(),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
    totalCosts: TotalCosts,
    runSteps: z.array(RunStep),
    error: z.string().nullable(),
    errorCode: z.string().nullable(),
    failureDetails: z.record(z.string(), z.unknown()).nullable(),
    parentRunId: z.string().nullable(),
    parentOrderId: z.string().nullable(),
    rerunOf: z.string().nullable().describe('The run this one was created again from (POST /v1/runs/{run_id}/rerun); null otherwise'),
    orderDedupeKey: z.string().nullable(),
    workerId: z.string().nullable(),
    archived: z.boolean(),
    notExecutedReason: z.string().nullable(),
    reviewGate: z
      .object({ id: z.string(), name: z.string(), holdFields: z.array(z.unknown()) })
      .nullable()
      .describe('The approval gate a run in review waits on'),
    decisions: z.array(RunDecision).describe('The review ledger: who decided what, when, with which note'),
    tags: z.array(z.string()).describe('As given at creation, duplicates dropped; [] when none'),
    metadata: z.record(z.string(), z.string()).describe('As given at creation; {} when none'),
  })
  .openapi('Run', {
    example: {
      id: 'run-3f9a1c2e',
      templateId: 'plan-research-report',
      templateName: 'Plan a research report',
      status: 'completed',
      currentStepIndex: 2,
      intake: { topic: 'urban beekeeping', depth: 'standard' },
      artifactId: 'artifact-8d2f4b6a',
      durationMs: 48210,
      workflowVersion: '2026.11.01',
      specVersionHash: 'sha256:5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8',
      createdVia: 'api_key',
      apiKeyId: '0c7e5a1f-2b4d-4e8a-9f3c-6d1b8a2e4f70',
      apiKeyName: 'CI pipeline',
      workspaceId: '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34',
      projectId: '9b2e7d41-3c6a-4f58-8e19-6a0d2c7b5e83',
      queuedAt: '2026-11-26T10:15:02.114Z',
      createdAt: '2026-11-26T10:15:02.114Z',
      finishedAt: '2026-11-26T10:15:50.324Z',
      totalCosts: { estimatedUsd: 0.042, actualUsd: 0.037, ownActualUsd: 0.037, currency: 'USD', status: 'provider_reported' },
      runSteps: [
        {
          id: 'step-1',
          name: 'Research',
          kind: 'llm',
          status: 'completed',
          provider: 'anthropic',
          model: 'anthropic/claude-haiku-4-5',
          durationMs: 21400,
          costActualUsd: 0.021,
        },
        {
          id: 'step-2',
          name: 'Write report',
          kind: 'llm',
          status: 'completed',
          provider: 'anthropic',
          model: 'anthropic/claude-haiku-4-5',
          durationMs: 26300,
          costActualUsd: 0.016,
        },
        {
          id: 'step-3',
          name: 'artifact.create',
          kind: 'code',
          status: 'completed',
          provider: null,
          model: null,
          durationMs: 510,
          costActualUsd: 0,
        },
      ],
      error: null,
      errorCode: null,
      failureDetails: null,
      parentRunId: null,
      parentOrderId: null,
      rerunOf: null,
      orderDedupeKey: null,
      workerId: null,
      archived: false,
      notExecutedReason: null,
      reviewGate: null,
      decisions: [],
      tags: ['q3-content', 'blog'],
      metadata: { customer: 'acme' },
    },
  });

export const MoveRunRequest = z
  .object({ projectId: z.string().uuid().nullable().describe('A project of the same workspace, or null for workspace level') })
  .openapi('MoveRunRequest', { example: { projectId: '9b2e7d41-3c6a-4f58-8e19-6a0d2c7b5e83' } });

/** The longest `q` GET /v1/runs searches for: longer than any id, workflow name or tag it could be part of. */
export const RUN_SEARCH_MAX = LIMITS.name;

/**
 * The filters GET /v1/runs and the bulk actions (POST /v1/runs/bulk-cancel, bulk-rerun) share: one list of
 * fields, so a bulk action chooses its runs exactly as the list a client checked first would show them.
 */
export const RUN_FILTER_FIELDS = {
  workspaceId: z.string().uuid().optional(),
  projectId: z.string().uuid().optional(),
  status: z.enum(RUN_STATUS_VALUES).optional(),
  templateId: Id.optional().describe('Only runs of this workflow'),
  parentOrderId: z.string().max(LIMITS.id).optional(),
  workerId: z.string().max(LIMITS.id).optional(),
  rerunOf: z.string().max(LIMITS.generatedId).optional().describe('Only the reruns of this run'),
  createdAfter: Instant.optional().describe('Runs created at or after this instant'),
  createdBefore: Instant.optional().describe('Runs created before this instant'),
  q: z
    .string()
    .max(RUN_SEARCH_MAX)
    .trim()
    .optional()
    .describe(
      `Only runs whose id, workflow id, workflow name or one of whose tags contains this text, case aside (at most ${RUN_SEARCH_MAX} characters; % and _ are matched as themselves)`,
    )
    .openapi({ example: 'heron' }),
};

export const ListRunsQuery = Pagination.extend({
  ...RUN_FILTER_FIELDS,
  includeArchived: QueryBoolean,
  tag: TagFilter,
  metadata: MetadataFilter,
})
  // metadata[<key>] parameters arrive as keys of their own: let them through, check them, fold them into `metadata`.
  .loose()
  .superRefine(checkMetadataParams)
  .overwrite((query) => {
    const metadata = metadataParamsOf(query);
    return metadata ? { ...query, metadata } : query;
  });

export const RunIdParam = z.object({
  run_id: generatedIdParam('run_id', 'run-1a2b3c4d'),
});

export const RunList = listOf(Run, 'RunList');
