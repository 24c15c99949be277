/**
 * What the outside world may ask of a run workflow while it runs: cancel it, tell it a provider job ended,
 * read its state, finalize it. Each handler only reads or changes the run's RunProgress; the loop in
 * run-workflow.ts acts on it at its next boundary. Imports stay limited to the Temporal workflow SDK.
 */
import type { DecidedRunStatus } from '@atelier/domain/review';
import { condition, defineQuery, defineSignal, defineUpdate, getExternalWorkflowHandle, setHandler } from '@temporalio/workflow';
import type { RunOutcome } from '../run-types.js';
import type { RunProgress } from './run-progress.js';
import { PROVIDER_JOB_ENDED_SIGNAL } from './signal-names.js';

export const cancelRunSignal = defineSignal('cancel');
/** The gateway's word that a provider announced the end of a job (a verified completion webhook). */
export const providerJobEndedSignal = defineSignal<[{ jobId: string }]>(PROVIDER_JOB_ENDED_SIGNAL);
/** The dispatcher's word that the review queue decided a run waiting in review (run shape 6). */
export const reviewDecidedSignal = defineSignal<[{ status: DecidedRunStatus }]>('reviewDecided');
/**
 * A child run's word to the order or run that started it that it settled, sent by a child of shape 6 that
 * stays open in review, so the parent does not wait for the child's execution to close.
 */
export const childSettledSignal = defineSignal<[RunOutcome]>('childSettled');
export const runStateQuery = defineQuery<{ status: string; stepIndex: number; stepsDone: number; cancelRequested: boolean }>('state');
/** Completes a run whose steps are all done; waits for the workflow's own settlement and returns it. */
export const finalizeRunUpdate = defineUpdate<RunOutcome>('finalize');

/** Sets the run's handlers; called as the workflow starts, before its first await, so no signal is missed. */
export function handleRunRequests(run: RunProgress): void {
  const stepCount = run.plan.runtimeSteps.length;
  setHandler(cancelRunSignal, () => {
    run.state.cancelRequested = true;
    // A running sub-workflow stops at its own next boundary too.
    if (run.activeChild)
      void getExternalWorkflowHandle(run.activeChild)
        .signal(cancelRunSignal)
        .catch(() => undefined);
  });
  setHandler(providerJobEndedSignal, ({ jobId }) => {
    run.endedJobs.add(jobId);
  });
  setHandler(reviewDecidedSignal, ({ status }) => {
    run.decided = status;
  });
  setHandler(childSettledSignal, (outcome) => {
    run.settledChildren.set(outcome.runId, outcome);
  });
  setHandler(runStateQuery, () => ({ ...run.state }));
  setHandler(
    finalizeRunUpdate,
    async () => {
      await condition(() => run.outcome !== undefined);
      return run.outcome!;
    },
    {
      validator: () => {
        if (run.state.stepsDone < stepCount)
          throw new Error(
            `run ${run.input.runId} has ${stepCount - run.state.stepsDone} steps still to run; only finished runs can be finalized`,
          );
      },
    },
  );
}
