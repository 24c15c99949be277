import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { listOf } from '@atelier/contracts/common';
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
  WorkflowSummary,
  WorkflowVersion,
} from '@atelier/contracts/workflows';
import { Pagination } from '@atelier/contracts/common';
import { listWorkflowVersions, listWorkspaceWorkflows } from '@atelier/db';
import { type ShapeIssue, dryRunDraft, estimateDraft, pricingErrors, shapeIssueMessage } from '@atelier/domain';
import { workspaceAccess } from '../access.js';
import { errorResponses, validationHook } from '../errors.js';
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
import { json, jsonBody, secured, WHO_MAY_CALL } from '../http/route.js';
import { callerOf } from '../http/caller.js';
import { presentPage } from '../presenters/page.js';

const workflowBody = json(Workflow);

/** Workflow authoring (decisions §2): drafts, publishing as internal, deprecation; dry runs and estimates. */
export const workflowRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    createRoute({
      ...secured('workflows'),
      method: 'post',
      path: '/v1/workflows/dry-run',
      summary: 'Check a draft definition (whole or partial) and an intake without saving or running anything',
      description:
        'Fields present are checked (shape and the rules that apply); absent template fields are warnings. A body with a templateId and no definition is accepted and ignored: ok, zero steps, a warning. Published workflows cannot be dry-run (409 workflow_published).',
      request: { body: jsonBody(DryRunRequest) },
      responses: {
        200: { description: 'The verdict; a pass is judged by stepCount and warnings as well as ok', ...json(DryRunResponse) },
        ...errorResponses(401, 404, 409, 422),
      },
    }),
    async (c) => {
      const caller = callerOf(c);
      const body = c.req.valid('json') as Record<string, unknown> & { workspaceId?: string };
      const access = await workspaceAccess(caller, body.workspaceId);
      const previousVersion = await refusePublished(caller, access.workspaceId, body.id, body.version);
      return c.json(dryRunDraft(body, { models: c.get('services').models, previousVersion }), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('workflows'),
      method: 'post',
      path: '/v1/workflows/estimate',
      summary: 'Price draft runtimeSteps on their provider bindings',
      description:
        'highCost: the typical estimate is above budgetPolicy.perRunCapUsd, or above 1 USD without a cap. Unregistered models and unbound roles are 422 workflow_invalid.',
      request: { body: jsonBody(EstimateRequest) },
      responses: { 200: { description: 'The estimate', ...json(EstimateResponse) }, ...errorResponses(401, 409, 422) },
    }),
    async (c) => {
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
    },
  )
  .openapi(
    createRoute({
      ...secured('workflows'),
      method: 'post',
      path: '/v1/workflows',
      summary: "Create a workspace's workflow as a draft, or replace its current draft (owners and admins)",
      description:
        "Creates a workflow of the caller's workspace as a draft (201), or replaces its current draft (200); drafts are not in the catalog and do not execute. Owners and admins only (403 admin_required); an id used by another workflow is 409 workflow_id_taken, and a published version is frozen (409 version_frozen).",
      request: { body: jsonBody(AuthorWorkflowRequest) },
      responses: {
        200: { description: 'The draft was replaced', ...workflowBody },
        201: { description: 'The workflow was created with this draft', ...workflowBody },
        ...errorResponses(401, 403, 404, 409, 422),
      },
    }),
    async (c) => {
      const { created, workflow } = await authorWorkflow(callerOf(c), c.req.valid('json'));
      return created ? c.json(workflow, 201) : c.json(workflow, 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('workflows'),
      method: 'get',
      path: '/v1/workflows',
      summary: 'The workflows a workspace can run: its own (any visibility) and the built-ins',
      description: `The workflows a workspace can run: its own at any visibility, and the built-ins. ${WHO_MAY_CALL.member}`,
      request: { query: ListWorkflowsQuery },
      responses: {
        200: { description: 'Workflows', ...json(listOf(WorkflowSummary, 'WorkflowList')) },
        ...errorResponses(401, 403, 404, 422),
      },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const access = await workspaceAccess(callerOf(c), q.workspaceId);
      const page = await listWorkspaceWorkflows(c.get('services').db, access.workspaceId, q);
      return c.json(presentPage(page, presentWorkflowSummary), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('workflows'),
      method: 'get',
      path: '/v1/workflows/{id}',
      summary: 'A workflow with its full, unredacted definition (live version, else newest draft)',
      description: `A workflow with its full, unredacted definition: the live version, else the newest draft. ${WHO_MAY_CALL.member}`,
      request: { params: WorkflowIdParam },
      responses: { 200: { description: 'The workflow', ...workflowBody }, ...errorResponses(401, 403, 404) },
    }),
    async (c) => {
      const caller = callerOf(c);
      const { workflow } = await visibleWorkflow(caller, c.req.valid('param').id);
      return c.json(await workflowResponse(caller, workflow.id), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('workflows'),
      method: 'get',
      path: '/v1/workflows/{id}/versions',
      summary: 'The versions of a workflow, newest first',
      description: `The versions of a workflow, newest first, each with its status. ${WHO_MAY_CALL.member}`,
      request: { params: WorkflowIdParam, query: Pagination },
      responses: {
        200: { description: 'Versions', ...json(listOf(WorkflowVersion, 'WorkflowVersionList')) },
        ...errorResponses(401, 403, 404, 422),
      },
    }),
    async (c) => {
      const { workflow } = await visibleWorkflow(callerOf(c), c.req.valid('param').id);
      const { offset, limit } = c.req.valid('query');
      const versions = await listWorkflowVersions(c.get('services').db, workflow.id);
      return c.json({ items: versions.slice(offset, offset + limit).map(presentWorkflowVersion), total: versions.length }, 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('workflows'),
      method: 'post',
      path: '/v1/workflows/{id}/publish',
      summary: 'Publish the draft version as internal: frozen, live, runnable by the workspace, never in the public catalog',
      description:
        'Publishes the draft version as internal: frozen, live and runnable by the workspace, never in the public catalog. Owners and admins only (403 admin_required); a version already published is 409 version_frozen.',
      request: { params: WorkflowIdParam, body: jsonBody(PublishWorkflowRequest) },
      responses: { 200: { description: 'The workflow', ...workflowBody }, ...errorResponses(401, 403, 404, 409, 422) },
    }),
    async (c) => c.json(await publishWorkflow(callerOf(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      ...secured('workflows'),
      method: 'post',
      path: '/v1/workflows/{id}/deprecate',
      summary: 'Deprecate a workflow in favour of a successor; new runs are refused with 400 template_deprecated',
      description:
        'Deprecates a workflow in favour of a successor: new runs of it are refused with 400 template_deprecated naming supersededBy, and runs already made are untouched. Owners and admins only (403 admin_required); an unknown or unfit successor is 422 invalid_successor.',
      request: { params: WorkflowIdParam, body: jsonBody(DeprecateWorkflowRequest) },
      responses: { 200: { description: 'The workflow', ...workflowBody }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => c.json(await deprecate(callerOf(c), c.req.valid('param').id, c.req.valid('json')), 200),
  );
