import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ffmpeg, h264Output } from '../../media/video/ffmpeg.js';
import { seededRandom } from '../seeded-random.js';

/**
 * The local video model renders a real, deterministic H.264 MP4 with ffmpeg: a backdrop and two shapes
 * whose colours, sizes and paths follow from the prompt and seed, moving over the requested duration at
 * the requested size and rate. With `generateAudio`, a tone whose pitch follows from the prompt is muxed
 * in as AAC; without it, the file has no audio stream at all.
 */
export interface LocalClipRequest {
  prompt: string;
  seed: string;
  width: number;
  height: number;
  fps: number;
  durationSeconds: number;
  generateAudio: boolean;
  signal?: AbortSignal;
}

const hex = (random: () => number) =>
  `0x${Math.floor(random() * 0xffffff)
    .toString(16)
    .padStart(6, '0')}`;
const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

export function localClipArgs(req: LocalClipRequest, out: string): string[] {
  const random = seededRandom(`${req.prompt}\u0000${req.seed}`);
  const { width: w, height: h, fps, durationSeconds: d } = req;
  const source = (color: string, sw: number, sh: number) => [
    '-f',
    'lavfi',
    '-i',
    `color=c=${color}:s=${even(sw)}x${even(sh)}:r=${fps}:d=${d}`,
  ];
  const shape = (index: number) => {
    const speed = (1 + random() * 3).toFixed(3);
    const phase = (random() * Math.PI * 2).toFixed(3);
    return `overlay=x='(W-w)*(0.5+0.45*sin(t*${speed}+${phase}))':y='(H-h)*(0.5+0.45*cos(t*${(1 + random() * 2).toFixed(3)}+${index}))':eval=frame`;
  };
  const args = [
    ...source(hex(random), w, h),
    ...source(hex(random), w * (0.15 + random() * 0.2), h * (0.15 + random() * 0.2)),
    ...source(hex(random), w * (0.08 + random() * 0.15), h * (0.2 + random() * 0.3)),
  ];
  const filter = `[0][1]${shape(1)}[a];[a][2]${shape(2)},format=yuv420p[v]`;
  if (req.generateAudio)
    args.push('-f', 'lavfi', '-i', `sine=frequency=${Math.round(220 + random() * 660)}:sample_rate=48000:duration=${d}`);
  args.push('-filter_complex', filter, '-map', '[v]');
  if (req.generateAudio) args.push('-map', '3:a', '-c:a', 'aac', '-b:a', '96k');
  args.push(...h264Output(fps), '-t', String(d), '-map_metadata', '-1', '-fflags', '+bitexact', out);
  return args;
}

export async function renderLocalClip(req: LocalClipRequest): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'atelier-clip-'));
  try {
    const out = path.join(dir, 'clip.mp4');
    await ffmpeg(localClipArgs(req, out), req.signal);
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
