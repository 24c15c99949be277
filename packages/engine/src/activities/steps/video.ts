import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { faststart, inScratch, videoKeys } from '../../media/video/files.js';
import { probeMedia } from '../../media/video/probe.js';
import type { ExecuteStepInput } from '../../run-types.js';
import { type ExecutorDeps, type StepExecution, invalid, mediaPrompt, stepInput } from './shared.js';
import type { ModelEntry } from '@atelier/domain';

/** Frame sizes by aspect ratio: even sides (H.264 in yuv420p needs them), about 640 pixels on the long side. */
export const VIDEO_SIZES: Record<string, { width: number; height: number }> = {
  '16:9': { width: 640, height: 360 },
  '9:16': { width: 360, height: 640 },
  '1:1': { width: 480, height: 480 },
};

function whole(value: unknown, fallback: number, min: number, max: number, what: string, stepId: string): number {
  if (value === undefined || value === null) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw invalid(`step ${stepId}: ${what} must be a whole number from ${min} to ${max}`);
  return n;
}

/**
 * An `image` step bound to a video model: the model renders an MP4 from the prompt; it is stored as the
 * raw file, remuxed for streaming as the processed file, and its duration, size and rate are read back
 * from the processed file with ffprobe.
 */
export async function generateVideoStep(
  input: ExecuteStepInput,
  model: ModelEntry,
  deps: ExecutorDeps,
  signal: AbortSignal,
): Promise<StepExecution> {
  const { step, context } = input;
  const provider = deps.providers.video(model.provider);
  if (!provider) throw invalid(`step ${step.id}: provider ${model.provider} makes no videos`);
  const params = (stepInput(step, context) ?? {}) as Record<string, unknown>;
  const prompt = mediaPrompt(step, context, params);
  const aspectRatio = typeof params.aspectRatio === 'string' ? params.aspectRatio : '16:9';
  const size = VIDEO_SIZES[aspectRatio];
  if (!size) throw invalid(`step ${step.id}: aspectRatio must be one of ${Object.keys(VIDEO_SIZES).join(', ')}`);
  const durationSeconds = whole(params.durationSeconds, 4, 1, 60, 'durationSeconds', step.id);
  const fps = whole(params.fps, 24, 1, 60, 'fps', step.id);
  const generateAudio = params.generateAudio === true;
  const references = Array.isArray(params.references) ? params.references.filter((r) => typeof r === 'string') : [];

  const clip = await provider.generate({
    model,
    prompt,
    ...size,
    fps,
    durationSeconds,
    generateAudio,
    seed: `${step.id}:${input.runId}`,
    signal,
  });
  const keys = videoKeys(input.artifact.artifactType, input.artifact.id);
  const measured = await inScratch(async (dir) => {
    const raw = path.join(dir, 'raw.mp4');
    const processed = path.join(dir, 'processed.mp4');
    await writeFile(raw, clip.bytes);
    // A provider's bytes are media from outside like any clip: probed in the accepted containers first.
    await faststart(raw, (await probeMedia(raw, signal)).format, processed, signal);
    const probe = await probeMedia(processed, signal);
    const bytes = await readFile(processed);
    await deps.storage.put(keys.raw, clip.bytes, 'video/mp4');
    await deps.storage.put(keys.processed, bytes, 'video/mp4');
    return { probe, bytes: bytes.length };
  });
  return {
    output: {
      type: 'video',
      storageKey: keys.processed,
      rawStorageKey: keys.raw,
      mimeType: 'video/mp4',
      durationSeconds: measured.probe.durationSeconds,
      width: measured.probe.width,
      height: measured.probe.height,
      fps: measured.probe.fps,
      aspectRatio,
      generateAudio,
      hasAudio: measured.probe.hasAudio,
      requestedSeconds: durationSeconds,
      bytes: measured.bytes,
      model: model.id,
      prompt,
      references,
    },
    provider: model.provider,
    model: model.id,
    costUsd: clip.costUsd,
  };
}
