import { ApplicationFailure } from '@temporalio/common';
import { classifyDbError } from '@atelier/db';
import { StorageUnavailableError } from './outage-wait.js';
import { currentAttempt } from './step-attempt.js';

/** Attempts a step gets for failures of its own (a provider's 5xx, a timeout) before the run fails. */
export const STEP_ATTEMPTS = 5;

/**
 * Two retry budgets for one activity. Temporal retries it without a limit; the activity decides when to
 * stop. The database or storage being unreachable (a full or read-only disk, the bucket's 5xx) is the
 * platform's outage, not the run's failure: it is retried for as long as it lasts, so a failover of a few
 * minutes fails nothing. Any other transient failure (a provider's 5xx, a network error) gets
 * STEP_ATTEMPTS attempts, then fails the step for good with errorCode transient_failure.
 */
export function withRetryBudget<I extends unknown[], O>(
  activity: (...input: I) => Promise<O>,
  attempts = STEP_ATTEMPTS,
): (...input: I) => Promise<O> {
  return async (...input: I) => {
    try {
      return await activity(...input);
    } catch (err) {
      if (err instanceof ApplicationFailure && err.nonRetryable) throw err;
      // The database or storage being away: waited out however long it lasts, never the step's own failure.
      if (classifyDbError(err) === 'unavailable' || err instanceof StorageUnavailableError) throw err;
      if (currentAttempt().info.attempt >= attempts) {
        throw ApplicationFailure.nonRetryable(err instanceof Error ? err.message : String(err), 'transient_failure');
      }
      throw err;
    }
  };
}
