/**
 * The visual pipeline's cost over the image work itself, without Temporal or a database.
 *
 *   pipeline: the engine's own code path — `generateImageStep` (the bound local image model draws, WebP
 *             encode, size read back, raw.webp stored) then the `removeBackground` tool from the tool
 *             registry (raw read back from storage, decoded, cut out, processed.webp encoded and stored,
 *             alpha measured) — on LocalStorage in a temp folder.
 *   bare:     the same picture drawn by the same renderer, and the same sharp operations and cut-out on
 *             buffers in hand, the two files written with fs.writeFile.
 *
 * Both draw identical pictures (same prompt and seed), with transparentBackground true (the post-process
 * path, the heavy one). Rounds alternate in ABBA order so drift on a noisy machine favours neither side.
 * Prints one JSON line: per-side best and median milliseconds, `ratio` = pipeline median ÷ bare median
 * (target ≤ 1.2), and the bare side's stage medians. Progress goes to stderr.
 *
 *   npm run bench -- visual        (BENCH_VISUAL_ROUNDS, BENCH_VISUAL_SIZE to change it)
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { LOCAL_MODELS, ModelRegistry } from '@atelier/domain';
import { generateImageStep } from '@atelier/engine/activities/steps/image';
import type { ExecutorDeps } from '@atelier/engine/activities/steps/shared';
import type { ExecuteStepInput } from '@atelier/engine/run-types';
import { VISUAL_TOOLS, WEBP_OPTIONS, cutOutBackground, visualKeys } from '@atelier/engine/media/visual/index';
import { renderLocalImage } from '@atelier/engine/providers/local/image';
import { createProviders } from '@atelier/engine/providers/index';
import { ExpressionEvaluator } from '@atelier/engine/steps/code-expression';
import { toolRegistry } from '@atelier/engine/steps/tools';
import { LocalStorage } from '@atelier/storage';
import { median, round1 } from './stats';

const ROUNDS = Number(process.env.BENCH_VISUAL_ROUNDS ?? 8);
const SIZE = Number(process.env.BENCH_VISUAL_SIZE ?? 1024);
const WARMUP = 2;
const PROMPT = 'A red fox sitting in the snow, clear composition, detailed; flat style';
const log = (msg: string) => process.stderr.write(`[visual-bench] ${msg}\n`);

const step = {
  id: 'step-2',
  name: 'Draw',
  kind: 'image',
  role: 'imageGenerator',
  params: { prompt: PROMPT, width: SIZE, height: SIZE, transparentBackground: true },
} as ExecuteStepInput['step'];

async function pipeline(deps: ExecutorDeps, runId: string, artifactId: string): Promise<number> {
  const started = performance.now();
  const signal = new AbortController().signal;
  const drawn = await generateImageStep(
    {
      runId,
      stepIndex: 1,
      step,
      context: { intake: {}, inputs: {}, steps: {} },
      bindings: { imageGenerator: 'local/image-1' },
      artifact: { id: artifactId, artifactClass: 'visual', artifactType: 'illustration' },
    },
    deps,
    signal,
  );
  const tool = deps.tools.removeBackground!;
  const result = await tool.run(drawn.output, { storage: deps.storage, artifactId, artifactType: 'illustration', signal });
  const output = result.output as { transparency: { mechanism: string; transparentFraction: number } };
  if (output.transparency.mechanism !== 'post-process' || output.transparency.transparentFraction <= 0)
    throw new Error('the pipeline did not cut the background out');
  return performance.now() - started;
}

type Stages = Record<'draw' | 'encodeRaw' | 'decode' | 'cutout' | 'encodeProcessed' | 'write', number>;

async function bare(dir: string, runId: string, artifactId: string, stages: Stages[]): Promise<number> {
  const t: number[] = [performance.now()];
  const png = await renderLocalImage({
    prompt: PROMPT,
    seed: `local/image-1:${step.id}:${runId}`,
    width: SIZE,
    height: SIZE,
    alpha: false,
  });
  t.push(performance.now());
  const raw = await sharp(png).webp(WEBP_OPTIONS).toBuffer();
  t.push(performance.now());
  const { data, info } = await sharp(raw).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  t.push(performance.now());
  cutOutBackground(data, info.width, info.height);
  t.push(performance.now());
  const processed = await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
    .webp(WEBP_OPTIONS)
    .toBuffer();
  t.push(performance.now());
  const keys = visualKeys('illustration', artifactId);
  await mkdir(path.join(dir, path.dirname(keys.raw)), { recursive: true });
  await Promise.all([writeFile(path.join(dir, keys.raw), raw), writeFile(path.join(dir, keys.processed), processed)]);
  t.push(performance.now());
  const d = (i: number) => t[i + 1]! - t[i]!;
  stages.push({ draw: d(0), encodeRaw: d(1), decode: d(2), cutout: d(3), encodeProcessed: d(4), write: d(5) });
  return t[6]! - t[0]!;
}

async function main() {
  const scratch = await mkdtemp(path.join(tmpdir(), 'atelier-visual-bench-'));
  try {
    const deps: ExecutorDeps = {
      models: new ModelRegistry(LOCAL_MODELS),
      providers: createProviders({ localLatencyMs: 0 }),
      storage: new LocalStorage(path.join(scratch, 'storage')),
      tools: toolRegistry({ ...VISUAL_TOOLS }),
      // No code steps here: an evaluator that is never used starts no threads.
      expressions: new ExpressionEvaluator(),
      schemaAttempts: 1,
    };
    const bareDir = path.join(scratch, 'bare');
    const times = { pipeline: [] as number[], bare: [] as number[] };
    const stages: Stages[] = [];
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      // The same picture on both sides in a round; a new one each round.
      const runId = `run-${(0x10000000 + round).toString(16)}`;
      const artifactId = `artifact-${round.toString(16).padStart(16, '0')}`;
      const order = round % 4 === 0 || round % 4 === 3 ? (['pipeline', 'bare'] as const) : (['bare', 'pipeline'] as const);
      const got: Record<string, number> = {};
      for (const side of order)
        got[side] = side === 'pipeline' ? await pipeline(deps, runId, artifactId) : await bare(bareDir, runId, artifactId, stages);
      if (round >= WARMUP) {
        times.pipeline.push(got.pipeline!);
        times.bare.push(got.bare!);
        log(`round ${round - WARMUP + 1}/${ROUNDS}: pipeline ${round1(got.pipeline!)} ms, bare ${round1(got.bare!)} ms`);
      } else stages.pop();
    }
    const summary = (xs: number[]) => ({ bestMs: round1(Math.min(...xs)), medianMs: round1(median(xs)), roundsMs: xs.map(round1) });
    const stageMedians = Object.fromEntries(
      (Object.keys(stages[0]!) as Array<keyof Stages>).map((k) => [k, round1(median(stages.map((s) => s[k])))]),
    );
    console.log(
      JSON.stringify({
        bench: 'visual',
        size: `${SIZE}x${SIZE}`,
        transparentBackground: true,
        rounds: ROUNDS,
        pipeline: summary(times.pipeline),
        bare: summary(times.bare),
        bareStagesMedianMs: stageMedians,
        ratio: Math.round((median(times.pipeline) / median(times.bare)) * 1000) / 1000,
        bestRatio: Math.round((Math.min(...times.pipeline) / Math.min(...times.bare)) * 1000) / 1000,
        targetRatio: 1.2,
      }),
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
