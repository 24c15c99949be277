/**
 * The run workflow: a deterministic interpreter of a frozen definition's runtimeSteps. It only decides;
 * every effect (model calls, database writes) happens in activities. Imports stay limited to the
 * Temporal workflow SDK and pure modules.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  defineQuery,
  defineSignal,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
  uuid4,
} from '@temporalio/workflow';
import { DETERMINISTIC_ERROR_CODES } from '@atelier/domain/failures';
import type { RunContext } from '@atelier/domain/run-context';
import type { EngineActivities } from '../activities/index';
import type { RunOutcome, RunWorkflowInput, SettleRunInput } from '../run-types';
import { SEARCH_ATTRIBUTES } from './search-attributes';

const NON_RETRYABLE = [...DETERMINISTIC_ERROR_CODES, 'step_invalid', 'step_failed', 'run_missing'];

const { executeStep } = proxyActivities<EngineActivities>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '15 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5, nonRetryableErrorTypes: NON_RETRYABLE },
});

// Bookkeeping writes are short database transactions: local activities keep them off the task queue.
const { markRunRunning, settleRun } = proxyLocalActivities<EngineActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '10 seconds', nonRetryableErrorTypes: ['run_missing'] },
});

export const cancelRunSignal = defineSignal('cancel');
export const runStateQuery = defineQuery<{ status: string; stepIndex: number; cancelRequested: boolean }>('state');

interface StepFailureSummary {
  error: string;
  errorCode: string;
}

function describeFailure(err: unknown): StepFailureSummary {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure && cause.type && NON_RETRYABLE.includes(cause.type)) {
    return { error: cause.message, errorCode: cause.type };
  }
  const message = cause instanceof Error ? cause.message : String(cause);
  return { error: `the step kept failing after retries: ${message}`, errorCode: 'transient_failure' };
}

export async function runWorkflow(input: RunWorkflowInput): Promise<RunOutcome> {
  const { runId, definition } = input;
  let status = 'queued';
  let stepIndex = 0;
  let cancelRequested = false;
  setHandler(cancelRunSignal, () => {
    cancelRequested = true;
  });
  setHandler(runStateQuery, () => ({ status, stepIndex, cancelRequested }));

  const setStatus = (next: string) => {
    status = next;
    upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.RunStatus, value: next }]);
  };
  const settle = async (result: SettleRunInput & { failedStepIndex?: number }): Promise<RunOutcome> => {
    await settleRun(result);
    setStatus(result.status);
    return { runId, status: result.status, artifactId: result.artifact?.id, errorCode: result.errorCode };
  };

  if (cancelRequested) return settle({ runId, status: 'cancelled' });
  await markRunRunning({ runId });
  setStatus('running');

  const context: RunContext = { intake: input.intake, inputs: input.inputs, steps: {} };
  let lastOutput: unknown;
  for (const [index, step] of definition.runtimeSteps.entries()) {
    if (cancelRequested) return settle({ runId, status: 'cancelled' });
    stepIndex = index;
    try {
      const result = await executeStep({ runId, stepIndex: index, step, context, bindings: input.bindings });
      context.steps[step.id] = result.output;
      lastOutput = result.output;
    } catch (err) {
      const failure = describeFailure(err);
      return settle({ runId, status: 'failed', ...failure, failedStepIndex: index });
    }
  }
  if (cancelRequested) return settle({ runId, status: 'cancelled' });

  const artifactId = `artifact-${uuid4().replace(/-/g, '').slice(0, 16)}`;
  return settle({ runId, status: 'completed', artifact: { id: artifactId, content: lastOutput } });
}
