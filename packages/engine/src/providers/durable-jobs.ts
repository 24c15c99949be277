import {
  type Db,
  type ProviderJobRow,
  claimProviderJobSubmission,
  getProviderJob,
  recordProviderJobEnded,
  recordProviderJobSubmitted,
  serveProviderJob,
} from '@atelier/db';
import type { ModelEntry } from '@atelier/domain';
import { type BatchSettings, completeInBatch } from './batches.js';
import { ProviderJobPending } from './job-pending.js';
import { layered } from './provider-set.js';
import type { ImageProvider, JobKind, JobProvider, ProviderSet, VideoProvider } from './types.js';

export { ProviderJobPending, type PendingJob } from './job-pending.js';

export interface ProviderJobSettings extends BatchSettings {
  /** The gateway's public origin: providers announce job ends at `<origin>/hooks/providers/<provider>`. Absent: polling only. */
  webhookOrigin?: string;
  /** How long a step waits before looking at a job again when its provider gives no hint; absent: the workflow's growing schedule. */
  checkAfterMs?: number;
}

export interface DurableJobsOptions extends ProviderJobSettings {
  db: Db;
  runId: string;
  stepIndex: number;
}

type MediaRequest = { model: ModelEntry; idempotencyKey?: string; signal?: AbortSignal };

/**
 * Media of providers that run it as jobs, as an image or video step sees it: the first execution submits
 * the job, records its id under the call's idempotency key, and ends the execution (ProviderJobPending)
 * so no worker slot is held while the provider works. An execution after that (the timer, the webhook, or
 * a worker that died) finds the job by the same key and checks on it instead of submitting again; a job
 * that succeeded hands over its result (fetched again if an execution died after fetching it). A job that
 * failed, or a submission the provider refused, lets a later attempt of the step submit anew.
 */
export function withDurableJobs(providers: ProviderSet, opts: DurableJobsOptions): ProviderSet {
  const durable = <K extends JobKind>(kind: K, name: string) => {
    const jobs = providers.jobs(kind, name) as JobProvider<MediaRequest, unknown> | undefined;
    return jobs && { generate: (req: MediaRequest) => awaitJob(jobs, kind, req, opts) };
  };
  // Adapters that run media only as jobs also answer plain calls (registry.ts), so a wrapped call always exists.
  return layered(providers, {
    // A text call in batch mode goes through its provider's batch interface when it has one (batches.ts).
    text: (plain, name) => {
      const batches = providers.batches(name);
      return batches ? { complete: (req) => (req.batch ? completeInBatch(batches, req, opts) : plain.complete(req)) } : plain;
    },
    image: (plain, name) => (durable('image', name) as ImageProvider | undefined) ?? plain,
    video: (plain, name) => (durable('video', name) as VideoProvider | undefined) ?? plain,
  });
}

async function awaitJob(jobs: JobProvider<MediaRequest, unknown>, kind: JobKind, req: MediaRequest, opts: DurableJobsOptions) {
  const callKey = req.idempotencyKey;
  if (!callKey) throw new Error('a job is found again by its call key: keyedProviders must name the call');
  const { model } = req;
  const record = { call_key: callKey, run_id: opts.runId, step_index: opts.stepIndex, provider: model.provider, model: model.id, kind };
  let row: ProviderJobRow | undefined = await getProviderJob(opts.db, callKey);
  // A submission that never recorded its job id died on the way: the provider may or may not have it, and
  // there is no id to ask about. It counts as failed and is made again (one more submission, recorded).
  if (row?.status === 'submitting') await recordProviderJobEnded(opts.db, callKey, 'failed');
  if (!row || row.status === 'submitting' || row.status === 'failed' || row.status === 'cancelled') {
    if (await claimProviderJobSubmission(opts.db, record)) {
      let jobId: string;
      try {
        const webhookUrl = opts.webhookOrigin && `${opts.webhookOrigin}/hooks/providers/${encodeURIComponent(model.provider)}`;
        ({ jobId } = await jobs.submit({ ...req, ...(webhookUrl ? { webhookUrl } : {}) }));
      } catch (err) {
        await recordProviderJobEnded(opts.db, callKey, 'failed');
        throw err;
      }
      await recordProviderJobSubmitted(opts.db, callKey, jobId);
      throw new ProviderJobPending({ provider: model.provider, jobId, ...after(undefined, opts) });
    }
    row = await getProviderJob(opts.db, callKey);
  }
  if (!row?.job_id) throw new Error(`provider job of call ${callKey} has no job id`);
  const progress = await jobs.check(req, row.job_id);
  if (progress.state === 'pending')
    throw new ProviderJobPending({ provider: model.provider, jobId: row.job_id, ...after(progress.checkAfterMs, opts) });
  if (progress.state === 'failed') {
    await recordProviderJobEnded(opts.db, callKey, 'failed');
    throw progress.error;
  }
  if (row.status !== 'succeeded') await recordProviderJobEnded(opts.db, callKey, 'succeeded');
  // Fetched again after an execution that had it died before settling: paid once, recorded once.
  return (await serveProviderJob(opts.db, callKey)) ? progress.result : { ...(progress.result as object), recorded: true };
}

/** The provider's hint, else the worker's setting, else nothing (the workflow's own schedule). */
function after(hint: number | undefined, opts: ProviderJobSettings): { checkAfterMs?: number } {
  const ms = hint ?? opts.checkAfterMs;
  return ms === undefined ? {} : { checkAfterMs: ms };
}
