import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { artifactFileKey } from '@atelier/domain/artifact-files';
import { ffmpeg, mediaInput } from './ffmpeg.js';

/** Where a video artifact's files live, and the scratch space its encodes use. */
export function videoKeys(artifactType: string, artifactId: string): { raw: string; processed: string } {
  const owner = { artifactType, id: artifactId };
  return { raw: artifactFileKey(owner, 'raw.mp4'), processed: artifactFileKey(owner, 'processed.mp4') };
}

/** Runs `work` in a fresh temporary directory that is removed afterwards, whatever happens. */
export async function inScratch<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'atelier-video-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The processed file: the same streams with the index moved to the front, so players can start at once.
 * `format` is what probeMedia read the input as: it is opened as that and nothing else.
 */
export async function faststart(input: string, format: string, output: string, signal?: AbortSignal): Promise<void> {
  await ffmpeg([...mediaInput(input, format), '-map', '0', '-c', 'copy', '-movflags', '+faststart', '-map_metadata', '-1', output], signal);
}

export const isMp4 = (bytes: Buffer) => bytes.length >= 12 && bytes.toString('ascii', 4, 8) === 'ftyp';
