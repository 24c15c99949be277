import { createHash } from 'node:crypto';
import { type ImageRequest, PermanentProviderError, type VideoRequest } from '../types.js';

/**
 * Each Replicate model has its own input schema (there is no common one): these say how the engine's
 * request (a size in pixels, a duration in seconds) is put in the words of each model listed in
 * packages/domain/models/replicate.json. A model added to that file without an entry here gets the
 * conventions most community models share (prompt, width, height, seed; prompt, duration, aspect_ratio).
 */

/** Where a registry id points: `replicate/<owner>/<name>`, or `replicate/<owner>/<name>:<version>` for a pinned community model. */
export interface ReplicateModel {
  owner: string;
  name: string;
  version?: string;
}

export function replicateModel(registryId: string): ReplicateModel {
  const match = /^replicate\/([a-z0-9][a-z0-9_.-]*)\/([a-z0-9][a-z0-9_.-]*)(?::([0-9a-f]{64}))?$/i.exec(registryId);
  if (!match) throw new PermanentProviderError(`${registryId} is not a Replicate model id (replicate/<owner>/<name>[:<version>])`);
  return { owner: match[1]!, name: match[2]!, ...(match[3] ? { version: match[3] } : {}) };
}

/** Models take an integer seed; the engine's is a string that differs between calls. */
export function integerSeed(seed: string): number {
  return createHash('sha256').update(seed).digest().readUInt32BE(0) & 0x7fffffff;
}

/** The listed ratio nearest to width:height (compared in log space, so 2:1 and 1:2 are as far from 1:1). */
export function nearestRatio(width: number, height: number, ratios: readonly string[]): string {
  const target = Math.log(width / height);
  const distance = (r: string) => {
    const [w, h] = r.split(':').map(Number);
    return Math.abs(Math.log(w! / h!) - target);
  };
  return ratios.reduce((best, r) => (distance(r) < distance(best) ? r : best));
}

const FLUX_SCHNELL_RATIOS = ['1:1', '16:9', '21:9', '3:2', '2:3', '4:5', '5:4', '3:4', '4:3', '9:16', '9:21'];
const FLUX_PRO_RATIOS = ['1:1', '16:9', '3:2', '2:3', '4:5', '5:4', '9:16', '3:4', '4:3'];
const exactRatio = (width: number, height: number, ratios: readonly string[]) =>
  ratios.find((r) => {
    const [w, h] = r.split(':').map(Number);
    return width * h! === height * w!;
  });
const multipleOf32 = (n: number) => Math.min(1440, Math.max(256, Math.round(n / 32) * 32));

type ImageInput = (req: ImageRequest) => Record<string, unknown>;
type VideoInput = (req: VideoRequest) => Record<string, unknown>;

const IMAGE_INPUTS: Record<string, ImageInput> = {
  // Sizes only by aspect ratio (about one megapixel); PNG so nothing is lost before the engine encodes WebP.
  'black-forest-labs/flux-schnell': (req) => ({
    prompt: req.prompt,
    aspect_ratio: nearestRatio(req.width, req.height, FLUX_SCHNELL_RATIOS),
    num_outputs: 1,
    output_format: 'png',
    seed: integerSeed(req.seed),
  }),
  // A listed ratio when the size is one; otherwise `custom`, whose sides must be multiples of 32 from 256 to 1440.
  'black-forest-labs/flux-1.1-pro': (req) => {
    const ratio = exactRatio(req.width, req.height, FLUX_PRO_RATIOS);
    return {
      prompt: req.prompt,
      ...(ratio ? { aspect_ratio: ratio } : { aspect_ratio: 'custom', width: multipleOf32(req.width), height: multipleOf32(req.height) }),
      output_format: 'png',
      seed: integerSeed(req.seed),
    };
  },
};

const VIDEO_INPUTS: Record<string, VideoInput> = {
  // Kling renders 5 or 10 seconds: the shortest that holds the request (it bills what it renders).
  'kwaivgi/kling-v2.5-turbo-pro': (req) => ({
    prompt: req.prompt,
    duration: req.durationSeconds <= 5 ? 5 : 10,
    aspect_ratio: nearestRatio(req.width, req.height, ['16:9', '9:16', '1:1']),
  }),
};

export function imageInput(model: ReplicateModel, req: ImageRequest): Record<string, unknown> {
  const known = IMAGE_INPUTS[`${model.owner}/${model.name}`];
  return known ? known(req) : { prompt: req.prompt, width: req.width, height: req.height, seed: integerSeed(req.seed) };
}

export function videoInput(model: ReplicateModel, req: VideoRequest): Record<string, unknown> {
  const known = VIDEO_INPUTS[`${model.owner}/${model.name}`];
  return known
    ? known(req)
    : { prompt: req.prompt, duration: req.durationSeconds, aspect_ratio: nearestRatio(req.width, req.height, ['16:9', '9:16', '1:1']) };
}
