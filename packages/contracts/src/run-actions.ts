/**
 * The actions on runs beyond creating one: rerunning a run, and cancelling or rerunning many chosen by the run
 * list's filter. runs.ts holds the run itself, its creation and its list.
 */
import { z } from '@hono/zod-openapi';
import { BindingMap, Intake } from './common.js';
import { RUN_TAG_LIMITS, RunMetadata, RunTag } from './run-tags.js';
import { CreateRunRequest, RUN_FILTER_FIELDS, RUN_STATUS_VALUES } from './runs.js';
import { CostRange } from './workflows.js';

export const RerunRequest = z
  .object({
    intake: Intake.optional().describe(
      "Merged over the original run's intake (as stored, defaults applied), one level deep: a key given replaces that key's value whole " +
        '(an object or a list is not merged into), keys not given keep the original value. The result is validated as POST /v1/runs validates an intake',
    ),
    providers: BindingMap.optional().describe(
      "Role bindings over the original run's: a role given is bound as given (a model id or an ordered list), the others keep the original binding",
    ),
    dryRun: z
      .boolean()
      .optional()
      .describe('true: price and check the rerun (the same 4xx and 402 answers as for real), create nothing, answer 200 with the estimate'),
  })
  .openapi('RerunRequest', { example: { intake: { topic: 'rooftop beekeeping in winter' }, dryRun: true } });

export const RerunCreateBody = CreateRunRequest.extend({
  workspaceId: z.string().uuid(),
  projectId: z.string().uuid().nullable(),
  providers: BindingMap.describe("Every role's binding: the original run's, with the request's providers over them"),
  workflowVersion: z.string().describe("The original run's pinned version, pinned again even when a newer one is live"),
  rerunOf: z.string().describe('The original run'),
}).openapi('RerunCreateBody', {
  example: {
    templateId: 'plan-research-report',
    workflowVersion: '2026.11.01',
    intake: { topic: 'rooftop beekeeping in winter', depth: 'standard' },
    workspaceId: '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34',
    projectId: '9b2e7d41-3c6a-4f58-8e19-6a0d2c7b5e83',
    providers: { researcher: 'anthropic/claude-haiku-4-5', textGenerator: 'anthropic/claude-haiku-4-5' },
    priority: 'normal',
    tags: ['q3-content', 'blog'],
    metadata: { customer: 'acme' },
    rerunOf: 'run-3f9a1c2e',
  },
});

export const RerunDryRun = z.object({ estimate: CostRange, wouldCreate: RerunCreateBody }).openapi('RerunDryRun', {
  description:
    'A rerun dry run: estimate is what the rerun is estimated to cost (budgets judge typical, runEstimateUsd in a 402); ' +
    'wouldCreate is the run it would create, as the body POST /v1/runs would be sent with the version it pins',
});

/** How many runs one bulk action may act on: a filter that matches more is refused whole, never done in part. */
export const BULK_LIMITS = { max: 1000, default: 100 } as const;

/** GET /v1/runs's filters as a JSON body: the same fields, with tags and metadata as a list and an object. */
export const RunFilter = z
  .object({
    ...RUN_FILTER_FIELDS,
    includeArchived: z.boolean().optional().describe('true: archived runs match too (the list hides them otherwise)'),
    tag: z.array(RunTag).max(RUN_TAG_LIMITS.tags).optional().describe('Only runs carrying every tag given'),
    metadata: RunMetadata.optional().describe('Only runs whose metadata has each key with exactly this value'),
  })
  .openapi('RunFilter', {
    description:
      "The runs a bulk action chooses, as GET /v1/runs filters them (one workspace: the one named, else the project's or order's, " +
      "else the key's or the caller's default); {} chooses every run of that workspace",
  });

const BulkFields = {
  filter: RunFilter,
  dryRun: z.boolean().optional().describe('true: change nothing; answer what would be done'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(BULK_LIMITS.max)
    .default(BULK_LIMITS.default)
    .describe(
      `A safety cap (1–${BULK_LIMITS.max}, default ${BULK_LIMITS.default}): a filter matching more runs is refused whole ` +
        '(422 bulk_limit_exceeded, with matched and limit), dry run included; nothing is done in part',
    ),
};

export const BulkCancelRequest = z.object(BulkFields).openapi('BulkCancelRequest', {
  example: { filter: { status: 'running', tag: ['campaign:spring'] }, dryRun: true, limit: 100 },
});

export const BulkRerunRequest = z
  .object({ ...BulkFields, intake: RerunRequest.shape.intake, providers: RerunRequest.shape.providers })
  .openapi('BulkRerunRequest', {
    description: 'intake and providers apply to every rerun, each over its own original as a single rerun takes them',
    example: { filter: { status: 'failed', templateId: 'plan-research-report' }, dryRun: true, limit: 50, intake: { depth: 'brief' } },
  });

export const BulkSkipped = z
  .object({
    runId: z.string(),
    reason: z
      .enum(['terminal', 'budget'])
      .describe(
        'terminal: the run had already ended, so there is nothing to cancel; budget: a budget refused an earlier rerun, so none after it was attempted',
      ),
    status: z.enum(RUN_STATUS_VALUES).optional().describe('The run’s status, when the reason is terminal'),
  })
  .openapi('BulkSkipped');

export const BulkFailed = z
  .object({
    runId: z.string(),
    status: z.number().int().describe('The status the single action (POST /v1/runs/{run_id}/cancel or /rerun) answered for this run'),
    detail: z.unknown().describe('Its error body’s detail, as the single action gives it (a 402 carries the budget refusal)'),
  })
  .openapi('BulkFailed');

const Matched = z.number().int().describe('How many runs the filter matched (never more than limit: more is a 422)');
const RunIds = z.array(z.string());

export const BulkCancelDryRun = z
  .object({
    dryRun: z.literal(true),
    matched: Matched,
    wouldAct: RunIds.describe('The runs that would be asked to cancel, newest first'),
    skipped: z.array(BulkSkipped),
  })
  .openapi('BulkCancelDryRun');

export const BulkCancelResult = z
  .object({
    dryRun: z.literal(false),
    matched: Matched,
    acted: RunIds.describe('The runs asked to cancel; each settles as cancelled at its next step boundary'),
    skipped: z.array(BulkSkipped),
    failed: z.array(BulkFailed).describe('Runs the cancel refused, e.g. 409 for one that ended meanwhile'),
  })
  .openapi('BulkCancelResult');

export const BulkRerunDryRun = z
  .object({
    dryRun: z.literal(true),
    matched: Matched,
    wouldAct: RunIds.describe('The runs that would be rerun, newest first: every match whose rerun dry run passed'),
    skipped: z.array(BulkSkipped),
    wouldFail: z
      .array(BulkFailed)
      .describe('Matches whose rerun dry run was refused (e.g. 400 template_deprecated, or 402 from a budget judging that rerun alone)'),
    estimateUsd: z
      .number()
      .describe(
        'The sum of the typical estimates of the reruns in wouldAct. Each was judged alone against budgets as they stand; the reruns together ' +
          'may be refused sooner, and the real bulk rerun stops at the first 402',
      ),
  })
  .openapi('BulkRerunDryRun');

export const BulkRerunResult = z
  .object({
    dryRun: z.literal(false),
    matched: Matched,
    acted: RunIds.describe('The originals rerun, in the order they were'),
    reruns: z.array(z.object({ runId: z.string(), rerunOf: z.string() })).describe('Each new run and its original'),
    skipped: z.array(BulkSkipped),
    failed: z.array(BulkFailed),
  })
  .openapi('BulkRerunResult');
