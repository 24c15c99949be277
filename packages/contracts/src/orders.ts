import { z } from '@hono/zod-openapi';
import { BindingMap, generatedIdParam, Id, Instant, Intake, LIMITS, Pagination, Usd, listOf } from './common.js';
import { ORDER_STATUSES, type OrderStatus } from './order-statuses.js';
import { MAX_CONCURRENCY, PRIORITY_VALUES } from './priorities.js';
import { RunMetadata, RunTags } from './run-tags.js';

const Money = Usd;

export const ENFORCEMENT_MODE_VALUES = ['hard_stop', 'allow_overage', 'allow_one_more', 'notify_only'] as const;

// Each resolver and its params are named components: generators (openapi-python-client) cannot name inline objects inside a oneOf.
export const VariationSpecList = z
  .object({
    resolver: z.literal('list'),
    params: z
      .object({ items: z.array(Intake).min(1, 'must list at least one variation').max(LIMITS.variations) })
      .openapi('VariationSpecListParams'),
  })
  .openapi('VariationSpecList');

export const VariationSpecMatrix = z
  .object({
    resolver: z.literal('matrix'),
    params: z
      .object({
        axes: z.record(z.string().max(LIMITS.id), z.array(z.unknown()).min(1, 'each axis needs at least one value').max(LIMITS.variations)),
      })
      .openapi('VariationSpecMatrixParams'),
  })
  .openapi('VariationSpecMatrix');

export const VariationSpecCsv = z
  .object({ resolver: z.literal('csv'), params: z.object({ csv: z.string().min(1).max(LIMITS.csv) }).openapi('VariationSpecCsvParams') })
  .openapi('VariationSpecCsv');

export const VariationSpec = z
  .discriminatedUnion('resolver', [VariationSpecList, VariationSpecMatrix, VariationSpecCsv])
  .openapi('VariationSpec');

export const CreateOrderRequest = z
  .object({
    workflowId: Id,
    variationSpec: VariationSpec,
    intakeBase: Intake.optional(),
    workflowVersion: z.string().max(LIMITS.id).optional(),
    workspaceId: z.string().uuid().optional(),
    projectId: z.string().uuid().nullish(),
    targetCount: z.number().int().min(1).max(LIMITS.variations).optional(),
    executionMode: z.enum(['standard', 'batch']).optional(),
    budgetLimitUsd: Money.optional(),
    budgetEnforcementMode: z.enum(ENFORCEMENT_MODE_VALUES).optional(),
    providerOverrides: BindingMap.optional(),
    planArtifactId: z.string().max(LIMITS.id).optional(),
    priority: z
      .enum(PRIORITY_VALUES)
      .optional()
      .describe(
        'How soon the children are served when workers are busy (default normal): one level below a single run of the same priority; ' +
          'within one priority each workspace gets its share of the workers',
      ),
    maxConcurrency: z
      .number()
      .int()
      .min(MAX_CONCURRENCY.min)
      .max(MAX_CONCURRENCY.max)
      .optional()
      .describe("Children of this order running at once, at most (default: the deployment's setting)"),
    // The order itself does not carry them: they are for finding its children among runs (GET /v1/runs?tag=…).
    tags: RunTags.optional().describe("Tags every child run gets (as a run's tags); retried children keep them"),
    metadata: RunMetadata.optional().describe("Metadata every child run gets (as a run's metadata); retried children keep it"),
  })
  .openapi('CreateOrderRequest', {
    example: {
      workflowId: 'plan-research-report',
      variationSpec: {
        resolver: 'list',
        params: { items: [{ topic: 'urban beekeeping' }, { topic: 'rooftop gardens' }, { topic: 'community composting' }] },
      },
      workspaceId: '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34',
      projectId: '9b2e7d41-3c6a-4f58-8e19-6a0d2c7b5e83',
      targetCount: 3,
      budgetLimitUsd: 12.5,
      budgetEnforcementMode: 'hard_stop',
      tags: ['q3-content'],
    },
  });

export const OrderCounts = z
  .object({
    planned: z.number().int(),
    running: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int(),
    cancelled: z.number().int(),
  })
  .openapi('OrderCounts');

export { ORDER_STATUSES, type OrderStatus };

export const Order = z
  .object({
    id: z.string(),
    workflowId: z.string(),
    workflowVersion: z.string(),
    status: z.enum(ORDER_STATUSES),
    executionMode: z.enum(['standard', 'batch']),
    targetCount: z.number().int(),
    counts: OrderCounts,
    estimatedCostUsd: z.number(),
    actualCostUsd: z.number(),
    budgetLimitUsd: z.number().nullable(),
    budgetEnforcementMode: z.string(),
    currency: z.string(),
    workspaceId: z.string().uuid(),
    projectId: z.string().uuid().nullable(),
    planArtifactId: z.string().nullable(),
    priority: z.enum(PRIORITY_VALUES),
    maxConcurrency: z.number().int().nullable().describe("As asked at creation; null: the deployment's setting"),
    providerOverrides: z.record(z.string(), z.string()),
    acceptGapReason: z.string().nullable(),
    failureReason: z.string().nullable(),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
  })
  .openapi('Order', {
    example: {
      id: 'order-5b8e2c41',
      workflowId: 'plan-research-report',
      workflowVersion: '2026.11.01',
      status: 'attention',
      executionMode: 'standard',
      targetCount: 3,
      counts: { planned: 0, running: 0, succeeded: 2, failed: 1, skipped: 0, cancelled: 0 },
      estimatedCostUsd: 0.126,
      actualCostUsd: 0.089,
      budgetLimitUsd: 12.5,
      budgetEnforcementMode: 'hard_stop',
      currency: 'USD',
      workspaceId: '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34',
      projectId: '9b2e7d41-3c6a-4f58-8e19-6a0d2c7b5e83',
      planArtifactId: null,
      priority: 'normal',
      maxConcurrency: null,
      providerOverrides: {},
      acceptGapReason: null,
      failureReason: null,
      createdAt: '2026-11-26T10:20:00.000Z',
      startedAt: '2026-11-26T10:21:12.500Z',
      finishedAt: null,
    },
  });

export const OrderIdParam = z.object({
  order_id: generatedIdParam('order_id', 'order-0123456789abcdef'),
});

/**
 * GET /v1/orders: the standard offset paging, or a cursor from an earlier page's nextCursor. Offset has
 * no default here so that one given beside a cursor can be told from one left out; unset, it is 0.
 */
export const ListOrdersQuery = Pagination.extend({
  offset: z.coerce
    .number()
    .int()
    .min(0)
    .max(LIMITS.int32)
    .optional()
    .describe('Orders to skip (default 0); not with cursor')
    .openapi({ param: { name: 'offset', in: 'query' }, example: 0 }),
  cursor: z
    .string()
    .min(1)
    .max(LIMITS.opaque)
    .optional()
    .describe("An earlier page's nextCursor: the page after it, however many orders were created since; not with offset"),
  workspaceId: z.string().uuid().optional(),
  projectId: z.string().uuid().optional(),
  status: z.enum(ORDER_STATUSES).optional(),
  workflowId: Id.optional(),
  createdAfter: Instant.optional().describe('Orders created at or after this instant'),
  createdBefore: Instant.optional().describe('Orders created before this instant'),
}).superRefine((q, ctx) => {
  if (q.cursor !== undefined && q.offset !== undefined)
    ctx.addIssue({ code: 'custom', path: ['offset'], message: 'give cursor or offset, not both: the cursor says where the page starts' });
});

export const OrderList = z
  .object({
    items: z.array(Order),
    total: z.number().int().describe('Orders matching the filters, on every page'),
    nextCursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
  })
  .openapi('OrderList');

export const RetryFailedRequest = z
  .object({
    all: z.boolean().optional(),
    runIds: z.array(z.string().max(LIMITS.id)).max(LIMITS.variations).optional().describe('Children to retry, when not all'),
    includeDeterministic: z.boolean().optional(),
  })
  .refine((b) => b.all === true || (b.runIds !== undefined && b.runIds.length > 0), {
    message: 'give all: true or the runIds to retry',
    path: ['runIds'],
  })
  .openapi('RetryFailedRequest', { example: { all: true, includeDeterministic: false } });

export const AcceptGapRequest = z
  .object({ reason: z.string().trim().min(1).max(LIMITS.shortText) })
  .openapi('AcceptGapRequest', { example: { reason: 'Two of three reports are enough for the newsletter; the third topic is dropped.' } });

export const CreateBudgetRequest = z
  .object({
    scope: z.enum(['workspace', 'project']),
    workspaceId: z.string().uuid(),
    projectId: z.string().uuid().optional(),
    limitUsd: Money,
    period: z.enum(['month', 'total']),
    enforcementMode: z.enum(ENFORCEMENT_MODE_VALUES),
    overageUsd: Money.optional(),
    perRunCapUsd: Money.optional(),
    name: z.string().max(LIMITS.name).optional(),
  })
  .refine((b) => (b.scope === 'project') === (b.projectId !== undefined), {
    message: 'a project budget names its projectId; a workspace budget does not',
    path: ['projectId'],
  })
  .refine((b) => b.enforcementMode !== 'allow_overage' || b.overageUsd !== undefined, {
    message: 'allow_overage needs overageUsd',
    path: ['overageUsd'],
  })
  .openapi('CreateBudgetRequest', {
    example: {
      scope: 'workspace',
      workspaceId: '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34',
      limitUsd: 500,
      period: 'month',
      enforcementMode: 'hard_stop',
      perRunCapUsd: 5,
      name: 'Monthly content budget',
    },
  });

export const PatchBudgetRequest = z
  .object({
    limitUsd: Money.optional(),
    period: z.enum(['month', 'total']).optional(),
    enforcementMode: z.enum(ENFORCEMENT_MODE_VALUES).optional(),
    overageUsd: Money.nullable().optional(),
    perRunCapUsd: Money.nullable().optional(),
    name: z.string().max(LIMITS.name).nullable().optional(),
  })
  .openapi('PatchBudgetRequest', { example: { limitUsd: 750, enforcementMode: 'allow_overage', overageUsd: 50 } });

export const Budget = z
  .object({
    id: z.string(),
    scope: z.enum(['workspace', 'project']),
    workspaceId: z.string().uuid(),
    projectId: z.string().uuid().nullable(),
    limitUsd: z.number(),
    period: z.enum(['month', 'total']),
    enforcementMode: z.enum(ENFORCEMENT_MODE_VALUES),
    overageUsd: z.number().nullable(),
    perRunCapUsd: z.number().nullable(),
    name: z.string().nullable(),
    spendUsd: z.number().describe('Actual cost plus the estimates of runs not yet settled, this period'),
    remainingUsd: z.number(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Budget');

/**
 * A refusal as a budget recorded it. Not the 402 body itself: that is BudgetRefusal (errors.ts), whose
 * `detail` this record keeps, with when, by whom and for what the request was refused.
 */
export const BudgetRefusalRecord = z
  .object({
    id: z.string(),
    detail: z.record(z.string(), z.unknown()).describe('The `detail` of the 402 BudgetRefusal body the request was answered with'),
    attempted: z.string(),
    callerId: z.string().nullable(),
    callerVia: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('BudgetRefusalRecord');

export const CostsQuery = z.object({
  workspaceId: z.string().uuid().optional(),
  projectId: z.string().uuid().optional(),
  from: z.string().datetime({ offset: true }).max(LIMITS.label).or(z.string().date()).optional(),
  to: z.string().datetime({ offset: true }).max(LIMITS.label).or(z.string().date()).optional(),
  groupBy: z.enum(['day', 'workflow', 'project', 'provider', 'model']).default('day'),
});

export const Costs = z
  .object({
    currency: z.string(),
    totalUsd: z.number(),
    groupBy: z.string(),
    items: z.array(z.object({ key: z.string().nullable(), actualUsd: z.number(), estimatedUsd: z.number(), runs: z.number().int() })),
  })
  .openapi('Costs');

export const BudgetList = listOf(Budget, 'BudgetList');

export const BudgetRefusalList = listOf(BudgetRefusalRecord, 'BudgetRefusalList');
