import type { QaCheck } from './qa-check.js';

/**
 * QA of video artifacts (clip, film-cut), judged on what the media pipeline measured with ffprobe:
 * - format: an MP4;
 * - dimensions: even sides from 16 to 3840 pixels (H.264 in 4:2:0 needs even sides);
 * - frame-rate: 1 to 60 frames per second;
 * - duration: a clip lasts what was asked (within half a second); a film cut lasts at least the seconds
 *   its edit decision list keeps (within a tenth of a second or one frame) — a shorter film means a clip
 *   ran out before its segment ended, and is held for review;
 * - audio: an audio track exactly when one was asked (a film cut is always silent).
 */
export const VIDEO_MAX_SIDE = 3840;
const CLIP_TOLERANCE_SECONDS = 0.5;
const CUT_TOLERANCE_SECONDS = 0.1;

const check = (id: string, label: string, ok: boolean, detail: string): QaCheck => ({ id, label, status: ok ? 'pass' : 'fail', detail });
const isSide = (v: unknown): v is number =>
  Number.isInteger(v) && (v as number) >= 16 && (v as number) <= VIDEO_MAX_SIDE && (v as number) % 2 === 0;
const seconds = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function commonChecks(content: Record<string, unknown>): QaCheck[] {
  const { width, height, fps } = content;
  return [
    check('format', 'The file is an MP4', content.mimeType === 'video/mp4', String(content.mimeType ?? 'no mime type')),
    check(
      'dimensions',
      'Width and height are even, 16 to 3840 pixels',
      isSide(width) && isSide(height),
      `${String(width)}x${String(height)}`,
    ),
    check('frame-rate', 'Frame rate is 1 to 60 fps', typeof fps === 'number' && fps >= 1 && fps <= 60, `${String(fps)} fps`),
    check(
      'audio',
      'Audio present exactly when asked for',
      (content.hasAudio === true) === (content.generateAudio === true),
      `generateAudio ${String(content.generateAudio === true)}, audio track ${content.hasAudio === true ? 'present' : 'absent'}`,
    ),
  ];
}

export function clipQaChecks(content: Record<string, unknown>): QaCheck[] {
  const measured = seconds(content.durationSeconds);
  const asked = seconds(content.requestedSeconds);
  const ok = measured !== undefined && (asked === undefined || Math.abs(measured - asked) <= CLIP_TOLERANCE_SECONDS);
  return [
    ...commonChecks(content),
    check(
      'duration',
      'The clip lasts as long as asked',
      ok,
      asked === undefined ? `${String(measured)} s` : `${String(measured)} s measured, ${asked} s asked`,
    ),
  ];
}

export function filmCutQaChecks(content: Record<string, unknown>): QaCheck[] {
  const measured = seconds(content.measuredSeconds);
  const kept = seconds(content.keptSeconds);
  const fps = typeof content.fps === 'number' && content.fps > 0 ? content.fps : 24;
  const slack = Math.max(CUT_TOLERANCE_SECONDS, 1 / fps);
  const ok = measured !== undefined && kept !== undefined && measured + slack >= kept;
  return [
    ...commonChecks(content),
    check(
      'duration',
      'The film is as long as the seconds it keeps',
      ok,
      measured !== undefined && kept !== undefined
        ? `${measured} s measured, ${kept} s kept${ok ? '' : `: ${(kept - measured).toFixed(3)} s short — a clip ended before its segment`}`
        : 'length not measured',
    ),
  ];
}

/** The rules, by artifact type, that qa.ts registers. */
export const VIDEO_QA_RULES = {
  clip: clipQaChecks,
  'film-cut': filmCutQaChecks,
} as const;
