import type { Db } from '../connect.js';
import { inOneSnapshot } from '../one-snapshot.js';
import { providerSpendByStep } from '../provider-calls.js';
import { getRunRow, getRunSteps, listRunDecisions } from '../runs.js';

/** A run whole, as one moment saw it: what GET /v1/runs/{id} and an event stream's snapshot show. */
export type RunView = NonNullable<Awaited<ReturnType<typeof readRunView>>>;

/**
 * A run's row, its steps, its decisions and what the providers charged for each step, all from one
 * snapshot; undefined when there is no such run. A step's settlement writes the step's row and the run's
 * spend in one statement: read apart, a view could show the step settled and the run's totals without it.
 */
export async function readRunView(db: Db, runId: string) {
  return inOneSnapshot(db, async (ex) => {
    const [run, steps, decisions, spend] = await Promise.all([
      getRunRow(ex, runId),
      getRunSteps(ex, runId),
      listRunDecisions(ex, [runId]),
      providerSpendByStep(ex, runId),
    ]);
    return run && { run, steps, decisions, spend };
  });
}
