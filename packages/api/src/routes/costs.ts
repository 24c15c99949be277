import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { costLines, getProjectInWorkspace } from '@atelier/db';
import { sumUsd } from '@atelier/domain';
import { Costs, CostsQuery } from '@atelier/contracts/orders';
import { listAccess } from '../access.js';
import { errorResponses, fail, validationHook } from '../errors.js';
import type { AppEnv } from '../services.js';
import { json, secured, WHO_MAY_CALL } from '../http/route.js';
import { callerOf } from '../http/caller.js';

const toDate = (value: string | undefined) => (value ? new Date(value) : undefined);

export const costRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook }).openapi(
  createRoute({
    ...secured('costs'),
    method: 'get',
    path: '/v1/costs',
    summary: 'Spend of a workspace (or project) between from and to, grouped by day, workflow, project, provider or model',
    description: `Aggregates spend of a workspace (or one project) between from and to, grouped by day, workflow, project, provider or model; each run counts its own spend once, so sub-workflow children are not counted twice. ${WHO_MAY_CALL.member}`,
    request: { query: CostsQuery },
    responses: { 200: { description: 'Cost lines', ...json(Costs) }, ...errorResponses(401, 403, 404, 422) },
  }),
  async (c) => {
    const q = c.req.valid('query');
    const { db } = c.get('services');
    const access = await listAccess(callerOf(c), q);
    if (q.projectId && !(await getProjectInWorkspace(db, access.workspaceId, q.projectId))) throw fail.notFound('project', q.projectId);
    const [from, to] = [toDate(q.from), toDate(q.to)];
    if (from && to && from >= to)
      throw fail.validation([{ type: 'value_error', loc: ['query', 'to'], msg: 'to must be after from', input: q.to }]);
    const items = await costLines(db, { workspaceId: access.workspaceId, projectId: q.projectId, from, to, groupBy: q.groupBy });
    return c.json({ currency: 'USD', totalUsd: sumUsd(items.map((i) => i.actualUsd)), groupBy: q.groupBy, items }, 200);
  },
);
