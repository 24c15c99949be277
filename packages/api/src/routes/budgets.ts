import { randomBytes } from 'node:crypto';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { budgetSpend, createBudget, getBudget, getProjectInWorkspace, listBudgets, listRefusals, updateBudget } from '@atelier/db';
import { Pagination, listOf } from '@atelier/contracts/common';
import { Budget, BudgetRefusalRecord, CreateBudgetRequest, PatchBudgetRequest } from '@atelier/contracts/orders';
import { requireWriter, visibleRecord, workspaceAccess, writerAccess } from '../access.js';
import { errorResponses, fail, validationHook } from '../errors.js';
import { presentBudget } from '../presenters/budget.js';
import type { AppEnv } from '../services.js';
import { json, jsonBody, secured, WHO_MAY_CALL } from '../http/route.js';
import { callerOf } from '../http/caller.js';
import type { Caller } from '../caller.js';

const BudgetIdParam = z.object({
  budget_id: z
    .string()
    .max(64)
    .openapi({ param: { name: 'budget_id', in: 'path' } }),
});
const budgetBody = { ...json(Budget) };

/** A budget the caller may see, with their access; 404 otherwise. */
async function visibleBudget(caller: Caller, budgetId: string) {
  const { row: budget, access } = await visibleRecord(caller, await getBudget(caller.services.db, budgetId), {
    noun: 'budget',
    id: budgetId,
  });
  return { budget, access };
}

export const budgetRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    createRoute({
      ...secured('budgets'),
      method: 'post',
      path: '/v1/budgets',
      summary: 'Create a workspace or project budget (owners and admins)',
      description: `Creates a budget on a workspace or on one of its projects, with a limit, a period and an enforcement mode; budgets are judged before a run or order starts, against estimates. ${WHO_MAY_CALL.admin}`,
      request: { body: jsonBody(CreateBudgetRequest) },
      responses: { 201: { description: 'The budget', ...budgetBody }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const { db } = c.get('services');
      const access = await writerAccess(callerOf(c), body.workspaceId);
      if (body.projectId && !(await getProjectInWorkspace(db, access.workspaceId, body.projectId)))
        throw fail.notFound('project', body.projectId);
      const budget = await createBudget(db, {
        id: `budget-${randomBytes(8).toString('hex')}`,
        workspace_id: access.workspaceId,
        project_id: body.projectId ?? null,
        scope: body.scope,
        limit_usd: body.limitUsd,
        period: body.period,
        enforcement_mode: body.enforcementMode,
        overage_usd: body.overageUsd ?? null,
        per_run_cap_usd: body.perRunCapUsd ?? null,
        name: body.name ?? null,
      });
      return c.json(presentBudget(budget, await budgetSpend(db, budget)), 201);
    },
  )
  .openapi(
    createRoute({
      ...secured('budgets'),
      method: 'get',
      path: '/v1/budgets',
      summary: "A workspace's budgets with their current spend",
      description: `The budgets of one workspace, each with its current spend. ${WHO_MAY_CALL.member}`,
      request: { query: Pagination.extend({ workspaceId: z.string().uuid().optional() }) },
      responses: { 200: { description: 'Budgets', ...json(listOf(Budget, 'BudgetList')) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const { db } = c.get('services');
      const access = await workspaceAccess(callerOf(c), q.workspaceId);
      const page = await listBudgets(db, access.workspaceId, q);
      const items = await Promise.all(page.items.map(async (b) => presentBudget(b, await budgetSpend(db, b))));
      return c.json({ items, total: page.total }, 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('budgets'),
      method: 'get',
      path: '/v1/budgets/{budget_id}',
      summary: 'A budget with its current spend',
      description: `A budget with its current spend. ${WHO_MAY_CALL.member}`,
      request: { params: BudgetIdParam },
      responses: { 200: { description: 'The budget', ...budgetBody }, ...errorResponses(401, 403, 404) },
    }),
    async (c) => {
      const { budget } = await visibleBudget(callerOf(c), c.req.valid('param').budget_id);
      return c.json(presentBudget(budget, await budgetSpend(c.get('services').db, budget)), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('budgets'),
      method: 'patch',
      path: '/v1/budgets/{budget_id}',
      summary: 'Change a budget (owners and admins)',
      description: `Changes a budget's limit, period or enforcement mode; the next run or order is judged by the new terms. ${WHO_MAY_CALL.admin}`,
      request: { params: BudgetIdParam, body: jsonBody(PatchBudgetRequest) },
      responses: { 200: { description: 'The budget', ...budgetBody }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const { budget, access } = await visibleBudget(callerOf(c), c.req.valid('param').budget_id);
      requireWriter(access);
      const p = c.req.valid('json');
      const mode = p.enforcementMode ?? budget.enforcement_mode;
      const overage = p.overageUsd === undefined ? budget.overage_usd : p.overageUsd;
      if (mode === 'allow_overage' && (overage === null || overage === undefined)) {
        throw fail.validation([
          { type: 'value_error', loc: ['body', 'overageUsd'], msg: 'allow_overage needs overageUsd', input: p.overageUsd ?? null },
        ]);
      }
      const updated = await updateBudget(c.get('services').db, budget.id, {
        ...(p.limitUsd !== undefined ? { limit_usd: p.limitUsd } : {}),
        ...(p.period !== undefined ? { period: p.period } : {}),
        ...(p.enforcementMode !== undefined ? { enforcement_mode: p.enforcementMode } : {}),
        ...(p.overageUsd !== undefined ? { overage_usd: p.overageUsd } : {}),
        ...(p.perRunCapUsd !== undefined ? { per_run_cap_usd: p.perRunCapUsd } : {}),
        ...(p.name !== undefined ? { name: p.name } : {}),
      });
      return c.json(presentBudget(updated!, await budgetSpend(c.get('services').db, updated!)), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('budgets'),
      method: 'get',
      path: '/v1/budgets/{budget_id}/refusals',
      summary: 'Every request this budget refused, newest first, with the 402 body, time and caller',
      description: `Every request this budget refused, newest first and paged, each with the 402 body it answered, the time and the caller. ${WHO_MAY_CALL.member}`,
      request: { params: BudgetIdParam, query: Pagination },
      responses: {
        200: { description: 'Refusals', ...json(listOf(BudgetRefusalRecord, 'BudgetRefusalList')) },
        ...errorResponses(401, 403, 404, 422),
      },
    }),
    async (c) => {
      const { budget } = await visibleBudget(callerOf(c), c.req.valid('param').budget_id);
      const page = await listRefusals(c.get('services').db, budget.id, c.req.valid('query'));
      const items = page.items.map((r) => ({
        id: r.id,
        detail: r.detail as Record<string, unknown>,
        attempted: r.attempted,
        callerId: r.caller_id,
        callerVia: r.caller_via,
        createdAt: r.created_at.toISOString(),
      }));
      return c.json({ items, total: page.total }, 200);
    },
  );
