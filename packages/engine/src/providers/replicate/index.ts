import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type ModelEntry, roundUsd } from '@atelier/domain';
import { inScratch } from '../../media/video/files.js';
import { probeMedia } from '../../media/video/probe.js';
import { msSetting } from '../settings.js';
import {
  type Adapter,
  type GeneratedImage,
  type GeneratedVideo,
  type ImageRequest,
  type JobProgress,
  type JobProvider,
  PermanentProviderError,
  type ProviderDefinition,
  TransientProviderError,
  type VideoRequest,
} from '../types.js';
import { type ReplicateOptions, downloadOutput, replicateApi } from './http.js';
import { type ReplicateModel, imageInput, replicateModel, videoInput } from './inputs.js';
import { replicateWebhooks } from './webhooks.js';

export type { ReplicateOptions } from './http.js';

/** A prediction as the API answers it (only what the adapter reads). */
interface Prediction {
  id?: string;
  status?: 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';
  output?: unknown;
  error?: unknown;
}

/**
 * Failure texts Replicate gives when the run, not the request, went wrong (a machine lost mid-run:
 * "Prediction interrupted; please retry (code: PA)"): the same input may well succeed again.
 */
const TRANSIENT_FAILURE = /please retry|interrupted|timed out|time ?out|temporar|unavailable|out of capacity|internal (server )?error/i;

/** The output file URLs of a succeeded prediction: one URL, or a list (one per image asked for). */
function outputUrls(output: unknown): string[] {
  if (typeof output === 'string') return [output];
  if (Array.isArray(output)) return output.filter((o): o is string => typeof o === 'string');
  return [];
}

/** Where a prediction stands while it has not succeeded; undefined once it has (its output is then fetched). */
function unlessSucceeded(prediction: Prediction): JobProgress<never> | undefined {
  if (prediction.status === 'starting' || prediction.status === 'processing') return { state: 'pending' };
  if (prediction.status === 'canceled')
    return { state: 'failed', error: new PermanentProviderError(`Replicate prediction ${prediction.id} was canceled`) };
  if (prediction.status === 'failed') {
    const text = typeof prediction.error === 'string' && prediction.error ? prediction.error : 'no reason given';
    const message = `Replicate prediction ${prediction.id} failed: ${text}`.slice(0, 500);
    return {
      state: 'failed',
      error: TRANSIENT_FAILURE.test(text) ? new TransientProviderError(message) : new PermanentProviderError(message),
    };
  }
  if (prediction.status !== 'succeeded')
    return {
      state: 'failed',
      error: new TransientProviderError(`Replicate answered a prediction with status ${String(prediction.status)}`),
    };
  return undefined;
}

const price = (model: ModelEntry, unit: 'per_image' | 'per_second', what: string) => {
  const value = model.pricing[unit];
  // A model listed without its price would run free in the books: refused, and before submitting (the paid act).
  if (value === undefined) throw new PermanentProviderError(`${model.id} has no ${unit} price in the model registry (${what})`);
  return value;
};

/**
 * How many seconds of video the clip holds, read from the file (Replicate's answer does not say). Video
 * models render whole seconds and are billed so; the container's length is off by a frame or an audio
 * packet (5.04 s for a 5-second clip), so it is rounded to the second.
 */
async function clipSeconds(bytes: Buffer, signal?: AbortSignal): Promise<number | undefined> {
  try {
    return await inScratch(async (dir) => {
      const file = path.join(dir, 'output.mp4');
      await writeFile(file, bytes);
      return Math.max(1, Math.round((await probeMedia(file, signal)).durationSeconds));
    });
  } catch {
    return undefined;
  }
}

/**
 * Submits a prediction: official models (no version) by name at /v1/models/{owner}/{name}/predictions,
 * pinned community versions at /v1/predictions. With a webhook URL, Replicate calls it once, when the
 * prediction ends (`completed`), so no delivery announces mere progress.
 */
async function createPrediction(
  opts: ReplicateOptions,
  req: (ImageRequest | VideoRequest) & { webhookUrl?: string },
  inputOf: (model: ReplicateModel) => Record<string, unknown>,
): Promise<{ jobId: string }> {
  const model = replicateModel(req.model.id);
  const input = inputOf(model);
  const { webhookUrl, signal } = req;
  const webhook = webhookUrl ? { webhook: webhookUrl, webhook_events_filter: ['completed'] } : {};
  const answer = (await replicateApi(opts, {
    method: 'POST',
    path: model.version ? '/v1/predictions' : `/v1/models/${model.owner}/${model.name}/predictions`,
    body: { ...(model.version ? { version: model.version } : {}), input, ...webhook },
    signal,
    repeatAfterTimeout: false,
  })) as Prediction;
  if (typeof answer?.id !== 'string' || !answer.id) throw new TransientProviderError('Replicate accepted the prediction without an id');
  return { jobId: answer.id };
}

/** What tells one kind of prediction from another: its input, its price, and its result from the output file. */
interface PredictionKind<Req, Result> {
  /** The output it should have, for the error when it has none. */
  noun: string;
  price: [unit: 'per_image' | 'per_second', what: string];
  input(model: ReplicateModel, req: Req): Record<string, unknown>;
  /** The result from the first output file, the number of files and the unit price. */
  result(req: Req, file: { bytes: Buffer; mimeType: string }, files: number, unitPrice: number): Promise<Result>;
}

/**
 * One kind of prediction as a durable job: the price is checked before submitting (the paid act), and the
 * succeeded prediction's first output file is fetched and priced.
 */
function predictionJobs<Req extends ImageRequest | VideoRequest, Result>(
  opts: ReplicateOptions,
  kind: PredictionKind<Req, Result>,
): JobProvider<Req, Result> {
  return {
    async submit(req) {
      price(req.model, ...kind.price);
      return createPrediction(opts, req, (model) => kind.input(model, req));
    },
    async check(req, jobId) {
      const prediction = (await replicateApi(opts, {
        method: 'GET',
        path: `/v1/predictions/${encodeURIComponent(jobId)}`,
        signal: req.signal,
        repeatAfterTimeout: true,
      })) as Prediction;
      const progress = unlessSucceeded(prediction);
      if (progress) return progress;
      const urls = outputUrls(prediction.output);
      if (!urls[0])
        return { state: 'failed', error: new PermanentProviderError(`Replicate prediction ${jobId} succeeded without ${kind.noun}`) };
      const file = await downloadOutput(opts, urls[0], req.signal);
      return { state: 'succeeded', result: await kind.result(req, file, urls.length, price(req.model, ...kind.price)) };
    },
    cancel: ({ jobId, signal }) => cancelPrediction(opts, jobId, signal),
  };
}

async function cancelPrediction(opts: ReplicateOptions, jobId: string, signal?: AbortSignal): Promise<void> {
  try {
    await replicateApi(opts, {
      method: 'POST',
      path: `/v1/predictions/${encodeURIComponent(jobId)}/cancel`,
      signal,
      repeatAfterTimeout: true,
    });
  } catch (err) {
    // A prediction Replicate no longer has (its data is removed after an hour) has nothing left to stop.
    if (err instanceof PermanentProviderError && err.status === 404) return;
    throw err;
  }
}

/**
 * Prices: Replicate bills its official image models per output image and its official video models per
 * second of output video (community models run on rented hardware, billed per second of `predict_time`, which
 * the registry does not price; they are not listed). So an image costs `per_image` × the images the prediction
 * returned, and a clip `per_second` × its length read from the file.
 */
export function createReplicateProvider(opts: ReplicateOptions): Adapter {
  const imageJobs = predictionJobs<ImageRequest, GeneratedImage>(opts, {
    noun: 'an image',
    price: ['per_image', 'images'],
    input: imageInput,
    result: async (_req, image, files, perImage) => ({
      bytes: image.bytes,
      mimeType: image.mimeType,
      nativeTransparency: false,
      costUsd: roundUsd(perImage * files),
    }),
  });
  const videoJobs = predictionJobs<VideoRequest, GeneratedVideo>(opts, {
    noun: 'a video',
    price: ['per_second', 'seconds of video'],
    input: videoInput,
    result: async (req, clip, _files, perSecond) => {
      // A file that cannot be measured is priced at the duration asked for (it fails the step's own probe anyway).
      const seconds = (await clipSeconds(clip.bytes, req.signal)) ?? req.durationSeconds;
      return { bytes: clip.bytes, mimeType: 'video/mp4', costUsd: roundUsd(perSecond * seconds) };
    },
  });
  return { imageJobs, videoJobs, webhooks: replicateWebhooks(opts) };
}

/**
 * REPLICATE_API_TOKEN enables the provider; REPLICATE_BASE_URL points it elsewhere than api.replicate.com;
 * REPLICATE_WEBHOOK_SECRET saves fetching the signing secret; REPLICATE_TIMEOUT_MS bounds each API request.
 */
export const replicateProvider: ProviderDefinition<ReplicateOptions> = {
  fromSettings(settings) {
    const apiToken = settings('REPLICATE_API_TOKEN');
    if (!apiToken) return undefined;
    const webhookSecret = settings('REPLICATE_WEBHOOK_SECRET');
    const timeoutMs = msSetting(settings, 'REPLICATE_TIMEOUT_MS');
    return {
      baseUrl: settings('REPLICATE_BASE_URL') ?? 'https://api.replicate.com',
      apiToken,
      ...(webhookSecret ? { webhookSecret } : {}),
      ...(timeoutMs ? { timeoutMs } : {}),
    };
  },
  create: createReplicateProvider,
};
