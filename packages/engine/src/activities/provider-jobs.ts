import { pendingProviderJobs, recordProviderJobEnded, settleStep } from '@atelier/db';
import type { ActivityDeps } from './deps.js';

/** The end of a provider job that a cancelled run no longer wants. */
export function createProviderJobActivities(deps: ActivityDeps) {
  const { db } = deps;
  return {
    /**
     * Stops the jobs of a run still running at their providers (where the provider can stop one; otherwise
     * it runs out unread) and settles the step that waited for them as failed: cancelled with its run.
     */
    async cancelProviderJobs(input: { runId: string; stepIndex: number }): Promise<void> {
      for (const job of await pendingProviderJobs(db, input.runId)) {
        const model = deps.models.get(job.model);
        const jobs = model ? deps.providers.jobs(job.kind, job.provider) : undefined;
        if (model && job.job_id && jobs?.cancel)
          await jobs.cancel({ model, jobId: job.job_id }).catch((err) => {
            deps.logger.warn({ err, runId: input.runId, provider: job.provider, jobId: job.job_id }, 'the provider did not cancel the job');
          });
        await recordProviderJobEnded(db, job.call_key, 'cancelled');
      }
      await settleStep(db, {
        runId: input.runId,
        stepIndex: input.stepIndex,
        status: 'failed',
        error: 'cancelled with its run while the provider ran its job',
        errorCode: 'run_cancelled',
      });
    },
  };
}
