import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * ffmpeg and ffprobe: the binaries shipped by @ffmpeg-installer/@ffprobe-installer, or FFMPEG_PATH and
 * FFPROBE_PATH when set (a production image may carry its distribution's build). Each run is a child
 * process killed when the activity is cancelled. A failure's message names the tool and its exit code only;
 * ffmpeg's own diagnosis (which quotes local file paths and its internal addresses) is kept in `stderr`
 * and `reason` for logs, never in the message a run could show.
 */
const require = createRequire(import.meta.url);

export function ffmpegPath(): string {
  return process.env.FFMPEG_PATH || (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
}

export function ffprobePath(): string {
  return process.env.FFPROBE_PATH || (require('@ffprobe-installer/ffprobe') as { path: string }).path;
}

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
