import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { cpuBound } from '../cpu-slots.js';

/**
 * ffmpeg and ffprobe: FFMPEG_PATH and FFPROBE_PATH when set; else the distribution's maintained build
 * (/usr/bin, Debian's `apt-get install ffmpeg`, what the production image carries) when installed; else the
 * binaries shipped by @ffmpeg-installer/@ffprobe-installer (a 2018 ffmpeg). Each run is a child process
 * killed when the activity is cancelled, started once a media slot is free (cpu-slots.ts). A failure's message names the tool and its exit code only;
 * ffmpeg's own diagnosis (which quotes local file paths and its internal addresses) is kept in `stderr`
 * and `reason` for logs, never in the message a run could show.
 */
const require = createRequire(import.meta.url);

const SYSTEM = { ffmpeg: '/usr/bin/ffmpeg', ffprobe: '/usr/bin/ffprobe' } as const;
const installed = new Map<string, boolean>();
const systemBuild = (tool: keyof typeof SYSTEM): string | undefined => {
  const file = SYSTEM[tool];
  if (!installed.has(file)) installed.set(file, existsSync(file));
  return installed.get(file) ? file : undefined;
};
const bundled = {
  ffmpeg: () => (require('@ffmpeg-installer/ffmpeg') as { path: string }).path,
  ffprobe: () => (require('@ffprobe-installer/ffprobe') as { path: string }).path,
};

export function ffmpegPath(): string {
  return process.env.FFMPEG_PATH || systemBuild('ffmpeg') || bundled.ffmpeg();
}

export function ffprobePath(): string {
  return process.env.FFPROBE_PATH || systemBuild('ffprobe') || bundled.ffprobe();
}

/** The builds on this machine: the npm packages' always, the distribution's when installed (for tests of both). */
export function installedBuilds(): Array<{ name: string; ffmpeg: string; ffprobe: string }> {
  const builds = [{ name: 'npm', ffmpeg: bundled.ffmpeg(), ffprobe: bundled.ffprobe() }];
  const ffmpeg = systemBuild('ffmpeg');
  const ffprobe = systemBuild('ffprobe');
  if (ffmpeg && ffprobe) builds.push({ name: 'system', ffmpeg, ffprobe });
  return builds;
}

/**
 * The containers media from outside (clips by url, provider renders) may be opened as: ones that hold
 * their own streams. ffmpeg picks a demuxer by the bytes, and some (HLS and DASH playlists, concat scripts,
 * image sequences) open the files and URLs the bytes name — an extensionless playlist listing an absolute
 * path makes ffmpeg read a local file into the cut. So a file is probed with only these demuxers and only
 * the file protocol, and ffmpeg then opens it as the one demuxer the probe found (mov's external data
 * references, `enable_drefs`, stay off as they are by default). Both builds take these options.
 */
export const MEDIA_FORMATS: readonly string[] = Object.freeze(['mov', 'mp4', 'm4a', '3gp', '3g2', 'mj2', 'matroska', 'webm']);
const RESTRICTED = ['-protocol_whitelist', 'file', '-format_whitelist', MEDIA_FORMATS.join(',')];

/** ffprobe's input options for a file from outside: MEDIA_FORMATS only, from this file only. */
export const probeInput = (file: string): string[] => [...RESTRICTED, '-i', file];

/** ffmpeg's input options for a file ffprobe read as `format` (one of MEDIA_FORMATS): that demuxer, that file. */
export function mediaInput(file: string, format: string): string[] {
  if (!MEDIA_FORMATS.includes(format)) throw new Error(`${format} is not a container media is opened as`);
  return [...RESTRICTED, '-f', format, '-i', file];
}

/**
 * The video encoding every clip the engine writes gets: H.264 in yuv420p (what every player decodes) at a
 * constant frame rate, so clips cut or generated here join and play alike.
 */
export const h264Output = (fps: number): string[] => ['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-r', String(fps)];

export class MediaToolError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
    /** The last lines of the tool's diagnosis, for logs. */
    readonly reason = '',
  ) {
    super(message);
  }
}

export interface ToolRun {
  stdout: string;
  stderr: string;
}

function run(binary: string, args: string[], signal?: AbortSignal): Promise<ToolRun> {
  return cpuBound(() => spawnTool(binary, args, signal), signal).catch((err) => {
    if (signal?.aborted && !(err instanceof MediaToolError)) throw new MediaToolError('cancelled before it started', '');
    throw err;
  });
}

function spawnTool(binary: string, args: string[], signal?: AbortSignal): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new MediaToolError('cancelled before it started', ''));
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    // Keep only the tail: a long encode prints progress for every frame.
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-8_000)));
    const abort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', abort, { once: true });
    child.on('error', (err) => {
      signal?.removeEventListener('abort', abort);
      reject(new MediaToolError(`${path.basename(binary)} could not start`, stderr, err.message));
    });
    child.on('close', (code) => {
      signal?.removeEventListener('abort', abort);
      if (signal?.aborted) return reject(new MediaToolError('cancelled', stderr));
      if (code === 0) return resolve({ stdout, stderr });
      const reason = stderr.trim().split('\n').filter(Boolean).slice(-3).join(' | ');
      reject(new MediaToolError(`${path.basename(binary)} exited with code ${code}`, stderr, reason));
    });
  });
}

export const ffmpeg = (args: string[], signal?: AbortSignal) => run(ffmpegPath(), ['-hide_banner', '-nostdin', '-y', ...args], signal);
export const ffprobe = (args: string[], signal?: AbortSignal) => run(ffprobePath(), ['-v', 'error', ...args], signal);
