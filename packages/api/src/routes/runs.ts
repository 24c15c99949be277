import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { getRunRow, getRunSteps, listRuns, moveRunStatus } from '@atelier/db';
import { isTerminalRunStatus } from '@atelier/domain';
import { signalRunCancel } from '@atelier/engine/client';
import { listOf } from '@atelier/contracts/common';
import { CreateRunRequest, ListRunsQuery, Run, RunIdParam } from '@atelier/contracts/runs';
import { resourceAccess, workspaceAccess } from '../access';
import { errorResponses, fail, validationHook } from '../errors';
import { authenticate } from '../middleware/authenticate';
import { presentRun } from '../presenters/run';
import { createRun } from '../runs/create-run';
import type { AppEnv } from '../services';
import type { Context } from 'hono';

const secured = { middleware: authenticate, security: [{ bearer: [] }], tags: ['runs'] };
const runBody = { content: { 'application/json': { schema: Run } } };

/** Loads a run the caller may see; 404 otherwise. */
async function visibleRun(c: Context<AppEnv>, runId: string) {
  const run = await getRunRow(c.get('services').db, runId);
  if (!run) throw fail.notFound(`run ${runId} not found`);
  await resourceAccess(c, run.workspace_id, `run ${runId} not found`);
  return run;
}

export const runRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    createRoute({
      ...secured,
      method: 'post',
      path: '/v1/runs',
      summary: 'Start a run of a workflow; returns at once with status pending',
      request: { body: { content: { 'application/json': { schema: CreateRunRequest } }, required: true } },
      responses: { 201: { description: 'The run, pending', ...runBody }, ...errorResponses(400, 401, 402, 403, 404, 422) },
    }),
    async (c) => {
      const run = await createRun(c, c.req.valid('json'));
      return c.json(presentRun(run, []), 201);
    },
  )
  .openapi(
    createRoute({
      ...secured,
      method: 'get',
      path: '/v1/runs',
      summary: 'Runs of a workspace, newest first',
      request: { query: ListRunsQuery },
      responses: { 200: { description: 'Runs', content: { 'application/json': { schema: listOf(Run, 'RunList') } } }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const access = await workspaceAccess(c, q.workspaceId);
      const page = await listRuns(c.get('services').db, { ...q, workspaceId: access.workspaceId });
      const steps = new Map<string, typeof page.steps>();
      for (const s of page.steps) steps.set(s.run_id, [...(steps.get(s.run_id) ?? []), s]);
      return c.json({ items: page.items.map((r) => presentRun(r, steps.get(r.id) ?? [])), total: page.total }, 200);
    },
  )
  .openapi(
    createRoute({
      ...secured,
      method: 'get',
      path: '/v1/runs/{runId}',
      summary: 'A run with its step telemetry and costs',
      request: { params: RunIdParam },
      responses: { 200: { description: 'The run', ...runBody }, ...errorResponses(401, 403, 404) },
    }),
    async (c) => {
      const run = await visibleRun(c, c.req.valid('param').runId);
      return c.json(presentRun(run, await getRunSteps(c.get('services').db, run.id)), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured,
      method: 'post',
      path: '/v1/runs/{runId}/cancel',
      summary: 'Cancel a run at its next step boundary; spend so far stays billed',
      request: { params: RunIdParam },
      responses: { 200: { description: 'The run; it settles as cancelled at the next step boundary', ...runBody }, ...errorResponses(401, 403, 404, 409) },
    }),
    async (c) => {
      const { db, temporal } = c.get('services');
      const run = await visibleRun(c, c.req.valid('param').runId);
      if (isTerminalRunStatus(run.status)) {
        throw fail.invalidTransition(`run ${run.id} is already ${run.status}`, { status: run.status });
      }
      const delivered = await signalRunCancel(temporal, run.id);
      // No live workflow to stop (never handed over, or a planned child): settle the record directly.
      if (delivered === 'not_running') await moveRunStatus(db, run.id, 'cancelled');
      const current = (await getRunRow(db, run.id)) ?? run;
      return c.json(presentRun(current, await getRunSteps(db, run.id)), 200);
    },
  );
