import { createChildRunActivities } from './child-runs.js';
import type { ActivityDeps } from './deps.js';
import { createProviderJobActivities } from './provider-jobs.js';
import { createRunActivities } from './run-settlement.js';
import { createStepActivities } from './step-execution.js';

export type { ActivityDeps } from './deps.js';
export type { RunSettled } from './run-settlement.js';

/**
 * The run workflow's activities, by concern: the run's lifecycle and settlement (run-settlement.ts), step
 * execution (step-execution.ts), subWorkflow child runs (child-runs.ts), and provider jobs a cancelled run
 * leaves (provider-jobs.ts). Every activity is idempotent:
 * keyed by the run and step index, a retry after a worker crash returns what was already recorded instead
 * of calling a model or writing again.
 */
export function createActivities(deps: ActivityDeps) {
  const run = createRunActivities(deps);
  return {
    ...run.activities,
    ...createStepActivities(deps, run.settleRunAs),
    ...createChildRunActivities(deps),
    ...createProviderJobActivities(deps),
  };
}

export type EngineActivities = ReturnType<typeof createActivities>;
