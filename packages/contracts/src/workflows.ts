import { z } from '@hono/zod-openapi';
import { BindingMap, Id, LIMITS, pathParam, Usd, WorkspaceListQuery, listOf } from './common.js';
import { WorkflowLifecycle } from './workflow-definition.js';

/**
 * Workflow authoring (decisions §2): workspaces write drafts, publish them as internal versions and
 * deprecate them; dry runs and estimates check drafts without saving anything.
 */

export const WorkflowIdParam = z.object({
  id: pathParam('id', Id, 'plan-garden-notes'),
});

export const ListWorkflowsQuery = WorkspaceListQuery;

/**
 * A list of at most `max` items where it is a list. Any other value passes here: what a definition's
 * fields hold is judged by the workflow schema and its rules, which answer every problem at once as
 * workflow_invalid; only the count is refused before them (in the request-validation shape).
 */
const atMost = (max: number) =>
  z
    .unknown()
    .superRefine((value, ctx) => {
      if (Array.isArray(value) && value.length > max) {
        ctx.addIssue({ code: 'too_big', origin: 'array', maximum: max, inclusive: true, input: value, message: `at most ${max} items` });
      }
    })
    .openapi({ type: 'array', items: {}, maxItems: max })
    .optional();

/** The lists that size a definition (LIMITS.steps, .gates, .intakeFields), counted before any rule reads them. */
const DefinitionLists = {
  runtimeSteps: atMost(LIMITS.steps),
  gates: atMost(LIMITS.gates),
  intakeSchema: z
    .unknown()
    .superRefine((value, ctx) => {
      const fields = value !== null && typeof value === 'object' ? (value as { fields?: unknown }).fields : undefined;
      if (Array.isArray(fields) && fields.length > LIMITS.intakeFields) {
        ctx.addIssue({
          code: 'too_big',
          origin: 'array',
          maximum: LIMITS.intakeFields,
          inclusive: true,
          input: fields,
          path: ['fields'],
          message: `at most ${LIMITS.intakeFields} items`,
        });
      }
    })
    .openapi({ type: 'object', properties: { fields: { type: 'array', items: {}, maxItems: LIMITS.intakeFields } } })
    .optional(),
};

export const AuthorWorkflowRequest = z
  .object({
    workspaceId: z.string().uuid().optional().describe("The owning workspace; defaults to the caller's default workspace"),
    definition: z
      .object(DefinitionLists)
      .catchall(z.unknown())
      .describe(
        `A WorkflowDefinition. Its lists are counted first (at most ${LIMITS.steps} runtimeSteps, ${LIMITS.gates} gates, ${LIMITS.intakeFields} intake fields; 422 request validation beyond); then it is checked against the workflow schema and every publishing rule, and all problems come back at once as 422 workflow_invalid`,
      ),
  })
  .openapi('AuthorWorkflowRequest', {
    example: {
      workspaceId: '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34',
      definition: {
        id: 'plan-bee-guide',
        name: 'Plan a beekeeping guide',
        artifactClass: 'research',
        version: '2026.11.26',
        intakeSchema: { fields: [{ name: 'topic', type: 'string', required: true }] },
        runtimeSteps: [{ id: 'step-1', name: 'Research', kind: 'llm', role: 'researcher', capability: 'text' }],
        gates: [],
        providers: { researcher: 'anthropic/claude-haiku-4-5' },
      },
    },
  });

export const PublishWorkflowRequest = z
  .object({
    version: Id.describe('The draft version to publish; it must sort after the previous published version'),
    visibility: z
      .enum(['internal', 'public'])
      .default('internal')
      .describe('internal (runnable by the workspace, never listed in the public catalog); workspace-authored workflows are never public'),
  })
  .openapi('PublishWorkflowRequest', { example: { version: '2026.11.26', visibility: 'internal' } });

export const DeprecateWorkflowRequest = z
  .object({ supersededById: Id.describe('An existing workflow the caller can see; runs of the deprecated one are refused naming it') })
  .openapi('DeprecateWorkflowRequest', { example: { supersededById: 'plan-bee-guide' } });

const Visibility = z.enum(['draft', 'internal', 'public']);

export const WorkflowVersion = z
  .object({
    version: z.string(),
    state: z.enum(['draft', 'published']),
    visibility: Visibility.nullable(),
    definitionHash: z.string(),
    createdAt: z.string(),
    publishedAt: z.string().nullable(),
  })
  .openapi('WorkflowVersion');

export const WorkflowSummary = z
  .object({
    id: z.string(),
    name: z.string(),
    workspaceId: z.string().uuid().nullable().describe('null for the platform built-ins'),
    builtin: z.boolean(),
    ...WorkflowLifecycle,
    visibility: Visibility,
    liveVersion: z.string().nullable().describe('The newest published version: what new runs pin; null while only a draft exists'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('WorkflowSummary');

export const Workflow = WorkflowSummary.extend({
  draftVersion: z.string().nullable().describe('The current draft, if any'),
  versions: z.array(WorkflowVersion).describe('Newest first'),
  definitionVersion: z.string().describe('The version whose definition is shown: the live one, else the newest draft'),
  definition: z.record(z.string(), z.unknown()).describe('The full, unredacted definition'),
}).openapi('Workflow');

/** A price range in USD; `typical` is what budgets judge. */
export const CostRange = z
  .object({ min: z.number(), typical: z.number(), max: z.number(), currency: z.literal('USD') })
  .openapi('EstimatedCost');

export const DryRunRequest = z
  .object({
    ...DefinitionLists,
    intake: z.unknown().optional().describe("An intake to resolve against the draft's intakeSchema"),
    workspaceId: z.string().uuid().optional(),
    templateId: z
      .string()
      .max(LIMITS.id)
      .optional()
      .describe('Ignored: a dry run checks the definition in the body, never a stored workflow'),
  })
  .passthrough()
  .describe('A draft WorkflowDefinition, whole or partial (intakeSchema, runtimeSteps, providers, gates, ...), plus intake')
  .openapi('DryRunRequest', {
    example: {
      intakeSchema: { fields: [{ name: 'topic', type: 'string', required: true, description: 'What the report is about' }] },
      runtimeSteps: [{ id: 'step-1', name: 'Outline', kind: 'llm', role: 'researcher', capability: 'text' }],
      intake: { topic: 'urban beekeeping' },
      workspaceId: '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34',
    },
  });

export const DryRunResponse = z
  .object({
    ok: z.boolean().describe('No errors; judge a pass by stepCount and warnings as well'),
    stepCount: z.number().int(),
    steps: z.array(
      z.object({
        id: z.string().nullable(),
        name: z.string().nullable(),
        kind: z.string().nullable(),
        role: z.string().nullable(),
        model: z.string().nullable(),
      }),
    ),
    errors: z.array(z.string()),
    warnings: z.array(z.string()),
    estimate: z.object({ estimatedCost: CostRange, perRunCapUsd: z.number().nullable(), highCost: z.boolean() }),
  })
  .openapi('DryRunResponse');

export const EstimateRequest = z
  .object({
    id: z
      .string()
      .max(LIMITS.id)
      .optional()
      .describe('The draft workflow id, when there is one; published catalog workflows cannot be estimated'),
    version: z.string().max(LIMITS.id).optional(),
    runtimeSteps: z.array(z.record(z.string(), z.unknown())).max(LIMITS.steps).describe('Step objects of a draft'),
    providers: BindingMap,
    budgetPolicy: z.object({ perRunCapUsd: Usd.optional() }).passthrough().optional(),
  })
  .openapi('EstimateRequest', {
    example: {
      runtimeSteps: [{ id: 'step-1', name: 'Outline', kind: 'llm', role: 'researcher', capability: 'text' }],
      providers: { researcher: 'anthropic/claude-haiku-4-5' },
      budgetPolicy: { perRunCapUsd: 2 },
    },
  });

export const EstimateResponse = z
  .object({
    estimatedCost: CostRange,
    perRunCapUsd: z.number().nullable(),
    highCost: z.boolean().describe('typical above perRunCapUsd, or above 1 USD when there is no cap'),
    steps: z.array(z.object({ id: z.string(), typicalUsd: z.number() })),
  })
  .openapi('EstimateResponse');

export const WorkflowList = listOf(WorkflowSummary, 'WorkflowList');

export const WorkflowVersionList = listOf(WorkflowVersion, 'WorkflowVersionList');
