import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { roundUsd } from '@atelier/domain';
import { inScratch } from '../../media/video/files.js';
import { probeMedia } from '../../media/video/probe.js';
import { msSetting } from '../settings.js';
import {
  type Adapter,
  type GeneratedImage,
  type GeneratedVideo,
  type ImageRequest,
  PermanentProviderError,
  type ProviderDefinition,
  TransientProviderError,
  type VideoRequest,
} from '../types.js';
import { DEFAULT_JWKS_URL, DEFAULT_QUEUE_URL, type FalOptions, download } from './http.js';
import { type FalJobKind, endpointId, falJobs } from './queue.js';
import { falWebhooks } from './webhooks.js';

export type { FalOptions } from './http.js';

const MAX_IMAGE_BYTES = 50 * 1024 * 1024;
const MAX_VIDEO_BYTES = 500 * 1024 * 1024;

/** fal's seeds are integers; the call's seed string maps to one, so a retried call asks for the same picture. */
const falSeed = (seed: string) => createHash('sha256').update(seed).digest().readUInt32BE(0);

/** fal bills these models per megapixel of output, rounded up, where a megapixel is 1024 × 1024 pixels. */
const MEGAPIXEL = 1024 * 1024;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function sniffImage(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.toString('ascii', 0, 4) === 'RIFF' && bytes.toString('ascii', 8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

const positive = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);

function imageJob(opts: FalOptions): FalJobKind<ImageRequest, GeneratedImage> {
  return {
    // The FLUX family's text-to-image input; png so that nothing is lost before the step encodes WebP.
    input: (req) => ({
      prompt: req.prompt,
      image_size: { width: req.width, height: req.height },
      num_images: 1,
      seed: falSeed(req.seed),
      output_format: 'png',
      enable_safety_checker: true,
    }),
    async finish(req, output) {
      const image = Array.isArray(output.images) && isObject(output.images[0]) ? output.images[0] : undefined;
      if (!image || typeof image.url !== 'string') throw new TransientProviderError('fal answered without an image');
      // fal's checker answers a flagged picture blacked out rather than refusing it: that is a refusal.
      if (Array.isArray(output.has_nsfw_concepts) && output.has_nsfw_concepts[0] === true)
        throw new PermanentProviderError("fal's safety checker flagged the image (it was delivered blacked out)");
      const { bytes, contentType } = await download(image.url, MAX_IMAGE_BYTES, opts.downloadTimeoutMs ?? 60_000, req.signal);
      const mimeType = sniffImage(bytes);
      if (!mimeType) throw new TransientProviderError(`fal's image is not a PNG, JPEG or WebP (${contentType ?? 'no content type'})`);
      // The registry's per_image is fal's price of one billed megapixel (1024 × 1024 pixels, rounded up), so a
      // 1024 × 1024 image costs per_image. Billed by the size fal reports it drew; without one, the size asked for.
      const width = positive(image.width) ?? req.width;
      const height = positive(image.height) ?? req.height;
      const megapixels = Math.max(1, Math.ceil((width * height) / MEGAPIXEL));
      return { bytes, mimeType, nativeTransparency: false, costUsd: roundUsd((req.model.pricing.per_image ?? 0) * megapixels) };
    },
  };
}

/**
 * The durations (seconds) a fal video endpoint accepts, where it accepts only some. Kling's endpoints take
 * `duration` as a string of seconds and `aspect_ratio` as 16:9, 9:16 or 1:1.
 */
const VIDEO_DURATIONS: Record<string, readonly number[]> = {
  'fal-ai/kling-video/v2.5-turbo/pro/text-to-video': [5, 10],
  'fal-ai/kling-video/v3/turbo/pro/text-to-video': [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
};

/** The shortest accepted duration that is at least the one asked for, else the longest: never a clip cut short silently. */
export function falDuration(endpoint: string, seconds: number): number {
  const accepted = VIDEO_DURATIONS[endpoint];
  if (!accepted) return seconds;
  return accepted.find((d) => d >= seconds) ?? accepted[accepted.length - 1]!;
}

function aspectRatio(width: number, height: number): string {
  const ratio = width / height;
  const options: Array<[string, number]> = [
    ['16:9', 16 / 9],
    ['9:16', 9 / 16],
    ['1:1', 1],
  ];
  return options.reduce((best, o) => (Math.abs(o[1] - ratio) < Math.abs(best[1] - ratio) ? o : best))[0];
}

function videoJob(opts: FalOptions): FalJobKind<VideoRequest, GeneratedVideo> {
  return {
    // These endpoints choose their own frame size and rate from the aspect ratio; the step reads both back from the file.
    input: (req) => ({
      prompt: req.prompt,
      duration: String(falDuration(endpointId(req.model), req.durationSeconds)),
      aspect_ratio: aspectRatio(req.width, req.height),
    }),
    async finish(req, output) {
      const video = isObject(output.video) ? output.video : undefined;
      if (!video || typeof video.url !== 'string') throw new TransientProviderError('fal answered without a video');
      const { bytes } = await download(video.url, MAX_VIDEO_BYTES, opts.downloadTimeoutMs ?? 300_000, req.signal);
      // fal's answer names no duration; the clip itself does. fal bills whole seconds of video generated.
      const seconds = await inScratch(async (dir) => {
        const file = path.join(dir, 'fal.mp4');
        await writeFile(file, bytes);
        return (await probeMedia(file, req.signal)).durationSeconds;
      }).catch((err: Error) => {
        throw new TransientProviderError(`fal's video could not be read: ${err.message}`.slice(0, 300));
      });
      const billed = Math.max(1, Math.round(seconds));
      return { bytes, mimeType: 'video/mp4', costUsd: roundUsd((req.model.pricing.per_second ?? 0) * billed) };
    },
  };
}

/**
 * The `fal` provider: fal.ai's queue API. Images and videos are jobs (submit, check, cancel) and fal's
 * completion webhooks are verified by its ED25519 signatures; the engine awaits jobs in the call
 * (jobs.ts) until it waits for them durably. Costs are the registry's prices applied to what fal made.
 */
export function createFalProvider(opts: FalOptions): Adapter {
  return {
    imageJobs: falJobs(opts, imageJob(opts)),
    videoJobs: falJobs(opts, videoJob(opts)),
    webhooks: falWebhooks(opts.jwksUrl),
  };
}

/** FAL_KEY enables the provider; FAL_QUEUE_URL and FAL_JWKS_URL point it elsewhere; FAL_TIMEOUT_MS bounds each queue call. */
export const falProvider: ProviderDefinition<FalOptions> = {
  fromSettings(settings) {
    const apiKey = settings('FAL_KEY');
    if (!apiKey) return undefined;
    const requestTimeoutMs = msSetting(settings, 'FAL_TIMEOUT_MS');
    return {
      apiKey,
      queueUrl: settings('FAL_QUEUE_URL') ?? DEFAULT_QUEUE_URL,
      jwksUrl: settings('FAL_JWKS_URL') ?? DEFAULT_JWKS_URL,
      ...(requestTimeoutMs ? { requestTimeoutMs } : {}),
    };
  },
  create: createFalProvider,
};
