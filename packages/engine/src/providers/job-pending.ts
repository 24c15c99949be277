/** A job the step is waiting for: the workflow waits (a timer, or the provider's webhook) and runs the step again. */
export interface PendingJob {
  provider: string;
  jobId: string;
  /** When to look again, if no webhook says so first. */
  checkAfterMs?: number;
}

/** Thrown through the step's executor: the step has a job pending and is not done. */
export class ProviderJobPending extends Error {
  /** Models the step fell back from before this job's (activities/steps/fallbacks.ts): kept for the execution that resumes it. */
  fallbacks?: readonly object[];
  constructor(readonly job: PendingJob) {
    super(`waiting for ${job.provider} job ${job.jobId}`);
  }
}
