import type { Transaction } from 'kysely';
import { type Database, type NoBudgetApplies, budgetSpend, lockApplicableBudgets, recordRefusal } from '@atelier/db';
import { type EnforcementMode, judgeBudget, newUuid } from '@atelier/domain';
import { fail } from '../errors.js';
import type { Caller } from '../caller.js';

export interface BudgetRequest {
  workspaceId: string;
  projectId: string | null;
  /** What the request adds to spend: a run's estimate, or all of an order's children. */
  estimateUsd: number;
  /** The most expensive single run in the request, for per-run caps. */
  largestRunUsd: number;
  attempted: 'run' | 'order.plan' | 'order.start' | 'order.retry';
  /** An order's own cap (budgetLimitUsd), judged against what the order has already spent. */
  orderCap?: { limitUsd: number; enforcementMode: EnforcementMode; spentUsd: number; orderId?: string };
}

/**
 * underBudgets for a write that can guard itself. While no budget applies to the request (and it has no
 * order cap), `writeAlone` writes in one statement guarded by that very condition: no transaction, no
 * locks, nothing to judge. When it wrote nothing, a budget applies (or appeared meanwhile), and the
 * request is judged under the budgets' locks by underBudgets, as any other.
 */
export async function underBudgetsOrAlone<T>(
  caller: Caller,
  req: BudgetRequest,
  writeAlone: ((onlyIf: NoBudgetApplies) => Promise<T | undefined>) | undefined,
  write: (tx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  if (writeAlone && !req.orderCap) {
    const written = await writeAlone({ workspaceId: req.workspaceId, projectId: req.projectId });
    if (written !== undefined) return written;
  }
  return underBudgets(caller, req, write);
}

/**
 * Runs `write` only if every budget the request answers to allows it, inside one transaction that
 * holds the budgets' row locks: concurrent requests are judged one after another against spend that
 * already includes each other's writes, so a hard_stop budget is never overspent. A refusal is recorded
 * (queryable per budget) and answered with 402 and the contract's body; nothing else is written.
 */
export async function underBudgets<T>(caller: Caller, req: BudgetRequest, write: (tx: Transaction<Database>) => Promise<T>): Promise<T> {
  const { db } = caller.services;
  const { principal } = caller;
  type Outcome = { refusal: Record<string, unknown> } | { result: T };
  const outcome = await db.transaction().execute(async (tx): Promise<Outcome> => {
    const refused = await firstRefusal(caller, tx, req);
    if (refused) {
      await recordRefusal(tx, {
        id: newUuid(),
        budgetId: refused.budgetId,
        workspaceId: req.workspaceId,
        detail: refused.detail,
        attempted: req.attempted,
        callerId: principal.userId,
        callerVia: principal.via,
      });
      return { refusal: refused.detail };
    }
    return { result: await write(tx) };
  });
  if ('refusal' in outcome) {
    caller.metrics?.budgetRefusals.inc({ reason: String(outcome.refusal.reason ?? 'unknown'), scope: String(outcome.refusal.scope) });
    throw fail.budgetRefused(outcome.refusal);
  }
  return outcome.result;
}

/**
 * What underBudgets would answer, without writing: 402 with the same body when a budget would refuse the
 * request. Nothing is recorded, because nothing was attempted (a dry run asks, it does not spend).
 */
export async function refuseOverBudget(caller: Caller, req: BudgetRequest): Promise<void> {
  const refused = await caller.services.db.transaction().execute((tx) => firstRefusal(caller, tx, req));
  if (refused) throw fail.budgetRefused(refused.detail);
}

/** The first budget (the order's cap first) that refuses the request, judged under the budgets' locks. */
async function firstRefusal(
  caller: Caller,
  tx: Transaction<Database>,
  req: BudgetRequest,
): Promise<{ budgetId: string | null; detail: Record<string, unknown> } | undefined> {
  if (req.orderCap) {
    const cap = req.orderCap;
    const judged = judgeBudget(
      { limitUsd: cap.limitUsd, enforcementMode: cap.enforcementMode },
      cap.spentUsd,
      req.estimateUsd,
      req.largestRunUsd,
    );
    if (!judged.allowed) {
      return {
        budgetId: null,
        detail: refusalBody(judged, {
          budgetId: cap.orderId ?? null,
          scope: 'order',
          enforcementMode: cap.enforcementMode,
          limitUsd: cap.limitUsd,
        }),
      };
    }
  }
  for (const budget of await lockApplicableBudgets(tx, req.workspaceId, req.projectId)) {
    const terms = {
      limitUsd: Number(budget.limit_usd),
      enforcementMode: budget.enforcement_mode,
      overageUsd: budget.overage_usd === null ? null : Number(budget.overage_usd),
      perRunCapUsd: budget.per_run_cap_usd === null ? null : Number(budget.per_run_cap_usd),
    };
    const judged = judgeBudget(terms, await budgetSpend(tx, budget), req.estimateUsd, req.largestRunUsd);
    if (!judged.allowed) {
      return {
        budgetId: budget.id,
        detail: refusalBody(judged, {
          budgetId: budget.id,
          scope: budget.scope,
          enforcementMode: budget.enforcement_mode,
          limitUsd: terms.limitUsd,
        }),
      };
    }
    if (judged.overLimit)
      caller.logger.warn(
        { budgetId: budget.id, spendUsd: judged.spendUsd, estimateUsd: judged.estimateUsd },
        'notify_only budget passed its limit',
      );
  }
  return undefined;
}

function refusalBody(
  judged: ReturnType<typeof judgeBudget>,
  budget: { budgetId: string | null; scope: string; enforcementMode: string; limitUsd: number },
): Record<string, unknown> {
  return {
    code: 'budget_exceeded',
    reason: judged.reason,
    budgetId: budget.budgetId,
    scope: budget.scope,
    enforcementMode: budget.enforcementMode,
    limitUsd: budget.limitUsd,
    spendUsd: judged.spendUsd,
    runEstimateUsd: judged.estimateUsd,
    remainingUsd: judged.remainingUsd,
  };
}
