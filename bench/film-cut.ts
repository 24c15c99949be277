/**
 * The film cut's cost over the encode itself, without Temporal or a database.
 *
 *   tool: the engine's `buildFilmCut` tool from the registry — clips fetched over HTTP from a loopback
 *         server, probed, the cut encoded, probed again and stored on LocalStorage in a temp folder.
 *   bare: the equivalent single ffmpeg command on the same clips, already on disk: the same trims,
 *         letterboxing, rate and encoder settings, writing one file.
 *
 * The clips are rendered once by the local video model (three clips of 16:9, 1:1 and 9:16). Rounds
 * alternate in ABBA order so drift on a noisy machine favours neither side. Prints one JSON line with the
 * per-side best and median milliseconds and `ratio` = tool median ÷ bare median (target ≤ 1.15).
 *
 *   npm run bench -- film-cut     (BENCH_FILM_ROUNDS, BENCH_FILM_SECONDS to change it)
 */
import { createServer } from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ffmpeg } from '@atelier/engine/media/video/ffmpeg';
import { VIDEO_TOOLS, filmCutArgs, readFilmCutSpec } from '@atelier/engine/media/video/index';
import { renderLocalClip } from '@atelier/engine/providers/local/video';
import { LOOPBACK_HOSTS, egressPolicyFromEnv } from '@atelier/engine/worker';
import { LocalStorage } from '@atelier/storage';
import { median, round1 } from './stats';

const ROUNDS = Number(process.env.BENCH_FILM_ROUNDS ?? 8);
const SECONDS = Number(process.env.BENCH_FILM_SECONDS ?? 6);
const WARMUP = 1;
const log = (msg: string) => process.stderr.write(`[film-cut-bench] ${msg}\n`);

async function main() {
  const scratch = await mkdtemp(path.join(tmpdir(), 'atelier-film-bench-'));
  const shapes = [
    { width: 1280, height: 720 },
    { width: 720, height: 720 },
    { width: 720, height: 1280 },
  ];
  const clips = await Promise.all(
    shapes.map(async (shape, i) => {
      const bytes = await renderLocalClip({
        prompt: `bench clip ${i}`,
        seed: 'bench',
        ...shape,
        fps: 30,
        durationSeconds: SECONDS,
        generateAudio: i === 1,
      });
      const file = path.join(scratch, `clip-${i}.mp4`);
      await writeFile(file, bytes);
      return file;
    }),
  );
  const server = createServer(async (req, res) => {
    const i = Number(/clip-(\d)\.mp4$/.exec(req.url ?? '')?.[1]);
    if (!Number.isInteger(i) || !clips[i]) return void res.writeHead(404).end();
    const body = await readFile(clips[i]!);
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const input = {
    clips: clips.map((_, i) => ({ url: `${origin}/clip-${i}.mp4`, start: 1, seconds: SECONDS - 2 })),
    width: 1280,
    height: 720,
    fps: 25,
  };
  const storage = new LocalStorage(path.join(scratch, 'storage'));
  const tool = VIDEO_TOOLS.buildFilmCut!;
  // The clips come from a loopback server: allowed by name, as a test worker allows them.
  const egress = egressPolicyFromEnv({}, { allowHosts: [...LOOPBACK_HOSTS] });

  const sides = {
    tool: async (round: number) => {
      const started = performance.now();
      const out = (
        await tool.run(input, {
          storage,
          artifactId: `artifact-${round.toString(16).padStart(16, '0')}`,
          artifactType: 'film-cut',
          signal: new AbortController().signal,
          egress,
        })
      ).output as { measuredSeconds: number };
      if (Math.abs(out.measuredSeconds - 3 * (SECONDS - 2)) > 0.2) throw new Error(`the cut lasts ${out.measuredSeconds}s`);
      return performance.now() - started;
    },
    bare: async (round: number) => {
      const started = performance.now();
      await ffmpeg(
        filmCutArgs(
          clips.map((file) => ({ file, format: 'mov' })),
          readFilmCutSpec(input),
          path.join(scratch, `bare-${round}.mp4`),
        ),
      );
      return performance.now() - started;
    },
  };

  try {
    const times = { tool: [] as number[], bare: [] as number[] };
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      const order = round % 4 === 0 || round % 4 === 3 ? (['tool', 'bare'] as const) : (['bare', 'tool'] as const);
      const got: Record<string, number> = {};
      for (const side of order) got[side] = await sides[side](round);
      if (round < WARMUP) continue;
      times.tool.push(got.tool!);
      times.bare.push(got.bare!);
      log(`round ${round - WARMUP + 1}/${ROUNDS}: tool ${round1(got.tool!)} ms, bare ${round1(got.bare!)} ms`);
    }
    const summary = (xs: number[]) => ({ bestMs: round1(Math.min(...xs)), medianMs: round1(median(xs)), roundsMs: xs.map(round1) });
    console.log(
      JSON.stringify({
        bench: 'film-cut',
        clips: shapes.map((s) => `${s.width}x${s.height}`),
        film: `${input.width}x${input.height}@${input.fps}, ${3 * (SECONDS - 2)} s`,
        rounds: ROUNDS,
        tool: summary(times.tool),
        bare: summary(times.bare),
        ratio: Math.round((median(times.tool) / median(times.bare)) * 1000) / 1000,
        bestRatio: Math.round((Math.min(...times.tool) / Math.min(...times.bare)) * 1000) / 1000,
        targetRatio: 1.15,
      }),
    );
  } finally {
    server.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
