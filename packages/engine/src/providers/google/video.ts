import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { roundUsd } from '@atelier/domain';
import { ffmpeg, mediaInput } from '../../media/video/ffmpeg.js';
import { inScratch } from '../../media/video/files.js';
import { probeMedia } from '../../media/video/probe.js';
import {
  type GeneratedVideo,
  type JobProgress,
  type JobProvider,
  PermanentProviderError,
  TransientProviderError,
  type VideoRequest,
} from '../types.js';
import { type GoogleOptions, callGoogle, downloadFile, predict, withoutKey } from './http.js';
import { apiModel, nearestAspectRatio } from './names.js';

/** A google.longrunning.Operation as the Gemini API returns it for Veo. */
interface Operation {
  name?: string;
  done?: boolean;
  error?: { code?: number; message?: string };
  response?: {
    generateVideoResponse?: {
      generatedSamples?: Array<{ video?: { uri?: string } }>;
      raiMediaFilteredCount?: number;
      raiMediaFilteredReasons?: string[];
    };
  };
}

/**
 * google.rpc.Code values of a failed operation worth running again (DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED,
 * ABORTED, INTERNAL, UNAVAILABLE); the rest (INVALID_ARGUMENT, PERMISSION_DENIED...) would fail again.
 */
const TRANSIENT_CODES = new Set([4, 8, 10, 13, 14]);

/** Operation names are `models/<model>/operations/<id>`: path segments, not free text. */
const OPERATION_NAME = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

function operationPath(jobId: string): string {
  if (!OPERATION_NAME.test(jobId)) throw new PermanentProviderError(`${jobId.slice(0, 100)} is not a Gemini API operation name`);
  return `/v1beta/${jobId}`;
}

/**
 * The clip as delivered, and the seconds it lasts. Veo 3 on the Gemini API always renders a soundtrack
 * (the API has no switch for it), so when none was asked the audio stream is dropped, without re-encoding.
 */
async function deliveredClip(bytes: Buffer, req: VideoRequest): Promise<{ bytes: Buffer; seconds?: number }> {
  return inScratch(async (dir) => {
    const raw = path.join(dir, 'veo.mp4');
    await writeFile(raw, bytes);
    // Bytes that do not probe are returned as they are: the video step probes them again and refuses them.
    const probe = await probeMedia(raw, req.signal).catch(() => undefined);
    if (!probe) return { bytes };
    if (!probe.hasAudio || req.generateAudio) return { bytes, seconds: probe.durationSeconds };
    const silent = path.join(dir, 'silent.mp4');
    await ffmpeg([...mediaInput(raw, probe.format), '-map', '0:v', '-c', 'copy', '-an', silent], req.signal);
    return { bytes: await readFile(silent), seconds: probe.durationSeconds };
  });
}

/**
 * Veo's long-running operations as jobs: submit is `predictLongRunning` (the paid act; its operation name
 * is the job id), check reads the operation and downloads the finished clip, cancel asks the operation to
 * stop. Priced per second of the clip as measured in the file (Veo bills whole seconds); when the file
 * cannot be measured, the seconds asked for, since Veo's answer reports no duration.
 */
export function createVeoJobs(opts: GoogleOptions): JobProvider<VideoRequest, GeneratedVideo> {
  const timeoutMs = opts.videoTimeoutMs ?? 120_000;
  return {
    async submit(req) {
      if (req.generateAudio && !req.model.capabilities.includes('audio'))
        throw new PermanentProviderError(`${req.model.id} renders no audio; ask without generateAudio or use a model that has it`);
      // The API says which ratios and durations each Veo model renders: what was asked is passed on as asked.
      const parameters = { aspectRatio: nearestAspectRatio(req.width, req.height), durationSeconds: req.durationSeconds };
      const operation = (await predict(opts, req, 'predictLongRunning', parameters, timeoutMs)) as Operation;
      if (typeof operation.name !== 'string' || !OPERATION_NAME.test(operation.name))
        throw new TransientProviderError('Google accepted the video without naming its operation');
      return { jobId: operation.name };
    },

    async check(req, jobId): Promise<JobProgress<GeneratedVideo>> {
      const operation = (await callGoogle(opts, {
        method: 'GET',
        path: operationPath(jobId),
        model: apiModel(req.model.id),
        timeoutMs,
        signal: req.signal,
      })) as Operation;
      if (!operation.done) return { state: 'pending' };
      if (operation.error) {
        const message = withoutKey(opts, `Veo failed (code ${operation.error.code ?? '?'}): ${operation.error.message ?? 'no message'}`);
        const error = TRANSIENT_CODES.has(operation.error.code ?? 13)
          ? new TransientProviderError(message)
          : new PermanentProviderError(message);
        return { state: 'failed', error };
      }
      const answer = operation.response?.generateVideoResponse;
      const uri = answer?.generatedSamples?.find((s) => typeof s.video?.uri === 'string')?.video?.uri;
      if (!uri) {
        const reasons = answer?.raiMediaFilteredReasons?.join('; ');
        const filtered = (answer?.raiMediaFilteredCount ?? 0) > 0 || reasons;
        return {
          state: 'failed',
          error: filtered
            ? new PermanentProviderError(`Veo filtered the video${reasons ? `: ${reasons}` : ''}`)
            : new TransientProviderError('Veo finished without a video'),
        };
      }
      const clip = await deliveredClip(await downloadFile(opts, uri, timeoutMs, req.signal), req);
      const seconds = clip.seconds !== undefined ? Math.max(1, Math.round(clip.seconds)) : req.durationSeconds;
      return {
        state: 'succeeded',
        result: { bytes: clip.bytes, mimeType: 'video/mp4', costUsd: roundUsd((req.model.pricing.per_second ?? 0) * seconds) },
      };
    },

    async cancel({ jobId, signal }) {
      try {
        await callGoogle(opts, { method: 'POST', path: `${operationPath(jobId)}:cancel`, body: {}, timeoutMs, signal });
      } catch (err) {
        // An operation that already ended, or one the API cannot cancel, is left as it is.
        if (!(err instanceof PermanentProviderError)) throw err;
      }
    },
  };
}
