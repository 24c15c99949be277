import type { ModelEntry } from '@atelier/domain';
import { type JobProgress, type JobProvider, PermanentProviderError, TransientProviderError } from '../types.js';
import { FalRequestFailed, type FalOptions, falCall } from './http.js';

/**
 * fal's queue protocol, shared by image and video jobs: submit `POST {queue}/{endpoint id}` (optionally with
 * `?fal_webhook=`), then `GET {queue}/{owner}/{alias}/requests/{id}/status` until COMPLETED, then the
 * result at `GET .../requests/{id}`; cancel is `PUT .../requests/{id}/cancel`. Status, result and cancel
 * name the app (owner/alias) without the endpoint's sub-path (`fal-ai/flux`, not `fal-ai/flux/dev`).
 *
 * The job id is fal's request_id alone: with the model of the request and the configured queue URL it
 * rebuilds every URL after a restart, and it is what a webhook delivery names. The status_url/response_url
 * of the submit answer are not followed: they would be one more thing to persist, and the key then only
 * ever goes to the configured queue URL.
 */

/** The fal endpoint id of a registry model: `fal/fal-ai/flux/dev` → `fal-ai/flux/dev`. */
export function endpointId(model: ModelEntry): string {
  const id = model.id.startsWith('fal/') ? model.id.slice('fal/'.length) : '';
  const segments = id.split('/');
  if (segments.length < 2 || segments.some((s) => !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(s)))
    throw new PermanentProviderError(`${model.id} does not name a fal endpoint (fal/<owner>/<app>[/<path>])`);
  return id;
}

/** owner/alias, the part of an endpoint id the queue's request URLs use. */
const appId = (model: ModelEntry) => endpointId(model).split('/').slice(0, 2).join('/');

/** fal's request ids are UUIDs; anything else is not put into a URL. */
const REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9-]{0,99}$/;

function requestUrl(opts: FalOptions, model: ModelEntry, jobId: string, suffix = ''): string {
  if (!REQUEST_ID.test(jobId)) throw new PermanentProviderError('not a fal request id');
  return `${opts.queueUrl.replace(/\/$/, '')}/${appId(model)}/requests/${jobId}${suffix}`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What one kind of job adds to the protocol: the model's input, and how its output becomes the result. */
export interface FalJobKind<Request, Result> {
  input(req: Request): Record<string, unknown>;
  /** Downloads the output's media and prices it; a permanent error fails the job, a transient one is checked again. */
  finish(req: Request, output: Record<string, unknown>): Promise<Result>;
}

export function falJobs<Request extends { model: ModelEntry; signal?: AbortSignal }, Result>(
  opts: FalOptions,
  kind: FalJobKind<Request, Result>,
): JobProvider<Request, Result> {
  return {
    async submit(req) {
      const endpoint = endpointId(req.model);
      const webhook = req.webhookUrl ? `?fal_webhook=${encodeURIComponent(req.webhookUrl)}` : '';
      const { body } = await falCall(opts, {
        method: 'POST',
        url: `${opts.queueUrl.replace(/\/$/, '')}/${endpoint}${webhook}`,
        path: `/${endpoint}`,
        body: kind.input(req),
        signal: req.signal,
      });
      const requestId = isObject(body) ? body.request_id : undefined;
      if (typeof requestId !== 'string' || !REQUEST_ID.test(requestId))
        throw new TransientProviderError('fal accepted the request without a request_id');
      return { jobId: requestId };
    },

    async check(req, jobId): Promise<JobProgress<Result>> {
      try {
        const { body: status } = await falCall(opts, {
          method: 'GET',
          url: requestUrl(opts, req.model, jobId, '/status'),
          path: `/${appId(req.model)}/requests/{request_id}/status`,
          signal: req.signal,
        });
        const state = isObject(status) ? status.status : undefined;
        if (state === 'IN_QUEUE' || state === 'IN_PROGRESS') return { state: 'pending' };
        if (state !== 'COMPLETED') throw new TransientProviderError(`fal answered a status of ${JSON.stringify(state)}`);
        // A failed request is COMPLETED too: its result answers with the error it ended in.
        const { body: output } = await falCall(opts, {
          method: 'GET',
          url: requestUrl(opts, req.model, jobId),
          path: `/${appId(req.model)}/requests/{request_id}`,
          signal: req.signal,
          settled: (_status, body) => isObject(body) && typeof body.error_type === 'string',
        });
        if (!isObject(output)) throw new TransientProviderError('fal answered the result with something other than an object');
        return { state: 'succeeded', result: await kind.finish(req, output) };
      } catch (err) {
        if (err instanceof PermanentProviderError) return { state: 'failed', error: err };
        // The request's own stored failure (a runner error, a timeout): it has ended, though submitting again may well succeed.
        if (err instanceof FalRequestFailed) return { state: 'failed', error: err };
        throw err;
      }
    },

    async cancel(req) {
      const { jobId } = req;
      try {
        await falCall(opts, {
          method: 'PUT',
          url: requestUrl(opts, req.model, jobId, '/cancel'),
          path: `/${appId(req.model)}/requests/{request_id}/cancel`,
        });
      } catch (err) {
        // fal answers 400 ALREADY_COMPLETED for a request that ended, 404 for one it no longer holds: nothing to stop.
        if (err instanceof PermanentProviderError && (err.status === 400 || err.status === 404)) return;
        throw err;
      }
    },
  };
}
