import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EgressRefused, EgressStatusError, egressDownload, egressPolicyFromEnv } from '@atelier/egress';
import { isArtifactFile } from '@atelier/domain/artifact-files';
import { ObjectNotFoundError } from '@atelier/storage';
import { type ToolContext, ToolInputError } from '../../steps/tools.js';
import { MediaToolError, ffmpeg, h264Output, mediaInput } from './ffmpeg.js';
import { inScratch, videoKeys } from './files.js';
import { type MediaProbe, probeMedia, referenceFormatOf } from './probe.js';

/**
 * `buildFilmCut`: clips (by url or artifactId) fetched, each trimmed to its start and seconds, fitted to
 * one frame size and rate — scaled down to fit and letterboxed with black, never stretched — and joined
 * in order, silently, into one MP4. The edit decision list (`segments`) and the length measured on the
 * encoded file (`measuredSeconds`) go into the content; QA compares that to the seconds kept.
 *
 * Clips by url are fetched through the worker's egress policy (@atelier/egress). Run-facing messages name
 * the clip and what went wrong with it; local paths and ffmpeg's diagnosis go to the log only.
 */
export interface ClipRef {
  url?: string;
  artifactId?: string;
  start: number;
  seconds: number;
}

export interface FilmCutSpec {
  clips: ClipRef[];
  width: number;
  height: number;
  fps: number;
}

export interface Segment {
  index: number;
  url: string | null;
  artifactId: string | null;
  start: number;
  seconds: number;
  /** Where the segment begins in the film, by the edit decision list. */
  at: number;
}

const MAX_CLIPS = 50;
/** MEDIA_FORMATS as a person names them. */
const ACCEPTED = 'MP4, QuickTime, Matroska or WebM files';
/** A clip is never larger than this, whatever the egress policy allows. */
const MAX_CLIP_BYTES = 500 * 1024 * 1024;

const bad = (message: string) => new ToolInputError(message);
const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN);
const evenSide = (v: unknown, fallback: number, what: string) => {
  if (v === undefined || v === null) return fallback;
  const n = num(v);
  if (!Number.isInteger(n) || n < 16 || n > 3840 || n % 2 !== 0)
    throw bad(`${what} must be an even whole number of pixels from 16 to 3840`);
  return n;
};

/** Reads the tool input into a spec, naming the clip of any problem. */
export function readFilmCutSpec(input: unknown): FilmCutSpec {
  const record = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  const clips = record.clips;
  if (!Array.isArray(clips) || clips.length === 0) throw bad('needs clips: a non-empty array of { url or artifactId, start, seconds }');
  if (clips.length > MAX_CLIPS) throw bad(`takes at most ${MAX_CLIPS} clips`);
  const refs = clips.map((raw, index): ClipRef => {
    const clip = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    const name = `clip ${index}`;
    const url = typeof clip.url === 'string' && clip.url ? clip.url : undefined;
    const artifactId = typeof clip.artifactId === 'string' && clip.artifactId ? clip.artifactId : undefined;
    if (!url === !artifactId) throw bad(`${name} needs exactly one of url and artifactId`);
    if (url && !/^https?:\/\//i.test(url)) throw bad(`${name}: url must be http or https (${url})`);
    const start = clip.start === undefined ? 0 : num(clip.start);
    const seconds = num(clip.seconds);
    if (!Number.isFinite(start) || start < 0) throw bad(`${name}: start must be zero or more seconds`);
    if (!Number.isFinite(seconds) || seconds <= 0)
      throw bad(`${name}: seconds must be more than zero (a zero-length segment keeps nothing)`);
    if (seconds > 600) throw bad(`${name}: seconds may be at most 600`);
    return { ...(url ? { url } : { artifactId }), start, seconds };
  });
  const fps = record.fps === undefined || record.fps === null ? 24 : num(record.fps);
  if (!Number.isInteger(fps) || fps < 1 || fps > 60) throw bad('fps must be a whole number from 1 to 60');
  return { clips: refs, width: evenSide(record.width, 640, 'width'), height: evenSide(record.height, 360, 'height'), fps };
}

/** The edit decision list: each segment starts where the previous one's kept seconds end. */
export function editDecisionList(clips: ClipRef[]): Segment[] {
  let at = 0;
  return clips.map((clip, index) => {
    const segment = {
      index,
      url: clip.url ?? null,
      artifactId: clip.artifactId ?? null,
      start: clip.start,
      seconds: clip.seconds,
      at: Math.round(at * 1000) / 1000,
    };
    at += clip.seconds;
    return segment;
  });
}

/** A clip in scratch and the container ffprobe read it as, which ffmpeg opens it as (mediaInput). */
export interface ClipFile {
  file: string;
  format: string;
}

/** The ffmpeg arguments of the cut: one input per clip, trimmed, letterboxed, at one rate, concatenated. */
export function filmCutArgs(clips: ClipFile[], spec: FilmCutSpec, out: string): string[] {
  const { width: w, height: h, fps } = spec;
  const chains = spec.clips.map(
    (clip, i) =>
      // fps before trim: this ffmpeg build adds frames when the rate changes after trimming.
      `[${i}:v]fps=${fps},trim=start=${clip.start}:duration=${clip.seconds},setpts=PTS-STARTPTS,` +
      `scale=${w}:${h}:force_original_aspect_ratio=decrease,pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2:color=black,setsar=1,format=yuv420p[v${i}]`,
  );
  const joined = `${spec.clips.map((_, i) => `[v${i}]`).join('')}concat=n=${spec.clips.length}:v=1:a=0[out]`;
  return [
    ...clips.flatMap((c) => mediaInput(c.file, c.format)),
    '-filter_complex',
    [...chains, joined].join(';'),
    '-map',
    '[out]',
    '-an',
    ...h264Output(fps),
    '-movflags',
    '+faststart',
    '-map_metadata',
    '-1',
    out,
  ];
}

/**
 * Downloads a clip under the worker's egress policy. The origin failing (5xx) is retryable; anything the
 * policy refuses, and any other answer, fails the step with a message that says what was refused.
 */
async function fetchClip(url: string, file: string, name: string, ctx: ToolContext): Promise<void> {
  const policy = ctx.egress ?? egressPolicyFromEnv({});
  try {
    await egressDownload(url, file, { signal: ctx.signal }, { ...policy, maxBytes: Math.min(policy.maxBytes, MAX_CLIP_BYTES) });
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    if (err instanceof EgressStatusError) {
      if (err.status >= 500) throw new Error(`${name}: ${err.host} answered HTTP ${err.status}`);
      throw bad(`${name} could not be fetched: HTTP ${err.status}`);
    }
    if (err instanceof EgressRefused) {
      ctx.logger?.warn({ url, reason: err.reason, detail: err.detail, cause: err.cause }, 'clip fetch refused by the egress policy');
      throw bad(`${name} could not be fetched: ${err.message}`);
    }
    // Writing the scratch file failed: the worker's trouble, retried, with its paths kept to the log.
    ctx.logger?.warn({ err, url }, 'clip could not be written to scratch');
    throw new Error(`${name} could not be stored for the cut`);
  }
}

async function artifactClip(ctx: ToolContext, artifactId: string, file: string, name: string): Promise<void> {
  const artifact = await ctx.findArtifact?.(artifactId);
  if (!artifact) throw bad(`${name}: artifact ${artifactId} not found in this workspace`);
  if (artifact.artifactClass !== 'video') throw bad(`${name}: artifact ${artifactId} is ${artifact.artifactClass}, not a video`);
  // Only a file of the artifact's own (domain/artifact-files.ts): content that names another's is refused.
  const key = artifact.content.storageKey;
  if (!isArtifactFile(artifact, key)) throw bad(`${name}: artifact ${artifactId} records no file of its own`);
  try {
    await writeFile(file, await ctx.storage.get(key));
  } catch (err) {
    if (err instanceof ObjectNotFoundError) throw bad(`${name}: the file of artifact ${artifactId} is missing`);
    throw err;
  }
}

export interface FilmCut {
  type: 'video';
  storageKey: string;
  mimeType: 'video/mp4';
  durationSeconds: number;
  measuredSeconds: number;
  keptSeconds: number;
  width: number;
  height: number;
  fps: number;
  aspectRatio: string;
  generateAudio: false;
  hasAudio: boolean;
  bytes: number;
  segments: Segment[];
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

export async function buildFilmCut(input: unknown, ctx: ToolContext): Promise<FilmCut> {
  const spec = readFilmCutSpec(input);
  const segments = editDecisionList(spec.clips);
  return inScratch(async (dir) => {
    const files: ClipFile[] = [];
    for (const [i, clip] of spec.clips.entries()) {
      const name = `clip ${i} (${clip.url ?? clip.artifactId})`;
      const file = path.join(dir, `clip-${i}`);
      if (clip.url) await fetchClip(clip.url, file, name, ctx);
      else await artifactClip(ctx, clip.artifactId!, file, name);
      let probe: MediaProbe;
      try {
        probe = await probeMedia(file, ctx.signal);
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        // ffprobe's own words quote the scratch path and its internals ([mov @ 0x…]): logged, not shown.
        ctx.logger?.warn({ err, clip: i }, 'clip could not be probed');
        if (!(err instanceof MediaToolError)) throw bad(`${name} cannot be decoded as video: ${(err as Error).message}`);
        const kind = await referenceFormatOf(file);
        throw bad(`${name} cannot be decoded as video: ${kind ? `it is ${kind}; ` : ''}clips must be ${ACCEPTED}`);
      }
      if (clip.start >= probe.durationSeconds) throw bad(`${name} starts at ${clip.start}s but lasts only ${probe.durationSeconds}s`);
      files.push({ file, format: probe.format });
    }
    const out = path.join(dir, 'cut.mp4');
    try {
      await ffmpeg(filmCutArgs(files, spec, out), ctx.signal);
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      ctx.logger?.warn({ err }, 'film cut encode failed');
      throw bad(`could not encode the cut (${(err as Error).message})`);
    }
    // The cut is encoded for streaming (index first): it is the processed file; its sources are the clips.
    const measured = await probeMedia(out, ctx.signal);
    const keys = videoKeys(ctx.artifactType, ctx.artifactId);
    const bytes = await readFile(out);
    await ctx.storage.put(keys.processed, bytes, 'video/mp4');
    const divisor = gcd(measured.width, measured.height);
    return {
      type: 'video',
      storageKey: keys.processed,
      mimeType: 'video/mp4',
      durationSeconds: measured.durationSeconds,
      measuredSeconds: measured.durationSeconds,
      keptSeconds: Math.round(segments.reduce((s, g) => s + g.seconds, 0) * 1000) / 1000,
      width: measured.width,
      height: measured.height,
      fps: measured.fps,
      aspectRatio: `${measured.width / divisor}:${measured.height / divisor}`,
      generateAudio: false,
      hasAudio: measured.hasAudio,
      bytes: bytes.length,
      segments,
    };
  });
}
