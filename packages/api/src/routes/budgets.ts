import { randomBytes } from 'node:crypto';
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { budgetSpend, createBudget, getBudget, getProjectInWorkspace, listBudgets, listRefusals, updateBudget } from '@atelier/db';
import { Pagination } from '@atelier/contracts/common';
import { Budget, CreateBudgetRequest, PatchBudgetRequest, BudgetList, BudgetRefusalList } from '@atelier/contracts/orders';
import { requireWriter, visibleRecord, workspaceAccess, writerAccess } from '../access.js';
import { fail, validationHook } from '../errors.js';
import { presentBudget } from '../presenters/budget.js';
import type { AppEnv } from '../services.js';
import { callerOf } from '../http/caller.js';
import type { Caller } from '../caller.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('budgets');

const BudgetIdParam = z.object({
  budget_id: z
    .string()
    .max(64)
    .openapi({ param: { name: 'budget_id', in: 'path' } }),
});

/** A budget the caller may see, with their access; 404 otherwise. */
async function visibleBudget(caller: Caller, budgetId: string) {
  const { row: budget, access } = await visibleRecord(caller, await getBudget(caller.services.db, budgetId), {
    noun: 'budget',
    id: budgetId,
  });
  return { budget, access };
}

export const budgetRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(operation('POST /v1/budgets', { body: CreateBudgetRequest }, { 201: Budget }), async (c) => {
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
  })
  .openapi(
    operation('GET /v1/budgets', { query: Pagination.extend({ workspaceId: z.string().uuid().optional() }) }, { 200: BudgetList }),
    async (c) => {
      const q = c.req.valid('query');
      const { db } = c.get('services');
      const access = await workspaceAccess(callerOf(c), q.workspaceId);
      const page = await listBudgets(db, access.workspaceId, q);
      const items = await Promise.all(page.items.map(async (b) => presentBudget(b, await budgetSpend(db, b))));
      return c.json({ items, total: page.total }, 200);
    },
  )
  .openapi(operation('GET /v1/budgets/{budget_id}', { params: BudgetIdParam }, { 200: Budget }), async (c) => {
    const { budget } = await visibleBudget(callerOf(c), c.req.valid('param').budget_id);
    return c.json(presentBudget(budget, await budgetSpend(c.get('services').db, budget)), 200);
  })
  .openapi(operation('PATCH /v1/budgets/{budget_id}', { params: BudgetIdParam, body: PatchBudgetRequest }, { 200: Budget }), async (c) => {
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
  })
  .openapi(
    operation('GET /v1/budgets/{budget_id}/refusals', { params: BudgetIdParam, query: Pagination }, { 200: BudgetRefusalList }),
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
