import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { type Db, connectDb } from '@atelier/db';
import { LOCAL_MODELS, buildModelRegistry } from '@atelier/domain';
import { configuredProviders, createProviders, settingsFrom } from '@atelier/engine/providers/index';
import { parseProviderLimits, spacingMs, tokenRateKey } from '@atelier/engine/providers/provider-limits';
import { createTestDatabase } from '../support/harness';
import { type RateLimitedProvider, startRateLimitedProvider } from '../support/rate-limited-openai';

/**
 * A tokens-per-minute limit against real PostgreSQL: text calls go out spaced by the tokens they reserve
 * (their prompt, and the answer their model is expected to write), two fleets sharing one database share the
 * rate (the `local` adapter), and an answer longer than its reservation is charged to the calls after it (the
 * OpenAI adapter against a loopback server that reports 1,000 prompt and 500 answer tokens for every call).
 */
let db: Db;
let server: RateLimitedProvider;
const model = LOCAL_MODELS.find((m) => m.kind === 'text')!;
// 600,000 tokens a minute: a call reserving 2,000 tokens takes 200 ms of the rate.
const TPM = 600_000;
const perToken = spacingMs({ count: TPM, windowMs: 60_000 });

beforeAll(async () => {
  db = connectDb({ url: await createTestDatabase(), max: 4 });
  server = await startRateLimitedProvider({ cap: 1_000, latencyMs: 0 });
});
afterAll(async () => {
  await db?.destroy();
  await server?.close();
});

const fleet = () => createProviders({ limits: parseProviderLimits(JSON.stringify({ local: { tokensPerMinute: TPM } })) }, { db });

/** A fleet calling the OpenAI adapter at `server`, with `model` held to `tokensPerMinute`. */
function openaiFleet(server: RateLimitedProvider, model: string, tokensPerMinute: number) {
  const providers = createProviders(
    {
      ...configuredProviders(settingsFrom({ OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-loopback' })),
      limits: parseProviderLimits(JSON.stringify({ [model]: { tokensPerMinute } })),
    },
    { db },
  );
  return { text: providers.text('openai')!, gpt: buildModelRegistry(['openai']).get(model)! };
}

/** Each call's end (ms, this process's clock), the `local` answers taking no time of their own. */
async function endsOf(calls: Array<Promise<unknown>>, started: number): Promise<number[]> {
  return Promise.all(calls.map((c) => c.then(() => performance.now() - started)));
}

describe('a tokens-per-minute limit', () => {
  it('spaces text calls by the tokens they reserve, across two fleets sharing the database', async () => {
    const [a, b] = [fleet(), fleet()];
    // About 1,000 tokens of prompt, which every call reserves whatever answer it expects (1,000 tokens before
    // any answer, then what `local`'s answers came to).
    const prompt = `Write about the sea. ${'waves '.repeat(660)}`;
    const promptTokens = Math.ceil(prompt.length / 4);
    const started = performance.now();
    const calls = Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).text('local')!.complete({ model, prompt, seed: `s${i}` }));
    const ends = (await endsOf(calls, started)).sort((x, y) => x - y);
    // The first goes at once; each next one at least its prompt's worth of the rate later, whichever fleet sent
    // it (two fleets each spacing only their own calls would send two at once).
    const gap = promptTokens * perToken;
    expect(ends[5]! - ends[0]!).toBeGreaterThanOrEqual(5 * gap * 0.95);
    for (let i = 1; i < ends.length; i++) expect(ends[i]! - ends[i - 1]!).toBeGreaterThanOrEqual(gap * 0.8);
    // The first call, reserved at the guess, holds the second off by its prompt and the guessed answer.
    expect(ends[1]! - ends[0]!).toBeGreaterThanOrEqual((promptTokens + 1_000) * perToken * 0.8);
    const { rows } = await sql<{ key: string }>`SELECT key FROM provider_capacity ORDER BY key`.execute(db);
    expect(rows.map((r) => r.key)).toEqual(['local', tokenRateKey('local')]);
  });

  it('charges an answer longer than its reservation to the calls after it', async () => {
    // 60,000 tokens a minute: a millisecond a token.
    const slow = 60_000;
    const { text, gpt } = openaiFleet(server, 'openai/gpt-4o-mini', slow);
    const started = performance.now();
    // Reserves 2 tokens of prompt and 1,000 of answer; the provider counts 1,500.
    const first = await text.complete({ model: gpt, prompt: 'short', seed: 'first' });
    expect([first.inputTokens, first.outputTokens]).toEqual([1_000, 500]);
    await text.complete({ model: gpt, prompt: 'short', seed: 'second' });
    const secondEnded = performance.now() - started;
    // The second call starts once the first call's 1,500 tokens have passed at the rate, not its 1,002 reserved.
    const ms = spacingMs({ count: slow, windowMs: 60_000 });
    expect(secondEnded).toBeGreaterThanOrEqual(1_500 * ms * 0.95);
    const { rows } = await sql<{ ahead_ms: number }>`
      SELECT extract(epoch FROM next_at - clock_timestamp()) * 1000 AS ahead_ms FROM provider_capacity
      WHERE key = ${tokenRateKey('openai/gpt-4o-mini')}`.execute(db);
    // The second call's own reservation (10 + 500, from what the first answer showed), charged 990 more once answered.
    expect(Number(rows[0]?.ahead_ms)).toBeGreaterThan(1_000 * ms);
  });

  it('lets a burst’s later calls reserve at what the first answers showed, not at the guess they arrived with', async () => {
    // A provider of its own, so that its arrivals are this burst's only. Each answer reports 1,500 tokens; a
    // 1,000-character prompt is guessed at 250 tokens and a 1,000-token answer, 1,250 in all.
    const own = await startRateLimitedProvider({ cap: 1_000, latencyMs: 0 });
    try {
      const tpm = 120_000;
      const { text, gpt } = openaiFleet(own, 'openai/gpt-4o', tpm);
      const prompt = 'p'.repeat(1_000);
      await Promise.all(Array.from({ length: 5 }, (_, i) => text.complete({ model: gpt, prompt, seed: `burst ${i}` })));
      const arrivals = (await own.stats()).arrivals.sort((a, b) => a - b);
      expect(arrivals).toHaveLength(5);
      const ms = spacingMs({ count: tpm, windowMs: 60_000 });
      // The first two reserve at the guess, within the horizon of the burst's start; the last ones, having
      // waited until they were near their turn, at the 1,500 tokens the answers before them showed.
      expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(1_250 * ms * 0.9);
      expect(arrivals[4]! - arrivals[3]!).toBeGreaterThanOrEqual(1_500 * ms * 0.95);
      expect(arrivals[4]! - arrivals[0]!).toBeGreaterThanOrEqual((1_250 + 3 * 1_500) * ms * 0.95);
    } finally {
      await own.close();
    }
  });
});
