import { OpenAPIHono } from '@hono/zod-openapi';
import { costLines, getProjectInWorkspace } from '@atelier/db';
import { sumUsd } from '@atelier/domain';
import { Costs, CostsQuery } from '@atelier/contracts/orders';
import { listAccess } from '../access.js';
import { fail, validationHook } from '../errors.js';
import type { AppEnv } from '../services.js';
import { callerOf } from '../http/caller.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('costs');

const toDate = (value: string | undefined) => (value ? new Date(value) : undefined);

export const costRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook }).openapi(
  operation('GET /v1/costs', { query: CostsQuery }, { 200: Costs }),
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
