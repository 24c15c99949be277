import { OpenAPIHono } from '@hono/zod-openapi';
import { archiveRun, getProjectInWorkspace, moveRunToProject } from '@atelier/db';
import { isTerminalRunStatus } from '@atelier/domain';
import { finalizeRun } from '@atelier/engine/finalize';
import { RerunDryRun, RerunRequest } from '@atelier/contracts/run-actions';
import { MoveRunRequest, Run, RunIdParam } from '@atelier/contracts/runs';
import { fail, validationHook } from '../errors.js';
import { runResponse, visibleRun } from '../runs/visible-run.js';
import { dryRunRerun, rerunRun } from '../runs/rerun.js';
import { asConflict, cancelRun } from '../runs/cancel.js';
import { presentRun } from '../presenters/run.js';
import { IdempotencyHeaders, REPLAYED_HEADER, ReplayedHeaders, idempotencyKeyOf } from '../http/idempotency.js';
import type { AppEnv } from '../services.js';
import { json, jsonBody } from '../http/route.js';
import { callerOf } from '../http/caller.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('runs');

const runBody = { ...json(Run) };

/** What can be done to an existing run: cancel, finalize, archive, move, rerun. */
export const runActionRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(operation('POST /v1/runs/{run_id}/cancel', { params: RunIdParam }, { 200: Run }), async (c) => {
    const caller = callerOf(c);
    const runId = c.req.valid('param').run_id;
    await cancelRun(caller, runId);
    return c.json(await runResponse(caller, runId), 200);
  })
  .openapi(operation('POST /v1/runs/{run_id}/finalize', { params: RunIdParam }, { 200: Run }), async (c) => {
    const caller = callerOf(c);
    const { db, temporal } = c.get('services');
    const { run } = await visibleRun(caller, c.req.valid('param').run_id);
    await asConflict(() => finalizeRun(db, temporal, run.id));
    return c.json(await runResponse(caller, run.id), 200);
  })
  .openapi(operation('POST /v1/runs/{run_id}/archive', { params: RunIdParam }, { 200: Run }), async (c) => {
    const caller = callerOf(c);
    const { run } = await visibleRun(caller, c.req.valid('param').run_id);
    if (!isTerminalRunStatus(run.status))
      throw fail.invalidTransition(`only terminal runs can be archived; run ${run.id} is ${run.status}`, { status: run.status });
    await archiveRun(c.get('services').db, run.id);
    return c.json(await runResponse(caller, run.id), 200);
  })
  .openapi(operation('PATCH /v1/runs/{run_id}/project', { params: RunIdParam, body: MoveRunRequest }, { 200: Run }), async (c) => {
    const caller = callerOf(c);
    const { db } = c.get('services');
    const { run } = await visibleRun(caller, c.req.valid('param').run_id);
    const { projectId } = c.req.valid('json');
    if (projectId && !(await getProjectInWorkspace(db, run.workspace_id, projectId))) throw fail.notFound('project', projectId);
    await moveRunToProject(db, run.id, projectId);
    return c.json(await runResponse(caller, run.id), 200);
  })
  .openapi(
    operation(
      'POST /v1/runs/{run_id}/rerun',
      { params: RunIdParam, body: { ...jsonBody(RerunRequest), required: false }, headers: IdempotencyHeaders },
      {
        201: {
          description:
            'The new run, pending (or, replayed, the run an earlier request with the same Idempotency-Key created, as it now stands)',
          headers: ReplayedHeaders,
          ...runBody,
        },
        200: { description: 'dryRun: the estimate and the run that would be created; nothing was', ...json(RerunDryRun) },
      },
    ),
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
