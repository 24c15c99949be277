import { createHash } from 'node:crypto';
import type { ModelEntry } from '@atelier/domain';
import { layered } from './provider-set.js';
import type { ProviderSet } from './types.js';

/** Providers that accept idempotency keys take at most 255 characters. */
const MAX_KEY_LENGTH = 255;

/** Bytes a key carries as they are: the alphabet every provider that takes keys accepts. */
const plain = (byte: number) =>
  (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || byte === 0x2d || byte === 0x3a;

/**
 * The idempotency key of one provider call: `{runId}:{stepIndex}:{seed}`, where the seed is what already
 * names the call within its step, deterministically (the step id and schema attempt, the agent turn, the gate
 * judged). The same logical call executed again after a worker died gets the same key; distinct calls get
 * distinct keys. Seed bytes outside `[A-Za-z0-9:-]` are written `_HH` (hex), so keys fit the strictest
 * alphabet providers accept and stay distinct; a key that would pass 255 characters carries the seed's
 * SHA-256 instead (`_sha256-…`, a form the escaping never produces).
 */
export function providerCallKey(runId: string, stepIndex: number, seed: string): string {
  let escaped = '';
  for (const byte of Buffer.from(seed, 'utf8'))
    escaped += plain(byte) ? String.fromCharCode(byte) : `_${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  const key = `${runId}:${stepIndex}:${escaped}`;
  if (key.length <= MAX_KEY_LENGTH) return key;
  return `${runId}:${stepIndex}:_sha256-${createHash('sha256').update(seed, 'utf8').digest('hex')}`;
}

/** One answered provider call: its key and what the provider charged for it (`unpriced`: not known). */
export interface AnsweredCall {
  key: string;
  provider: string;
  model: string;
  costUsd: number;
  unpriced?: boolean;
}

/** Answers bought by an earlier attempt of the step, by key (CarriedAnswers), and where this attempt's are kept. */
export interface AnswerCarrier {
  get(key: string): unknown;
  keep(key: string, answer: unknown): void;
}

/**
 * The providers as one execution of one step sees them: every request carries its idempotency key
 * (providerCallKey of the run, the step index and the request's seed), and every answer is handed to
 * `answered` before the step gets it, so what each call cost can be recorded even when the worker dies right
 * after. `beforeCall` runs before each request goes out (where answers held back are written down). With
 * `carried`, a text or classifier call an earlier attempt already bought (same key) is answered from there,
 * not bought again, and this attempt's such answers are kept there.
 */
export function keyedProviders(
  providers: ProviderSet,
  scope: { runId: string; stepIndex: number },
  answered: (call: AnsweredCall) => Promise<void> | void,
  beforeCall: () => Promise<void> = async () => undefined,
  carried?: AnswerCarrier,
): ProviderSet {
  async function call<R extends { model: ModelEntry; idempotencyKey?: string }, A extends { costUsd: number; unpriced?: boolean }>(
    req: R,
    seed: string,
    send: (req: R) => Promise<A>,
    carries = false,
  ): Promise<A> {
    const key = req.idempotencyKey ?? providerCallKey(scope.runId, scope.stepIndex, seed);
    const bought = carries ? (carried?.get(key) as A | undefined) : undefined;
    if (bought) return bought;
    await beforeCall();
    const answer = await send({ ...req, idempotencyKey: key });
    if (!(answer as { recorded?: true }).recorded)
      await answered({
        key,
        provider: req.model.provider,
        model: req.model.id,
        costUsd: answer.costUsd,
        ...(answer.unpriced ? { unpriced: true } : {}),
      });
    if (carries) carried?.keep(key, answer);
    return answer;
  }
  return layered(providers, {
    text: (p) => ({ complete: (req) => call(req, req.seed, (r) => p.complete(r), true) }),
    image: (p) => ({ generate: (req) => call(req, req.seed, (r) => p.generate(r)) }),
    video: (p) => ({ generate: (req) => call(req, req.seed, (r) => p.generate(r)) }),
    classifier: (p) => ({ classify: (req) => call(req, req.seed ?? `classify:${req.policy}`, (r) => p.classify(r), true) }),
  });
}
