import { roundUsd } from '@atelier/domain';
import type { Executor } from './connect';

export interface ProviderCallRecord {
  runId: string;
  stepIndex: number;
  stepAttempt: number;
  callKey: string;
  provider: string;
  model: string;
  costUsd: number;
}

/**
 * Records one answered provider call, in its own write as soon as the provider answers, so the spend of an
 * attempt cut off by a worker crash is kept. The step's billed cost is settled separately, once.
 */
export async function recordProviderCall(db: Executor, call: ProviderCallRecord): Promise<void> {
  await db
    .insertInto('provider_calls')
    .values({
      run_id: call.runId,
      step_index: call.stepIndex,
      step_attempt: call.stepAttempt,
      call_key: call.callKey,
      provider: call.provider,
      model: call.model,
      cost_usd: roundUsd(call.costUsd),
    })
    .execute();
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
