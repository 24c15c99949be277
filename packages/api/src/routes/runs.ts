import { OpenAPIHono } from '@hono/zod-openapi';
import { listRunDecisions, listRuns } from '@atelier/db';
import { CreateRunRequest, ListRunsQuery, Run, RunIdParam, RunList } from '@atelier/contracts/runs';
import { listAccess } from '../access.js';
import { validationHook } from '../errors.js';
import { presentRun } from '../presenters/run.js';
import { createRun, createRunOnce } from '../runs/create-run.js';
import { runFilterOf } from '../runs/filter.js';
import { runResponse, visibleRun } from '../runs/visible-run.js';
import type { AppEnv } from '../services.js';
import { IdempotencyHeaders, REPLAYED_HEADER, idempotencyKeyOf, replayable } from '../http/idempotency.js';
import { callerOf } from '../http/caller.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('runs');

function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

export const runRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(operation('POST /v1/runs', { body: CreateRunRequest, headers: IdempotencyHeaders }, { 201: replayable(Run) }), async (c) => {
    const caller = callerOf(c);
    const body = c.req.valid('json');
    const key = idempotencyKeyOf(c, body);
    if (!key) return c.json(presentRun(await createRun(caller, body), []), 201);
    const { row, replayed } = await createRunOnce(caller, body, key);
    if (!replayed) return c.json(presentRun(row, []), 201);
    c.header(REPLAYED_HEADER, 'true');
    return c.json(await runResponse(caller, row.id), 201);
  })
  .openapi(operation('GET /v1/runs', { query: ListRunsQuery }, { 200: RunList }), async (c) => {
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
  })
  .openapi(operation('GET /v1/runs/{run_id}', { params: RunIdParam }, { 200: Run }), async (c) => {
    const caller = callerOf(c);
    const { run } = await visibleRun(caller, c.req.valid('param').run_id);
    return c.json(await runResponse(caller, run.id), 200);
  });
