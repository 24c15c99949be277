import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ffmpeg, ffmpegPath, installedBuilds } from '@atelier/engine/media/video/ffmpeg';
import { probeMedia } from '@atelier/engine/media/video/probe';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';

/**
 * Video end to end on the local provider, judged on the bytes: MP4 boxes, ffprobe's reading of the
 * stored files, pixels of frames grabbed from the cut, and downloads through the gateway.
 */
let h: Harness;
let user: TestUser;
let loopback: Server;
let loopbackUrl: string;
let scratch: string;
/** What the loopback clip host serves, by path, besides a text file posing as a video. */
const served = new Map<string, Buffer>();

beforeAll(async () => {
  h = await startHarness();
  user = await registerUser(h);
  scratch = await mkdtemp(path.join(tmpdir(), 'video-test-'));
  // A stand-in for a remote clip host.
  loopback = createServer((req, res) => {
    const body = served.get(req.url ?? '');
    if (body) {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.end(body);
    } else if (req.url === '/not-a-video.mp4') {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.end('this is plain text, not a movie');
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => loopback.listen(0, '127.0.0.1', resolve));
  loopbackUrl = `http://127.0.0.1:${(loopback.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => loopback?.close(resolve));
  await rm(scratch, { recursive: true, force: true });
  await h?.stop();
});

async function run(templateId: string, intake: Record<string, unknown>) {
  const created = await h.request('POST', '/v1/runs', { token: user.token, body: { templateId, intake } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return waitForRun(h, user.token, created.body.id, undefined, 90_000);
}
const artifactOf = async (r: any) => (await h.request('GET', `/v1/artifacts/${r.artifactId}`, { token: user.token })).body;

/** Writes a stored file to scratch so ffprobe and ffmpeg can read it. */
async function stored(key: string): Promise<{ file: string; bytes: Buffer }> {
  const bytes = await h.storage.get(key);
  const file = path.join(scratch, `${Math.random().toString(36).slice(2)}.mp4`);
  await writeFile(file, bytes);
  return { file, bytes };
}

function expectMp4(bytes: Buffer) {
  expect(bytes.subarray(4, 8).toString('ascii')).toBe('ftyp');
}

/** The RGB of a frame at `seconds`, decoded to raw pixels. */
async function frameAt(file: string, seconds: number) {
  const png = path.join(scratch, `${Math.random().toString(36).slice(2)}.png`);
  await ffmpeg(['-ss', String(seconds), '-i', file, '-frames:v', '1', png]);
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => {
    const i = (y * info.width + x) * 3;
    return [data[i]!, data[i + 1]!, data[i + 2]!];
  };
  return { width: info.width, height: info.height, at, data };
}
const brightness = (rgb: number[]) => Math.max(...rgb);

describe('generated clips', () => {
  it('renders a real MP4 at the requested shape and length, audio only when asked, measured with ffprobe', async () => {
    const square = await run('generate-video-clip', {
      prompt: 'a paper boat on a pond',
      durationSeconds: 2,
      aspectRatio: '1:1',
      generateAudio: true,
      references: ['https://example.com/moodboard.png'],
    });
    expect(square.status).toBe('completed');
    const artifact = await artifactOf(square);
    expect(artifact).toMatchObject({ artifactClass: 'video', artifactType: 'clip', qa: { status: 'passed' } });
    expect(artifact.content).toMatchObject({
      type: 'video',
      mimeType: 'video/mp4',
      width: 480,
      height: 480,
      fps: 24,
      aspectRatio: '1:1',
      generateAudio: true,
      references: ['https://example.com/moodboard.png'],
      storageKey: `artifacts/clip/${square.artifactId}/processed.mp4`,
      rawStorageKey: `artifacts/clip/${square.artifactId}/raw.mp4`,
    });
    expect(artifact.content.prompt).toEqual(expect.any(String));
    const processed = await stored(artifact.content.storageKey);
    expectMp4(processed.bytes);
    expectMp4((await stored(artifact.content.rawStorageKey)).bytes);
    const probe = await probeMedia(processed.file);
    expect(probe).toMatchObject({ width: 480, height: 480, fps: 24, videoCodec: 'h264', hasAudio: true });
    expect(probe.durationSeconds).toBeGreaterThan(1.9);
    expect(probe.durationSeconds).toBeLessThan(2.2);
    expect(artifact.content.durationSeconds).toBe(probe.durationSeconds);

    const wide = await run('generate-video-clip', { prompt: 'a lighthouse at dusk', durationSeconds: 1 });
    const wideArtifact = await artifactOf(wide);
    const wideProbe = await probeMedia((await stored(wideArtifact.content.storageKey)).file);
    expect(wideProbe).toMatchObject({ width: 640, height: 360, hasAudio: false });
    expect(wideArtifact.content).toMatchObject({ generateAudio: false, aspectRatio: '16:9', durationSeconds: wideProbe.durationSeconds });
    // Different prompts, visibly different pictures.
    const a = await frameAt(processed.file, 0.5);
    const b = await frameAt((await stored(wideArtifact.content.storageKey)).file, 0.5);
    expect(a.at(2, 2)).not.toEqual(b.at(2, 2));
  });

  it('serves the clip through the gateway with its type and byte ranges, as players need', async () => {
    const clip = await run('generate-video-clip', { prompt: 'rain on a window', durationSeconds: 1, aspectRatio: '9:16' });
    const artifact = await artifactOf(clip);
    const whole = await fetch(artifact.content.url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    const bytes = Buffer.from(await whole.arrayBuffer());
    expectMp4(bytes);
    const ranged = await fetch(artifact.content.url, { headers: { range: 'bytes=4-11' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 4-11/${bytes.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).toString('ascii', 0, 4)).toBe('ftyp');
  });
});

describe('film cuts', () => {
  it('trims, letterboxes and joins clips by url and by artifact id, recording the edit decision list', async () => {
    const wide = await run('generate-video-clip', { prompt: 'waves rolling in', durationSeconds: 3, aspectRatio: '16:9' });
    const square = await run('generate-video-clip', {
      prompt: 'a spinning top',
      durationSeconds: 3,
      aspectRatio: '1:1',
      generateAudio: true,
    });
    const wideUrl = (await artifactOf(wide)).content.url;
    const cut = await run('build-film-cut', {
      clips: [
        { url: wideUrl, start: 0.5, seconds: 1.5 },
        { artifactId: square.artifactId, start: 1, seconds: 1.5 },
      ],
      width: 320,
      height: 180,
      fps: 25,
    });
    expect(cut.status).toBe('completed');
    const artifact = await artifactOf(cut);
    expect(artifact).toMatchObject({ artifactClass: 'video', artifactType: 'film-cut', qa: { status: 'passed' } });
    expect(artifact.content).toMatchObject({
      width: 320,
      height: 180,
      fps: 25,
      aspectRatio: '16:9',
      generateAudio: false,
      keptSeconds: 3,
      segments: [
        { index: 0, url: wideUrl, artifactId: null, start: 0.5, seconds: 1.5, at: 0 },
        { index: 1, url: null, artifactId: square.artifactId, start: 1, seconds: 1.5, at: 1.5 },
      ],
    });
    const film = await stored(artifact.content.storageKey);
    expectMp4(film.bytes);
    const probe = await probeMedia(film.file);
    expect(probe).toMatchObject({ width: 320, height: 180, fps: 25, hasAudio: false });
    expect(Math.abs(probe.durationSeconds - 3)).toBeLessThan(0.1);
    expect(artifact.content.measuredSeconds).toBe(probe.durationSeconds);

    // The square clip sits in the middle of the wide frame with black bars left and right; never stretched.
    const boxed = await frameAt(film.file, 2.2);
    for (const y of [10, 90, 170]) {
      expect(brightness(boxed.at(2, y)), `left bar at y=${y}`).toBeLessThan(24);
      expect(brightness(boxed.at(317, y)), `right bar at y=${y}`).toBeLessThan(24);
    }
    const barWidth = (320 - 180) / 2;
    let litInside = 0;
    for (let x = barWidth + 4; x < 320 - barWidth - 4; x += 8)
      if (brightness(boxed.at(x, 90)) > 24 || brightness(boxed.at(x, 20)) > 24) litInside++;
    expect(litInside).toBeGreaterThan(0);
    // The wide clip fills the frame edge to edge.
    const full = await frameAt(film.file, 0.7);
    const source = await frameAt((await stored((await artifactOf(wide)).content.storageKey)).file, 1.2);
    expect(brightness(full.at(2, 90))).toBeGreaterThan(0);
    expect(Math.abs(brightness(full.at(2, 2)) - brightness(source.at(4, 4)))).toBeLessThan(40);
  });

  it('holds a film shorter than the seconds it keeps for review, with a failing QA check', async () => {
    const short = await run('generate-video-clip', { prompt: 'a bouncing ball', durationSeconds: 2 });
    const cut = await run('build-film-cut', { clips: [{ artifactId: short.artifactId, start: 0, seconds: 5 }] });
    expect(cut.status).toBe('review');
    const artifact = await artifactOf(cut);
    expect(artifact.qa.status).toBe('failed');
    const duration = artifact.qa.checks.find((c: any) => c.id === 'duration');
    expect(duration).toMatchObject({ status: 'fail' });
    expect(duration.detail).toContain('short');
    expect(artifact.content.measuredSeconds).toBeLessThan(2.2);
    expect(artifact.content.keptSeconds).toBe(5);
  });

  it('fails clearly on a clip that cannot be fetched or decoded, a zero-length segment or a non-video artifact, leaving nothing behind', async () => {
    const report = await run('plan-research-report', { topic: 'tides' });
    const clip = await run('generate-video-clip', { prompt: 'sand dunes', durationSeconds: 1 });
    const before = (await readdir(tmpdir())).filter((d) => d.startsWith('atelier-video-')).length;
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ url: 'http://127.0.0.1:1/gone.mp4', seconds: 1 }, /clip 0 .*could not be fetched/],
      [{ url: `${loopbackUrl}/missing.mp4`, seconds: 1 }, /clip 0 .*HTTP 404/],
      [{ url: `${loopbackUrl}/not-a-video.mp4`, seconds: 1 }, /clip 0 .*cannot be decoded as video/],
      [{ artifactId: clip.artifactId, seconds: 0 }, /clip 0: seconds must be more than zero/],
      [{ artifactId: report.artifactId, seconds: 1 }, /clip 0 .*: artifact .* is research, not a video/],
      [{ artifactId: 'artifact-0000000000000000', seconds: 1 }, /clip 0 .*: artifact .* not found in this workspace/],
      [{ artifactId: clip.artifactId, start: 9, seconds: 1 }, /clip 0 .*starts at 9s but lasts only/],
    ];
    for (const [bad, message] of cases) {
      const failed = await run('build-film-cut', { clips: [bad] });
      expect(failed.status, JSON.stringify(bad)).toBe('failed');
      expect(failed.errorCode).toBe('step_invalid');
      expect(failed.error).toMatch(message);
      // Nothing of the worker's insides: no scratch paths, no ffmpeg diagnostics ([tedcaptions @ 0x…]).
      expect(failed.error).not.toMatch(/atelier-video-|clip-\d|@ 0x|\/tmp\//);
      expect(failed.artifactId ?? null).toBeNull();
      await expect(h.storage.get(`artifacts/film-cut/${failed.id}/processed.mp4`)).rejects.toThrow();
    }
    const second = await run('build-film-cut', {
      clips: [
        { artifactId: clip.artifactId, seconds: 1 },
        { url: `${loopbackUrl}/missing.mp4`, seconds: 1 },
      ],
    });
    expect(second.error).toMatch(/clip 1 .*HTTP 404/);
    // Another test file's video work may hold a folder of its own for a moment; a leaked one never goes.
    await vi.waitFor(
      async () => expect((await readdir(tmpdir())).filter((d) => d.startsWith('atelier-video-')).length).toBeLessThanOrEqual(before),
      { timeout: 30_000, interval: 250 },
    );
    const intake = await h.request('POST', '/v1/runs', {
      token: user.token,
      body: { templateId: 'build-film-cut', intake: { clips: 'not a list' } },
    });
    expect(intake.status).toBe(422);
    expect(intake.body.detail.error).toBe('intake_invalid');
  });

  for (const build of installedBuilds()) {
    it(`with the ${build.name} ffmpeg: refuses a clip that is an HLS playlist naming a local file without reading it, and still cuts MP4 and WebM clips`, async () => {
      const saved = { FFMPEG_PATH: process.env.FFMPEG_PATH, FFPROBE_PATH: process.env.FFPROBE_PATH };
      // The worker runs in this process and finds its binaries per run.
      process.env.FFMPEG_PATH = build.ffmpeg;
      process.env.FFPROBE_PATH = build.ffprobe;
      try {
        const colour = async (c: string, format: string) => {
          const file = path.join(scratch, `${c}-${build.name}.${format}`);
          const codec = format === 'webm' ? 'libvpx' : 'libx264';
          await ffmpeg(['-f', 'lavfi', '-i', `color=c=${c}:s=64x64:r=10:d=2`, '-c:v', codec, '-pix_fmt', 'yuv420p', '-f', format, file]);
          return file;
        };
        served.set(`/green-${build.name}.mp4`, await readFile(await colour('green', 'mp4')));
        served.set(`/blue-${build.name}.webm`, await readFile(await colour('blue', 'webm')));
        // The marker: a magenta video at an absolute path, its last read pushed a day back so any read shows.
        const marker = await colour('magenta', 'mpegts');
        await utimes(marker, new Date(Date.now() - 86_400_000), new Date());
        const markerReadAt = (await stat(marker)).atimeMs;
        served.set(`/playlist-${build.name}`, Buffer.from(`#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n${marker}\n#EXT-X-ENDLIST\n`));

        const ordinary = await run('build-film-cut', {
          clips: [
            { url: `${loopbackUrl}/green-${build.name}.mp4`, seconds: 1 },
            { url: `${loopbackUrl}/blue-${build.name}.webm`, seconds: 1 },
          ],
          width: 64,
          height: 64,
          fps: 10,
        });
        expect(ordinary.status, ordinary.error).toBe('completed');
        const film = await stored((await artifactOf(ordinary)).content.storageKey);
        const [r1, g1, b1] = (await frameAt(film.file, 0.5)).at(32, 32);
        expect(g1! > 96 && r1! < 60 && b1! < 60, `green first: ${[r1, g1, b1]}`).toBe(true);
        const [r2, g2, b2] = (await frameAt(film.file, 1.5)).at(32, 32);
        expect(b2! > 160 && r2! < 60 && g2! < 60, `blue second: ${[r2, g2, b2]}`).toBe(true);

        const refused = await run('build-film-cut', {
          clips: [
            { url: `${loopbackUrl}/green-${build.name}.mp4`, seconds: 1 },
            { url: `${loopbackUrl}/playlist-${build.name}`, seconds: 1 },
          ],
        });
        expect(refused.status).toBe('failed');
        expect(refused.errorCode).toBe('step_invalid');
        expect(refused.error).toMatch(
          /clip 1 \(http:\/\/127\.0\.0\.1:\d+\/playlist-\w+\) cannot be decoded as video: it is an HLS playlist \(m3u8\); clips must be MP4, QuickTime, Matroska or WebM files$/,
        );
        expect(refused.error).not.toContain(marker);
        expect(refused.artifactId ?? null).toBeNull();
        await expect(h.storage.get(`artifacts/film-cut/${refused.id}/processed.mp4`)).rejects.toThrow();
        // Neither ffprobe nor ffmpeg opened the marker (this filesystem records a read after a write: relatime).
        expect((await stat(marker)).atimeMs).toBe(markerReadAt);
      } finally {
        for (const [key, value] of Object.entries(saved)) {
          if (value === undefined) delete process.env[key];
          else process.env[key] = value;
        }
      }
    });
  }

  it('finds ffmpeg from FFMPEG_PATH, else the system build (/usr/bin) when installed, else the npm package', () => {
    const saved = process.env.FFMPEG_PATH;
    try {
      delete process.env.FFMPEG_PATH;
      expect(ffmpegPath()).toBe(existsSync('/usr/bin/ffmpeg') ? '/usr/bin/ffmpeg' : installedBuilds()[0]!.ffmpeg);
      process.env.FFMPEG_PATH = '/opt/ffmpeg/bin/ffmpeg';
      expect(ffmpegPath()).toBe('/opt/ffmpeg/bin/ffmpeg');
    } finally {
      if (saved === undefined) delete process.env.FFMPEG_PATH;
      else process.env.FFMPEG_PATH = saved;
    }
  });
});
