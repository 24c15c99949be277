import type { ModelEntry } from '@atelier/domain';
import { delay } from './delay.js';
import type { Adapter, JobProvider } from './types.js';

const FIRST_CHECK_MS = 1_000;
const LONGEST_CHECK_MS = 15_000;

/**
 * A job awaited inside the call: submit, then check with growing pauses (or as the provider suggests)
 * until it ends. This holds the caller while the job runs; the engine's durable wait replaces it where
 * a step can wait without a worker.
 */
export async function runJobToEnd<Request extends { model: ModelEntry; signal?: AbortSignal }, Result>(
  jobs: JobProvider<Request, Result>,
  req: Request,
): Promise<Result> {
  const { jobId } = await jobs.submit(req);
  let pause = FIRST_CHECK_MS;
  try {
    for (;;) {
      const progress = await jobs.check(req, jobId);
      if (progress.state === 'succeeded') return progress.result;
      if (progress.state === 'failed') throw progress.error;
      await delay(progress.checkAfterMs ?? pause, req.signal);
      pause = Math.min(LONGEST_CHECK_MS, pause * 2);
    }
  } catch (err) {
    if (req.signal?.aborted) await jobs.cancel?.({ model: req.model, jobId }).catch(() => undefined);
    throw err;
  }
}

/** An adapter whose media comes only as jobs also answers plain image and video calls (awaiting the job). */
export function withJobsAwaited(adapter: Adapter): Adapter {
  const { imageJobs, videoJobs } = adapter;
  return {
    ...adapter,
    ...(!adapter.image && imageJobs ? { image: { generate: (req) => runJobToEnd(imageJobs, req) } } : {}),
    ...(!adapter.video && videoJobs ? { video: { generate: (req) => runJobToEnd(videoJobs, req) } } : {}),
  };
}
