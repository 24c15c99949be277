import { roundUsd } from '@atelier/domain';
import { type RawBuilder, sql } from 'kysely';
import type { Executor } from './connect.js';

export interface ProviderCallRecord {
  runId: string;
  stepIndex: number;
  stepAttempt: number;
  callKey: string;
  provider: string;
  model: string;
  costUsd: number;
  /** The answer said nothing of what it cost: `costUsd` (0) is not known (see the unpriced-calls migration). */
  unpriced?: boolean;
  /** When the provider answered; now when absent. */
  at?: Date;
}

/**
 * Records answered provider calls, as soon as they can be: a step's calls go with its settlement, or, when
 * the step calls again or gives up the attempt, in a write of their own, so the spend of an attempt cut off
 * by a worker crash is kept. The step's billed cost is settled separately, once.
 */
export async function recordProviderCalls(db: Executor, calls: ProviderCallRecord[]): Promise<void> {
  if (calls.length > 0) await sql`${insertProviderCalls(calls)}`.execute(db);
}

/** Provider calls as insertProviderCalls binds them: one JSON array, so its text is the same for any number. */
export function providerCallRows(calls: readonly ProviderCallRecord[]): string {
  return JSON.stringify(
    calls.map((c) => ({
      run_id: c.runId,
      step_index: c.stepIndex,
      step_attempt: c.stepAttempt,
      call_key: c.callKey,
      provider: c.provider,
      model: c.model,
      cost_usd: roundUsd(c.costUsd),
      unpriced: c.unpriced === true,
      at: (c.at ?? new Date()).toISOString(),
    })),
  );
}

/**
 * The INSERT of `calls` into provider_calls, for a statement of its own or a CTE of a larger one; `when`
 * (a condition) makes it conditional on the rest of that statement. A call already recorded for the same
 * attempt (the same key) is not recorded again: a write retried after its connection died, unsure whether
 * it committed, adds nothing the first one wrote.
 */
export function insertProviderCalls(calls: readonly ProviderCallRecord[], when?: RawBuilder<unknown>) {
  return insertProviderCallRows(providerCallRows(calls), when);
}

/** insertProviderCalls of the calls' rows (providerCallRows), for a statement compiled before it has them. */
export function insertProviderCallRows(rows: string, when: RawBuilder<unknown> = sql`true`) {
  return sql`
    INSERT INTO provider_calls (run_id, step_index, step_attempt, call_key, provider, model, cost_usd, unpriced, at)
    SELECT run_id, step_index, step_attempt, call_key, provider, model, cost_usd, unpriced, at
    FROM jsonb_to_recordset(${rows}::jsonb)
      AS c(run_id text, step_index integer, step_attempt integer, call_key text, provider text, model text, cost_usd numeric,
        unpriced boolean, at timestamptz)
    WHERE ${when} AND NOT EXISTS (
      SELECT 1 FROM provider_calls p
      WHERE p.run_id = c.run_id AND p.step_index = c.step_index AND p.step_attempt = c.step_attempt AND p.call_key = c.call_key)`;
}

/** What the providers charged for each step of a run, every attempt included: step index → USD. */
export async function providerSpendByStep(db: Executor, runId: string): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('provider_calls')
    .select((eb) => ['step_index', eb.fn.sum<string>('cost_usd').as('usd')])
    .where('run_id', '=', runId)
    .groupBy('step_index')
    .execute();
  return new Map(rows.map((r) => [r.step_index, Number(r.usd)]));
}
