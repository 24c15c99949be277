import sharp, { type OutputInfo } from 'sharp';
import { artifactFileKey } from '@atelier/domain/artifact-files';
import { assertSafeKey } from '@atelier/storage';
import { type FileReadContext, readArtifactFile } from '../../steps/artifact-file-reads.js';
import { type ToolContext, ToolInputError } from '../../steps/tools.js';
import { cpuBound } from '../cpu-slots.js';
import { type CutoutOptions, alphaStats, cutOutBackground } from './cutout.js';

/**
 * How the processed file got its transparency: the model drew it (`native`), the pixels were cut out
 * afterwards (`post-process`), or no transparency was asked for (`none`).
 */
export type TransparencyMechanism = 'native' | 'post-process' | 'none';

export interface Transparency {
  mechanism: TransparencyMechanism;
  /** Measured on the pixels written: share with alpha 0, and with alpha 255. */
  transparentFraction: number;
  opaqueFraction: number;
  backgroundColor?: string;
}

/** The removeBackground tool's output, already in the shape of visual artifact content. */
export interface ProcessedImage {
  type: 'image';
  storageKey: string;
  rawStorageKey: string;
  mimeType: 'image/webp';
  width: number;
  height: number;
  bytes: number;
  model?: string;
  prompt?: string;
  transparentBackground: boolean;
  transparency: Transparency;
  aspectRatio?: string;
  sourceArtifactId?: string;
}

export const MAX_SIDE = 4096;
/** Both files of a visual artifact are WebP at this setting; alpha is kept losslessly. */
export const WEBP_OPTIONS = { quality: 92, alphaQuality: 100 } as const;

export function visualKeys(artifactType: string, artifactId: string): { raw: string; processed: string } {
  const owner = { artifactType, id: artifactId };
  return { raw: artifactFileKey(owner, 'raw.webp'), processed: artifactFileKey(owner, 'processed.webp') };
}

const isWebp = (b: Buffer) => b.length >= 12 && b.toString('ascii', 0, 4) === 'RIFF' && b.toString('ascii', 8, 12) === 'WEBP';

interface ImageRef {
  storageKey: string;
  transparentBackground: boolean;
  nativeTransparency: boolean;
  model?: string;
  prompt?: string;
  aspectRatio?: string;
  artifactId?: string;
  cutout: CutoutOptions;
}

function readInput(input: unknown): ImageRef {
  if (!input || typeof input !== 'object' || Array.isArray(input))
    throw new ToolInputError('expects an image: an object with a storageKey');
  const r = input as Record<string, unknown>;
  if (typeof r.storageKey !== 'string') throw new ToolInputError('expects an image with a storageKey');
  try {
    assertSafeKey(r.storageKey);
  } catch {
    throw new ToolInputError(`was given an invalid storageKey "${r.storageKey}"`);
  }
  const tolerance = r.tolerance === undefined ? undefined : Number(r.tolerance);
  if (tolerance !== undefined && !(tolerance >= 1 && tolerance <= 200))
    throw new ToolInputError('tolerance must be a number from 1 to 200');
  if (r.aspectRatio !== undefined && (typeof r.aspectRatio !== 'string' || !/^\d+:\d+$/.test(r.aspectRatio)))
    throw new ToolInputError('aspectRatio must look like 16:9');
  const transparency = r.transparency as { mechanism?: unknown } | undefined;
  return {
    storageKey: r.storageKey,
    transparentBackground: r.transparentBackground === true,
    nativeTransparency: r.nativeTransparency === true || transparency?.mechanism === 'native',
    ...(typeof r.model === 'string' && r.model ? { model: r.model } : {}),
    ...(typeof r.prompt === 'string' && r.prompt ? { prompt: r.prompt } : {}),
    ...(typeof r.aspectRatio === 'string' ? { aspectRatio: r.aspectRatio } : {}),
    ...(typeof r.artifactId === 'string' ? { artifactId: r.artifactId } : {}),
    cutout: tolerance === undefined ? {} : { tolerance },
  };
}

/**
 * The removeBackground tool: from an image in storage (an image step's output or a supplied visual
 * artifact's content), writes the artifact's processed.webp, and its raw.webp when the source lives
 * elsewhere. Transparency asked for and drawn by the model: the processed file is a re-encoded copy
 * (`native`); asked for but not drawn: the backdrop is cut out of the pixels (`post-process`); not asked
 * for: a re-encoded copy (`none`). The alpha written is measured and recorded.
 */
export async function removeBackground(input: unknown, ctx: FileReadContext & { signal?: AbortSignal }): Promise<ProcessedImage> {
  const ref = readInput(input);
  const keys = visualKeys(ctx.artifactType, ctx.artifactId);
  const source = await readArtifactFile(ctx, { key: ref.storageKey, artifactId: ref.artifactId });
  const mechanism: TransparencyMechanism = !ref.transparentBackground ? 'none' : ref.nativeTransparency ? 'native' : 'post-process';
  // Decode, cut-out and encode hold one media slot (cpu-slots.ts), and only they: the storage writes wait on I/O.
  const { info, measured, processed } = await cpuBound(async () => {
    let decoded: { data: Buffer; info: OutputInfo };
    try {
      decoded = await sharp(source, { limitInputPixels: MAX_SIDE * MAX_SIDE })
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
    } catch (err) {
      throw new ToolInputError(`could not read ${ref.storageKey} as an image: ${(err as Error).message}`);
    }
    ctx.signal?.throwIfAborted();
    const { data, info } = decoded;
    const measured =
      mechanism === 'post-process' ? cutOutBackground(data, info.width, info.height, ref.cutout) : alphaStats(data, info.channels);
    ctx.signal?.throwIfAborted();
    const processed = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
      .webp(WEBP_OPTIONS)
      .toBuffer();
    return { info, measured, processed };
  }, ctx.signal);
  const copyRaw = ref.storageKey === keys.raw ? Promise.resolve() : storeRaw(ctx, keys.raw, source, ctx.signal);
  await Promise.all([ctx.storage.put(keys.processed, processed, 'image/webp'), copyRaw]);

  return {
    type: 'image',
    storageKey: keys.processed,
    rawStorageKey: keys.raw,
    mimeType: 'image/webp',
    width: info.width,
    height: info.height,
    bytes: processed.length,
    ...(ref.model ? { model: ref.model } : {}),
    ...(ref.prompt ? { prompt: ref.prompt } : {}),
    transparentBackground: ref.transparentBackground,
    transparency: { mechanism, ...measured },
    ...(ref.aspectRatio ? { aspectRatio: ref.aspectRatio } : {}),
    ...(ref.artifactId ? { sourceArtifactId: ref.artifactId } : {}),
  };
}

/** The artifact's own raw.webp, when the image came from elsewhere: the source bytes, as WebP. */
async function storeRaw(ctx: Pick<ToolContext, 'storage'>, key: string, source: Buffer, signal?: AbortSignal): Promise<void> {
  const bytes = isWebp(source) ? source : await cpuBound(() => sharp(source).webp(WEBP_OPTIONS).toBuffer(), signal);
  await ctx.storage.put(key, bytes, 'image/webp');
}
