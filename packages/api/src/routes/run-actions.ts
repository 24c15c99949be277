import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { archiveRun, getProjectInWorkspace, moveRunToProject } from '@atelier/db';
import { isTerminalRunStatus } from '@atelier/domain';
import { finalizeRun } from '@atelier/engine/finalize';
import { RerunDryRun, RerunRequest } from '@atelier/contracts/run-actions';
import { MoveRunRequest, Run, RunIdParam } from '@atelier/contracts/runs';
import { errorResponses, fail, validationHook } from '../errors.js';
import { runResponse, visibleRun } from '../runs/visible-run.js';
import { dryRunRerun, rerunRun } from '../runs/rerun.js';
import { asConflict, cancelRun } from '../runs/cancel.js';
import { presentRun } from '../presenters/run.js';
import { IdempotencyHeaders, REPLAYED_HEADER, ReplayedHeaders, idempotencyKeyOf } from '../http/idempotency.js';
import type { AppEnv } from '../services.js';
import { json, jsonBody, secured, WHO_MAY_CALL } from '../http/route.js';
import { callerOf } from '../http/caller.js';

const runBody = { ...json(Run) };

/** What can be done to an existing run: cancel, finalize, archive, move, rerun. */
export const runActionRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    createRoute({
      ...secured('runs'),
      method: 'post',
      path: '/v1/runs/{run_id}/cancel',
      summary: 'Cancel a run at its next step boundary; spend so far stays billed',
      description: `Cancels a run that has not ended: it stops at the next step boundary and settles as cancelled, and spend so far stays billed. ${WHO_MAY_CALL.member} A run that already ended is 409 invalid_transition.`,
      request: { params: RunIdParam },
      responses: {
        200: { description: 'The run; it settles as cancelled at the next step boundary', ...runBody },
        ...errorResponses(401, 403, 404, 409),
      },
    }),
    async (c) => {
      const caller = callerOf(c);
      const runId = c.req.valid('param').run_id;
      await cancelRun(caller, runId);
      return c.json(await runResponse(caller, runId), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('runs'),
      method: 'post',
      path: '/v1/runs/{run_id}/finalize',
      summary: 'Recovery: write the artifact and terminal status of a run whose steps all completed; no step runs again',
      description: `Recovery for a run whose steps all completed but whose finalization is missing: writes the artifact and terminal status from recorded data; no step is re-run. ${WHO_MAY_CALL.member} A run that is not in that state is 409 invalid_transition.`,
      request: { params: RunIdParam },
      responses: { 200: { description: 'The finalized run', ...runBody }, ...errorResponses(401, 403, 404, 409) },
    }),
    async (c) => {
      const caller = callerOf(c);
      const { db, temporal } = c.get('services');
      const { run } = await visibleRun(caller, c.req.valid('param').run_id);
      await asConflict(() => finalizeRun(db, temporal, run.id));
      return c.json(await runResponse(caller, run.id), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('runs'),
      method: 'post',
      path: '/v1/runs/{run_id}/archive',
      summary: 'Hide a terminal run from lists (includeArchived=true shows it again)',
      description: `Hides a terminal run from lists without changing its status; GET /v1/runs?includeArchived=true shows it again. ${WHO_MAY_CALL.member} A run that has not ended is 409 invalid_transition.`,
      request: { params: RunIdParam },
      responses: { 200: { description: 'The archived run', ...runBody }, ...errorResponses(401, 403, 404, 409) },
    }),
    async (c) => {
      const caller = callerOf(c);
      const { run } = await visibleRun(caller, c.req.valid('param').run_id);
      if (!isTerminalRunStatus(run.status))
        throw fail.invalidTransition(`only terminal runs can be archived; run ${run.id} is ${run.status}`, { status: run.status });
      await archiveRun(c.get('services').db, run.id);
      return c.json(await runResponse(caller, run.id), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('runs'),
      method: 'patch',
      path: '/v1/runs/{run_id}/project',
      summary: 'Move a run (and its costs and artifacts) to another project of its workspace, or to workspace level',
      description: `Moves a run to another project of the same workspace, or to workspace level with projectId null (the key must be present); its costs and artifacts follow. ${WHO_MAY_CALL.member} A project outside the run's workspace is 404.`,
      request: { params: RunIdParam, body: jsonBody(MoveRunRequest) },
      responses: { 200: { description: 'The moved run', ...runBody }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const caller = callerOf(c);
      const { db } = c.get('services');
      const { run } = await visibleRun(caller, c.req.valid('param').run_id);
      const { projectId } = c.req.valid('json');
      if (projectId && !(await getProjectInWorkspace(db, run.workspace_id, projectId))) throw fail.notFound('project', projectId);
      await moveRunToProject(db, run.id, projectId);
      return c.json(await runResponse(caller, run.id), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('runs'),
      method: 'post',
      path: '/v1/runs/{run_id}/rerun',
      summary: 'Start a new run of the same pinned workflow version as a run, with its intake and bindings, optionally overridden',
      description:
        "Creates a run as POST /v1/runs does (the same 400, 402, 403, 404 and 422 answers), from the original run's workflow, pinned version " +
        "(even when a newer one is live), workspace, project, priority, intake and role bindings; the body's intake keys and provider roles " +
        "replace the original's. The new run's rerunOf names the original; GET /v1/runs?rerunOf= lists an original's reruns. A child of an order " +
        'or of a sub-workflow step is rerun as a standalone run, judged by workspace and project budgets. dryRun: true creates nothing and ' +
        'answers 200 with the estimate and the create body (a budget that would refuse answers 402, unrecorded). ' +
        'An Idempotency-Key works as on POST /v1/runs (keys are shared with it; a dry run ignores the key).',
      request: { params: RunIdParam, body: { ...jsonBody(RerunRequest), required: false }, headers: IdempotencyHeaders },
      responses: {
        201: {
          description:
            'The new run, pending (or, replayed, the run an earlier request with the same Idempotency-Key created, as it now stands)',
          headers: ReplayedHeaders,
          ...runBody,
        },
        200: { description: 'dryRun: the estimate and the run that would be created; nothing was', ...json(RerunDryRun) },
        ...errorResponses(400, 401, 402, 403, 404, 422),
      },
    }),
    async (c) => {
      const caller = callerOf(c);
      const runId = c.req.valid('param').run_id;
      const { dryRun, ...overrides } = c.req.valid('json') ?? {};
      if (dryRun) return c.json(await dryRunRerun(caller, runId, overrides), 200);
      // The original is part of what is created: the same key and body for another run is another request.
      const key = idempotencyKeyOf(c, { rerunOf: runId, ...overrides });
      const { row, replayed } = await rerunRun(caller, runId, overrides, key);
      if (!replayed) return c.json(presentRun(row, []), 201);
      c.header(REPLAYED_HEADER, 'true');
      return c.json(await runResponse(caller, row.id), 201);
    },
  );
