/**
 * How a run workflow reads failures and ends: a step's own deterministic failure keeps its code, anything
 * else is the engine's fault; the execution closes as the run did, and a parent reads a child's outcome
 * however its execution closed. Workflow code (deterministic): the Temporal workflow SDK and pure code only.
 */
import { ActivityFailure, ApplicationFailure, CancelledFailure, ChildWorkflowFailure } from '@temporalio/workflow';
import { DETERMINISTIC_ERROR_CODES } from '@atelier/domain/failures';
import type { RunOutcome, SettleRunInput } from '../run-types.js';

/** Error types an activity throws that end the run at once instead of being retried. */
export const NON_RETRYABLE = [...DETERMINISTIC_ERROR_CODES, 'step_invalid', 'step_failed', 'run_missing'];

export interface RunFailure {
  error: string;
  errorCode: string;
  failureDetails?: Record<string, unknown>;
}

/** Ends the run with a settlement decided by the workflow (a gate, a failed step, a failed child). */
export class RunStop extends Error {
  constructor(readonly result: Omit<SettleRunInput, 'runId'>) {
    super(result.error ?? result.status);
  }
}

/** A step's activity failed: its deterministic code, or `transient_failure` once its retries are spent. */
export function describeStepFailure(err: unknown): RunFailure {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure && cause.type && NON_RETRYABLE.includes(cause.type)) {
    const details = cause.details?.[0];
    return {
      error: cause.message,
      errorCode: cause.type,
      ...(details && typeof details === 'object' ? { failureDetails: details as Record<string, unknown> } : {}),
    };
  }
  const message = cause instanceof Error ? cause.message : String(cause);
  return { error: `the step kept failing after retries: ${message}`, errorCode: 'transient_failure' };
}

/**
 * A failure that is not a step's own settled failure. A deterministic refusal keeps its code (a
 * sub-workflow whose mapped intake the child refuses is `step_invalid`, with the child's reasons); a
 * sub-workflow execution that failed is `sub_workflow_failed`; anything else is `engine_error`.
 */
export function describeEngineFailure(err: unknown): RunFailure {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure && cause.type && NON_RETRYABLE.includes(cause.type)) return describeStepFailure(err);
  if (err instanceof ChildWorkflowFailure) {
    return {
      error: `sub-workflow run ${err.execution?.workflowId ?? ''} failed: ${err.cause?.message ?? err.message}`,
      errorCode: 'sub_workflow_failed',
      failureDetails: { childRunId: err.execution?.workflowId ?? null, retryState: err.retryState ?? null },
    };
  }
  const message = cause instanceof Error ? cause.message : String(cause);
  return { error: `the engine failed to carry the run through: ${message}`, errorCode: 'engine_error' };
}

/**
 * The execution ends as the run did: `Failed` (the outcome in the failure's details, so a parent reads it)
 * for a failed run, `Canceled` for a run cancelled through Temporal, `Completed` otherwise.
 */
export function closeAs(outcome: RunOutcome, cancelledByTemporal: boolean): RunOutcome {
  if (outcome.status === 'failed') {
    throw ApplicationFailure.create({
      type: outcome.errorCode ?? 'run_failed',
      message: outcome.error ?? `run ${outcome.runId} failed`,
      nonRetryable: true,
      details: [outcome],
    });
  }
  if (outcome.status === 'cancelled' && cancelledByTemporal) throw new CancelledFailure(`run ${outcome.runId} was cancelled`);
  return outcome;
}

/**
 * A child run's outcome, also when its execution ended Failed (the outcome rides in the failure's details)
 * or Canceled (Temporal records no details for a cancellation, so the status is all there is).
 */
export async function childOutcome(child: Promise<RunOutcome>, childRunId: string): Promise<RunOutcome> {
  try {
    return await child;
  } catch (err) {
    const cause = err instanceof ChildWorkflowFailure ? err.cause : undefined;
    const recorded = cause instanceof ApplicationFailure || cause instanceof CancelledFailure ? cause.details?.[0] : undefined;
    if (recorded && typeof recorded === 'object' && 'status' in recorded) return recorded as RunOutcome;
    if (cause instanceof CancelledFailure) return { runId: childRunId, status: 'cancelled' };
    throw err;
  }
}
