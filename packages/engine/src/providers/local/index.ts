import { BATCH_PRICE_FACTOR, roundUsd, textCallCost } from '@atelier/domain';
import { delay } from '../delay.js';
import type { ClassifierProvider, ImageProvider, TextProvider, VideoProvider } from '../types.js';
import { localVerdict } from './classifier.js';
import { renderLocalImage } from './image.js';
import { localTextAnswer } from './text.js';
import { renderLocalClip } from './video.js';

export interface LocalProviderOptions {
  /** Simulated latency of every call, to make the local provider behave like a remote one. */
  latencyMs?: number;
}

/** The local batch interface: the same answer, later, at the batch price (decisions §7). */
const BATCH_EXTRA_LATENCY_MS = 100;

/** How often the local model writes a piece of its answer while streaming (about 20 a second, like a remote model's chunks). */
const LOCAL_PIECE_MS = 50;

/**
 * `text` written over `ms`, a piece every LOCAL_PIECE_MS or so, cut between words: what a remote model's
 * stream looks like, for `npm start` and tests, with the same answer at the end.
 */
export async function writeOver(text: string, ms: number, onDelta: (text: string) => void, signal?: AbortSignal): Promise<void> {
  const words = text.split(/(?<=\s)/);
  const count = Math.max(1, Math.min(words.length, Math.round(ms / LOCAL_PIECE_MS)));
  const started = Date.now();
  let from = 0;
  for (let i = 1; i <= count; i++) {
    const to = Math.round((words.length * i) / count);
    // Against the start, so the whole takes the latency and no more however late each timer fires.
    await delay(started + (ms * i) / count - Date.now(), signal);
    const piece = words.slice(from, to).join('');
    from = to;
    if (piece) onDelta(piece);
  }
}

/** The `local` provider: offline, deterministic, nominally priced — the embedded default. */
export function createLocalProvider(opts: LocalProviderOptions = {}) {
  const latency = (signal?: AbortSignal, batch?: boolean) => delay((opts.latencyMs ?? 0) + (batch ? BATCH_EXTRA_LATENCY_MS : 0), signal);
  const price = (usd: number, batch?: boolean) => (batch ? roundUsd(usd * BATCH_PRICE_FACTOR) : usd);

  const text: TextProvider = {
    async complete(req) {
      const answer = localTextAnswer({ prompt: req.prompt, jsonSchema: req.jsonSchema, seed: `${req.model.id}:${req.seed}` });
      const ms = (opts.latencyMs ?? 0) + (req.batch ? BATCH_EXTRA_LATENCY_MS : 0);
      // Streamed over its latency when asked (and there is latency to stream over), else written at once after it.
      if (req.onDelta && ms > 0) await writeOver(answer.text, ms, req.onDelta, req.signal);
      else await latency(req.signal, req.batch);
      return {
        text: answer.text,
        inputTokens: answer.usage.inputTokens,
        outputTokens: answer.usage.outputTokens,
        costUsd: price(textCallCost(req.model, answer.usage.inputTokens, answer.usage.outputTokens), req.batch),
      };
    },
  };

  const image: ImageProvider = {
    async generate(req) {
      await latency(req.signal, req.batch);
      const native = req.transparentBackground && req.model.capabilities.includes('transparency');
      const bytes = await renderLocalImage({
        prompt: req.prompt,
        seed: `${req.model.id}:${req.seed}`,
        width: req.width,
        height: req.height,
        alpha: native,
      });
      return { bytes, mimeType: 'image/png', nativeTransparency: native, costUsd: price(req.model.pricing.per_image ?? 0, req.batch) };
    },
  };

  const classifier: ClassifierProvider = {
    async classify(req) {
      await latency(req.signal);
      const verdict = localVerdict(req);
      const tokens = Math.max(1, Math.ceil(req.text.length / 4));
      return { ...verdict, costUsd: textCallCost(req.model, tokens, 0) };
    },
  };

  const video: VideoProvider = {
    async generate(req) {
      await latency(req.signal);
      const bytes = await renderLocalClip({ ...req, seed: `${req.model.id}:${req.seed}` });
      return { bytes, mimeType: 'video/mp4', costUsd: roundUsd((req.model.pricing.per_second ?? 0) * req.durationSeconds) };
    },
  };

  return { text, image, video, classifier };
}
