import { OpenAPIHono } from '@hono/zod-openapi';
import { Step } from '@atelier/contracts/workflow-definition';
import {
  AuthorWorkflowRequest,
  DeprecateWorkflowRequest,
  DryRunRequest,
  DryRunResponse,
  EstimateRequest,
  EstimateResponse,
  ListWorkflowsQuery,
  PublishWorkflowRequest,
  Workflow,
  WorkflowIdParam,
  WorkflowList,
  WorkflowVersionList,
} from '@atelier/contracts/workflows';
import { Pagination } from '@atelier/contracts/common';
import { listWorkflowVersions, listWorkspaceWorkflows } from '@atelier/db';
import { type ShapeIssue, dryRunDraft, estimateDraft, pricingErrors, shapeIssueMessage } from '@atelier/domain';
import { workspaceAccess } from '../access.js';
import { validationHook } from '../errors.js';
import type { AppEnv } from '../services.js';
import {
  authorWorkflow,
  deprecate,
  presentWorkflowSummary,
  presentWorkflowVersion,
  publishWorkflow,
  refusePublished,
  visibleWorkflow,
  workflowInvalid,
  workflowResponse,
} from '../workflows/authoring.js';
import { json } from '../http/route.js';
import { callerOf } from '../http/caller.js';
import { presentPage } from '../presenters/page.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('workflows');

const workflowBody = json(Workflow);

/** Workflow authoring (decisions §2): drafts, publishing as internal, deprecation; dry runs and estimates. */
export const workflowRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(operation('POST /v1/workflows/dry-run', { body: DryRunRequest }, { 200: DryRunResponse }), async (c) => {
    const caller = callerOf(c);
    const body = c.req.valid('json') as Record<string, unknown> & { workspaceId?: string };
    const access = await workspaceAccess(caller, body.workspaceId);
    const previousVersion = await refusePublished(caller, access.workspaceId, body.id, body.version);
    return c.json(dryRunDraft(body, { models: c.get('services').models, previousVersion }), 200);
  })
  .openapi(operation('POST /v1/workflows/estimate', { body: EstimateRequest }, { 200: EstimateResponse }), async (c) => {
    const caller = callerOf(c);
    const body = c.req.valid('json');
    const { models } = c.get('services');
    const access = await workspaceAccess(caller);
    await refusePublished(caller, access.workspaceId, body.id, body.version);
    const errors: string[] = [];
    const steps = body.runtimeSteps.flatMap((raw, index) => {
      const parsed = Step.safeParse(raw);
      if (parsed.success) return [parsed.data];
      errors.push(...parsed.error.issues.map((issue) => shapeIssueMessage(issue as ShapeIssue, raw, ['runtimeSteps', index])));
      return [];
    });
    errors.push(...pricingErrors(steps, body.providers, models));
    if (errors.length > 0) throw workflowInvalid(errors);
    return c.json(estimateDraft(steps, body.providers, body.budgetPolicy, models), 200);
  })
  .openapi(
    operation(
      'POST /v1/workflows',
      { body: AuthorWorkflowRequest },
      {
        200: { description: 'The draft was replaced', ...workflowBody },
        201: { description: 'The workflow was created with this draft', ...workflowBody },
      },
    ),
    async (c) => {
      const { created, workflow } = await authorWorkflow(callerOf(c), c.req.valid('json'));
      return created ? c.json(workflow, 201) : c.json(workflow, 200);
    },
  )
  .openapi(operation('GET /v1/workflows', { query: ListWorkflowsQuery }, { 200: WorkflowList }), async (c) => {
    const q = c.req.valid('query');
    const access = await workspaceAccess(callerOf(c), q.workspaceId);
    const page = await listWorkspaceWorkflows(c.get('services').db, access.workspaceId, q);
    return c.json(presentPage(page, presentWorkflowSummary), 200);
  })
  .openapi(operation('GET /v1/workflows/{id}', { params: WorkflowIdParam }, { 200: Workflow }), async (c) => {
    const caller = callerOf(c);
    const { workflow } = await visibleWorkflow(caller, c.req.valid('param').id);
    return c.json(await workflowResponse(caller, workflow.id), 200);
  })
  .openapi(
    operation('GET /v1/workflows/{id}/versions', { params: WorkflowIdParam, query: Pagination }, { 200: WorkflowVersionList }),
    async (c) => {
      const { workflow } = await visibleWorkflow(callerOf(c), c.req.valid('param').id);
      const { offset, limit } = c.req.valid('query');
      const versions = await listWorkflowVersions(c.get('services').db, workflow.id);
      return c.json({ items: versions.slice(offset, offset + limit).map(presentWorkflowVersion), total: versions.length }, 200);
    },
  )
  .openapi(
    operation('POST /v1/workflows/{id}/publish', { params: WorkflowIdParam, body: PublishWorkflowRequest }, { 200: Workflow }),
    async (c) => c.json(await publishWorkflow(callerOf(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(
    operation('POST /v1/workflows/{id}/deprecate', { params: WorkflowIdParam, body: DeprecateWorkflowRequest }, { 200: Workflow }),
    async (c) => c.json(await deprecate(callerOf(c), c.req.valid('param').id, c.req.valid('json')), 200),
  );
