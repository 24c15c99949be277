import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filmCutArgs, readFilmCutSpec } from '../src/media/video/film-cut.js';
import { MEDIA_FORMATS, MediaToolError, ffmpeg, installedBuilds, mediaInput } from '../src/media/video/ffmpeg.js';
import { probeMedia, referenceFormatOf } from '../src/media/video/probe.js';

/**
 * How ffmpeg and ffprobe open media from outside, with every build on this machine (the npm packages'
 * 2018 ffmpeg always; Debian's when installed), chosen through FFMPEG_PATH / FFPROBE_PATH. The attack: a
 * "clip" whose bytes are an HLS playlist naming a local file (a magenta marker video the test writes).
 * Opened as ffmpeg guesses, it pulls the marker into the cut; opened the way the cut opens clips, it is
 * refused and the marker's pixels never reach an output.
 */
let scratch: string;
let marker: string;
let playlist: string;
let good: string;

/** The RGB of the first frame of `file`, decoded by the build under test. */
async function firstPixel(file: string): Promise<number[]> {
  const png = path.join(scratch, `${Math.random().toString(36).slice(2)}.rgb`);
  await ffmpeg([...mediaInput(file, 'mov'), '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', png]);
  return [...(await readFile(png)).subarray(0, 3)];
}
const magenta = (rgb: number[]) => rgb[0]! > 200 && rgb[1]! < 60 && rgb[2]! > 200;

function withBuild(build: { ffmpeg: string; ffprobe: string }, work: () => Promise<void>) {
  return async () => {
    const saved = { ffmpeg: process.env.FFMPEG_PATH, ffprobe: process.env.FFPROBE_PATH };
    process.env.FFMPEG_PATH = build.ffmpeg;
    process.env.FFPROBE_PATH = build.ffprobe;
    try {
      await work();
    } finally {
      for (const [key, value] of [
        ['FFMPEG_PATH', saved.ffmpeg],
        ['FFPROBE_PATH', saved.ffprobe],
      ] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  };
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'media-input-test-'));
  marker = path.join(scratch, 'marker.ts');
  good = path.join(scratch, 'good.mp4');
  const color = (c: string, out: string, format: string) =>
    ffmpeg(['-f', 'lavfi', '-i', `color=c=${c}:s=64x64:r=10:d=2`, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-f', format, out]);
  await color('magenta', marker, 'mpegts');
  await color('green', good, 'mp4');
  // No extension, as a clip lands in scratch: nothing but the bytes tells ffmpeg what it is.
  playlist = path.join(scratch, 'clip-1');
  await writeFile(playlist, `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n${marker}\n#EXT-X-ENDLIST\n`);
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('opening media from outside', () => {
  it('names each input by the probed container, from the file protocol only, in the cut', () => {
    const spec = readFilmCutSpec({
      clips: [
        { url: 'http://x/a', seconds: 1 },
        { url: 'http://x/b', seconds: 1 },
      ],
    });
    const args = filmCutArgs(
      [
        { file: '/s/clip-0', format: 'mov' },
        { file: '/s/clip-1', format: 'matroska' },
      ],
      spec,
      '/s/out.mp4',
    );
    const inputs = args.flatMap((a, i) => (a === '-i' ? [args.slice(i - 6, i + 2)] : []));
    const whitelist = MEDIA_FORMATS.join(',');
    expect(inputs).toEqual([
      ['-protocol_whitelist', 'file', '-format_whitelist', whitelist, '-f', 'mov', '-i', '/s/clip-0'],
      ['-protocol_whitelist', 'file', '-format_whitelist', whitelist, '-f', 'matroska', '-i', '/s/clip-1'],
    ]);
    expect(() => mediaInput('/s/clip-0', 'hls')).toThrow('hls is not a container');
  });

  for (const build of installedBuilds()) {
    describe(`with the ${build.name} build`, () => {
      it(
        'reads the playlist’s local file when left to guess (the attack is real here), and never when opened as the cut opens clips',
        withBuild(build, async () => {
          const spec = readFilmCutSpec({ clips: [{ url: 'http://x/a', seconds: 1 }], width: 64, height: 64, fps: 10 });
          // Left to guess: the marker's magenta comes out.
          const guessed = path.join(scratch, `guessed-${build.name}.mp4`);
          const opened = mediaInput(playlist, 'mov');
          const bare = ['-i', playlist, ...filmCutArgs([{ file: playlist, format: 'mov' }], spec, guessed).slice(opened.length)];
          await ffmpeg(bare);
          expect(magenta(await firstPixel(guessed))).toBe(true);

          // As the cut opens it: ffprobe refuses the playlist, and so does ffmpeg even when told a container.
          await expect(probeMedia(playlist)).rejects.toBeInstanceOf(MediaToolError);
          expect(await referenceFormatOf(playlist)).toBe('an HLS playlist (m3u8)');
          const hardened = path.join(scratch, `hardened-${build.name}.mp4`);
          for (const format of ['mov', 'matroska']) {
            await expect(ffmpeg(filmCutArgs([{ file: playlist, format }], spec, hardened))).rejects.toBeInstanceOf(MediaToolError);
            await expect(stat(hardened)).rejects.toThrow();
          }
          // An ordinary clip is probed and cut as before.
          const probe = await probeMedia(good);
          expect(probe).toMatchObject({ format: 'mov', width: 64, height: 64 });
          const cut = path.join(scratch, `cut-${build.name}.mp4`);
          await ffmpeg(filmCutArgs([{ file: good, format: probe.format }], spec, cut));
          expect((await probeMedia(cut)).durationSeconds).toBeCloseTo(1, 0);
          expect(magenta(await firstPixel(cut))).toBe(false);
        }),
      );
    });
  }
});
