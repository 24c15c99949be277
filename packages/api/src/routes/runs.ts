import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { listRunDecisions, listRuns } from '@atelier/db';
import { listOf } from '@atelier/contracts/common';
import { CreateRunRequest, ListRunsQuery, Run, RunIdParam } from '@atelier/contracts/runs';
import { listAccess } from '../access.js';
import { errorResponses, validationHook } from '../errors.js';
import { presentRun } from '../presenters/run.js';
import { createRun, createRunOnce } from '../runs/create-run.js';
import { runFilterOf } from '../runs/filter.js';
import { runResponse, visibleRun } from '../runs/visible-run.js';
import type { AppEnv } from '../services.js';
import { IDEMPOTENCY_DESCRIPTION, IdempotencyHeaders, REPLAYED_HEADER, ReplayedHeaders, idempotencyKeyOf } from '../http/idempotency.js';
import { json, jsonBody, secured, WHO_MAY_CALL } from '../http/route.js';
import { callerOf } from '../http/caller.js';

const runBody = { ...json(Run) };

function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

export const runRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    createRoute({
      ...secured('runs'),
      method: 'post',
      path: '/v1/runs',
      summary: 'Start a run of a workflow; returns at once with status pending',
      description: `Starts a run of the workflow templateId with an intake that satisfies its intakeSchema; any member of the workspace may call it (a workspace-bound API key only in its own, else 403). Refused before anything is spent: 404 unknown workflow, 400 template_deprecated or invalid_provider_override, 422 intake_invalid or character_not_usable, 402 budget_exceeded (recorded). ${IDEMPOTENCY_DESCRIPTION('run')}`,
      request: { body: jsonBody(CreateRunRequest), headers: IdempotencyHeaders },
      responses: {
        201: {
          description: 'The run, pending; or, replayed, the run an earlier request with the same Idempotency-Key created, as it now stands',
          headers: ReplayedHeaders,
          ...runBody,
        },
        ...errorResponses(400, 401, 402, 403, 404, 422),
      },
    }),
    async (c) => {
      const caller = callerOf(c);
      const body = c.req.valid('json');
      const key = idempotencyKeyOf(c, body);
      if (!key) return c.json(presentRun(await createRun(caller, body), []), 201);
      const { row, replayed } = await createRunOnce(caller, body, key);
      if (!replayed) return c.json(presentRun(row, []), 201);
      c.header(REPLAYED_HEADER, 'true');
      return c.json(await runResponse(caller, row.id), 201);
    },
  )
  .openapi(
    createRoute({
      ...secured('runs'),
      method: 'get',
      path: '/v1/runs',
      summary: 'Runs of a workspace, newest first',
      description: `Lists the runs of one workspace (the one named, else the project's, else the caller's default), newest first, paged; filters include status, projectId, templateId, parentOrderId, workerId, rerunOf, tag, metadata[key], createdAfter and createdBefore, and q searches run ids, workflow ids and names and tags; archived runs appear only with includeArchived=true. ${WHO_MAY_CALL.member}`,
      request: { query: ListRunsQuery },
      responses: { 200: { description: 'Runs', ...json(listOf(Run, 'RunList')) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const { db } = c.get('services');
      const access = await listAccess(callerOf(c), q);
      const page = await listRuns(db, { ...runFilterOf(q, access.workspaceId), offset: q.offset, limit: q.limit });
      const steps = groupBy(page.steps, (s) => s.run_id);
      const decisions = groupBy(
        await listRunDecisions(
          db,
          page.items.map((r) => r.id),
        ),
        (d) => d.run_id,
      );
      const items = page.items.map((r) => presentRun(r, steps.get(r.id) ?? [], decisions.get(r.id) ?? []));
      return c.json({ items, total: page.total }, 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('runs'),
      method: 'get',
      path: '/v1/runs/{run_id}',
      summary: 'A run with its step telemetry, costs and review ledger',
      description: `A run as it stands: status, pinned workflowVersion and specVersionHash, resolved intake, step telemetry, totalCosts and, once produced, artifactId; a failed run carries error and errorCode. ${WHO_MAY_CALL.member}`,
      request: { params: RunIdParam },
      responses: { 200: { description: 'The run', ...runBody }, ...errorResponses(401, 403, 404) },
    }),
    async (c) => {
      const caller = callerOf(c);
      const { run } = await visibleRun(caller, c.req.valid('param').run_id);
      return c.json(await runResponse(caller, run.id), 200);
    },
  );
