import { Counter, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { LOCAL_MODELS } from '@atelier/domain';
import { withCapacity } from '../src/providers/capacity.js';
import {
  ARRIVAL_JITTER_MS,
  concurrencyRetryMs,
  limitsFor,
  FIRST_HABITS,
  learnHabits,
  mustRequeue,
  parseProviderLimits,
  parseRetryAfter,
  spacingMs,
  throttleWaitMs,
  sentChars,
  tokenEstimate,
  tokenRateKey,
  tokensOwed,
} from '../src/providers/provider-limits.js';
import { PermanentProviderError, ProviderThrottledError, type ProviderSet } from '../src/providers/types.js';

describe('provider limits as configuration', () => {
  it('reads per-provider and per-model limits, per second or per minute', () => {
    expect(parseProviderLimits('{"openai":{"requestsPerSecond":20,"concurrency":64},"openai/gpt-4o":{"requestsPerMinute":500}}')).toEqual({
      openai: { requests: { count: 20, windowMs: 1000 }, concurrency: 64 },
      'openai/gpt-4o': { requests: { count: 500, windowMs: 60_000 } },
    });
  });

  it('reads tokens per minute beside the request rate, for providers that meter tokens', () => {
    expect(parseProviderLimits('{"anthropic":{"requestsPerMinute":50,"tokensPerMinute":40000}}')).toEqual({
      anthropic: { requests: { count: 50, windowMs: 60_000 }, tokens: { count: 40_000, windowMs: 60_000 } },
    });
    expect(() => parseProviderLimits('{"anthropic":{"tokensPerMinute":-1}}')).toThrow(
      /\["anthropic"\]\.tokensPerMinute must be a positive number/,
    );
    expect(() => parseProviderLimits('{"anthropic":{"tpm":1}}')).toThrow(/tpm is not a setting \(.*tokensPerMinute\)/);
  });

  it('is unlimited when unset or empty', () => {
    expect(parseProviderLimits(undefined)).toEqual({});
    expect(parseProviderLimits('  ')).toEqual({});
  });

  it('refuses malformed settings with an error naming the key and field', () => {
    expect(() => parseProviderLimits('{openai')).toThrow(/ATELIER_PROVIDER_LIMITS is not JSON/);
    expect(() => parseProviderLimits('[]')).toThrow(/must be a JSON object/);
    expect(() => parseProviderLimits('{"openai":{"requestsPerSecond":0}}')).toThrow(
      /\["openai"\]\.requestsPerSecond must be a positive number/,
    );
    expect(() => parseProviderLimits('{"openai":{"rps":5}}')).toThrow(/\["openai"\]\.rps is not a setting/);
    expect(() => parseProviderLimits('{"openai":{"requestsPerSecond":1,"requestsPerMinute":60}}')).toThrow(/not both/);
    expect(() => parseProviderLimits('{"openai":{"concurrency":2.5}}')).toThrow(/concurrency must be a whole number/);
    expect(() => parseProviderLimits('{"Open AI":{"concurrency":2}}')).toThrow(/keys are a provider name/);
    expect(() => parseProviderLimits('{"fal/fal-ai//dev":{"concurrency":2}}')).toThrow(/keys are a provider name/);
    expect(() => parseProviderLimits('{"openai":5}')).toThrow(/must be an object/);
  });

  it('takes model ids whose model part is owner/name, as Replicate names its models', () => {
    const limits = parseProviderLimits('{"replicate/black-forest-labs/flux-schnell":{"concurrency":3}}');
    expect(limitsFor(limits, 'replicate', 'replicate/black-forest-labs/flux-schnell').map((l) => l.key)).toEqual([
      'replicate/black-forest-labs/flux-schnell',
    ]);
  });

  it('applies the provider limit and the model limit to a call, whichever are set', () => {
    const limits = parseProviderLimits('{"openai":{"concurrency":4},"openai/gpt-4o":{"requestsPerSecond":2}}');
    expect(limitsFor(limits, 'openai', 'openai/gpt-4o').map((l) => l.key)).toEqual(['openai', 'openai/gpt-4o']);
    // fal model ids are paths: `fal/` and the fal endpoint id.
    const fal = parseProviderLimits('{"fal/fal-ai/flux/dev":{"concurrency":2}}');
    expect(limitsFor(fal, 'fal', 'fal/fal-ai/flux/dev').map((l) => l.key)).toEqual(['fal/fal-ai/flux/dev']);
    expect(limitsFor(limits, 'openai', 'openai/gpt-4o-mini').map((l) => l.key)).toEqual(['openai']);
    expect(limitsFor(limits, 'local', 'local/text-1')).toEqual([]);
  });
});

describe('the limiter arithmetic', () => {
  it('spaces starts so a window holds at most the cap even when calls arrive up to the jitter apart', () => {
    const spacing = spacingMs({ count: 20, windowMs: 1000 });
    expect(spacing).toBeCloseTo((1000 + ARRIVAL_JITTER_MS) / 20, 9);
    // The 21st start after any start is more than a window plus the jitter later.
    expect(20 * spacing).toBeGreaterThanOrEqual(1000 + ARRIVAL_JITTER_MS);
    // Per minute the jitter costs next to nothing.
    expect(spacingMs({ count: 600, windowMs: 60_000 })).toBeLessThan(100.1);
  });

  it('reserves a text call’s prompt, its schema and the answer its model is expected to write, and charges only what it used beyond', () => {
    expect(tokenEstimate(sentChars('x'.repeat(4_000), undefined), FIRST_HABITS)).toBe(2_000);
    const schema = { type: 'object', properties: { title: { type: 'string' } } };
    expect(sentChars('x'.repeat(400), schema)).toBe(400 + JSON.stringify(schema).length);
    expect(tokensOwed(2_000, 2_600)).toBe(600);
    expect(tokensOwed(2_000, 1_200)).toBe(0);
    // A key's token rate has a row of its own, which no configured key can name.
    expect(tokenRateKey('openai/gpt-4o')).toBe('openai/gpt-4o tokens');
    expect(() => parseProviderLimits(`{"${tokenRateKey('openai')}":{"concurrency":1}}`)).toThrow(/keys are a provider name/);
  });

  it('learns how long a model’s answers are and how many characters its provider counts as a token', () => {
    // A model's first answer is taken as it is: 4,000 characters counted as 4,000 tokens (a script of one
    // character a token), an answer of 200.
    expect(learnHabits(undefined, 4_000, { input: 4_000, output: 200 })).toEqual({ answer: 200, charsPerToken: 1 });
    // Later answers move what was learnt a fifth of the way.
    expect(learnHabits(FIRST_HABITS, 4_000, { input: 4_000, output: 200 })).toEqual({ answer: 840, charsPerToken: 3.4 });
    let habits = FIRST_HABITS;
    for (let i = 0; i < 50; i++) habits = learnHabits(habits, 4_000, { input: 4_000, output: 200 });
    expect(habits.answer).toBeCloseTo(200, 0);
    expect(habits.charsPerToken).toBeCloseTo(1, 1);
    // The next 4,000-character prompt then reserves about what the provider will count.
    expect(tokenEstimate(4_000, habits)).toBeGreaterThan(4_100);
    // An odd count moves the ratio a bounded step, and no usage leaves it alone.
    expect(learnHabits(FIRST_HABITS, 4_000, { input: 1, output: 0 }).charsPerToken).toBeCloseTo(4 + 0.2 * 12, 5);
    expect(learnHabits(FIRST_HABITS, 4_000, { input: 0, output: 0 }).charsPerToken).toBe(4);
    expect(learnHabits(undefined, 4_000, { input: 1, output: 0 }).charsPerToken).toBe(16);
  });

  it('requeues a call that woke too late for its slot', () => {
    expect(mustRequeue(5)).toBe(false);
    expect(mustRequeue(26)).toBe(true);
  });

  it('waits Retry-After after a 429, else backs off exponentially with jitter up to 10 s', () => {
    expect(throttleWaitMs(1, 2000)).toBe(2000);
    expect(throttleWaitMs(1, 600_000)).toBe(60_000);
    expect(throttleWaitMs(1, undefined, 1)).toBe(500);
    expect(throttleWaitMs(3, undefined, 1)).toBe(2000);
    expect(throttleWaitMs(3, undefined, 0)).toBe(1000);
    expect(throttleWaitMs(30, undefined, 1)).toBe(10_000);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-30T09:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter('0.5', now)).toBe(500);
    expect(parseRetryAfter('Mon, 30 Nov 2026 09:00:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('polls for a concurrency permit from 25 ms up to 1 s', () => {
    expect(concurrencyRetryMs(1, 1)).toBe(25);
    expect(concurrencyRetryMs(20, 1)).toBe(1000);
  });
});

describe('calls held to capacity', () => {
  const model = LOCAL_MODELS.find((m) => m.id === 'local/text-1')!;
  const answer = { text: 'ok', inputTokens: 1, outputTokens: 1, costUsd: 0 };
  const providers = (complete: () => Promise<typeof answer>): ProviderSet => ({
    text: () => ({ complete }),
    image: () => undefined,
    video: () => undefined,
    classifier: () => undefined,
    jobs: () => undefined,
    webhooks: () => undefined,
    batches: () => undefined,
  });
  const counter = () => {
    const registry = new Registry();
    return new Counter({ name: 't_throttled', help: 'h', labelNames: ['provider', 'reason'] as const, registers: [registry] });
  };

  it('waits out 429s (Retry-After or a backoff) and calls again, counting the time throttled', async () => {
    let calls = 0;
    const throttled = counter();
    const held = withCapacity(
      providers(async () => {
        calls++;
        if (calls === 1) throw new ProviderThrottledError('429: slow down', 300);
        if (calls === 2) throw new ProviderThrottledError('429: slow down');
        return answer;
      }),
      { limits: {}, throttled },
    );
    const started = performance.now();
    await expect(held.text('local')!.complete({ model, prompt: 'x', seed: 's' })).resolves.toEqual(answer);
    expect(calls).toBe(3);
    expect(performance.now() - started).toBeGreaterThanOrEqual(300 + 250 - 5);
    const [sample] = (await throttled.get()).values;
    expect(sample).toMatchObject({ labels: { provider: 'local', reason: '429' } });
    expect(sample!.value).toBeGreaterThanOrEqual(0.5);
  });

  it('stops waiting when the call is cancelled, and passes other failures through untouched', async () => {
    const controller = new AbortController();
    const held = withCapacity(
      providers(async () => {
        throw new ProviderThrottledError('429', 30_000);
      }),
      { limits: {} },
    );
    const call = held.text('local')!.complete({ model, prompt: 'x', seed: 's', signal: controller.signal });
    setTimeout(() => controller.abort(new Error('cancelled')), 50);
    await expect(call).rejects.toThrow('cancelled');

    const refused = withCapacity(
      providers(async () => {
        throw new PermanentProviderError('400: bad');
      }),
      { limits: {} },
    );
    await expect(refused.text('local')!.complete({ model, prompt: 'x', seed: 's' })).rejects.toBeInstanceOf(PermanentProviderError);
  });

  it('will not hold limits without the database', () => {
    expect(() =>
      withCapacity(
        providers(async () => answer),
        { limits: { local: { concurrency: 1 } } },
      ),
    ).toThrow(/database/);
  });
});
