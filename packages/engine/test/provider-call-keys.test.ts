import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_MODELS, OPENAI_MODELS } from '@atelier/domain';
import { type AnsweredCall, createProviders, keyedProviders, providerCallKey } from '../src/providers/index.js';
import { createOpenAiProvider } from '../src/providers/openai/index.js';
import { type OpenAiLoopback, completion, startOpenAiLoopback } from './support/openai-loopback.js';

/** The strictest key alphabet providers that take idempotency keys accept. */
const ACCEPTED = /^[A-Za-z0-9_:-]{1,255}$/;

describe('providerCallKey', () => {
  it('is the run, the step index and the seed, the same every time it is derived', () => {
    expect(providerCallKey('run-0000abcd', 1, 'step-2')).toBe('run-0000abcd:1:step-2');
    expect(providerCallKey('run-0000abcd', 1, 'step-2#1')).toBe(providerCallKey('run-0000abcd', 1, 'step-2#1'));
  });

  it('escapes what providers refuse, so the seeds the steps use become accepted keys', () => {
    expect(providerCallKey('run-0000abcd', 1, 'step-2#1')).toBe('run-0000abcd:1:step-2_231');
    expect(providerCallKey('run-0000abcd', 3, 'research:turn2#1')).toBe('run-0000abcd:3:research:turn2_231');
    expect(providerCallKey('run-0000abcd', 0, 'gate:quality gate')).toBe('run-0000abcd:0:gate:quality_20gate');
    expect(providerCallKey('run-0000abcd', 0, 'étape_1')).toBe('run-0000abcd:0:_C3_A9tape_5F1');
    for (const seed of ['step-2#1', 'a b/c?d=e', 'ünïcödé#2', '', 'x'.repeat(1000)])
      expect(providerCallKey('run-0000abcd', 12, seed)).toMatch(ACCEPTED);
  });

  it('differs between distinct calls: another run, another step, another seed', () => {
    const keys = [
      providerCallKey('run-0000abcd', 1, 'step-2#1'),
      providerCallKey('run-0000abcd', 1, 'step-2#2'),
      providerCallKey('run-0000abcd', 2, 'step-2#1'),
      providerCallKey('run-0000abce', 1, 'step-2#1'),
      providerCallKey('run-0000abcd', 1, 'step-2_231'),
      providerCallKey('run-0000abcd', 1, 'step-2:turn1#1'),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('never gives two seeds of one step the same key, and every key is accepted (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 300 }), (a, b) => {
        const [ka, kb] = [providerCallKey('run-0000abcd', 4, a), providerCallKey('run-0000abcd', 4, b)];
        expect(ka).toMatch(ACCEPTED);
        if (a !== b) expect(ka).not.toBe(kb);
      }),
    );
  });

  it('carries a hash of a seed too long for 255 characters, still stable and distinct', () => {
    const long = providerCallKey('run-0000abcd', 1, `${'x'.repeat(300)}#1`);
    expect(long).toMatch(/^run-0000abcd:1:_sha256-[0-9a-f]{64}$/);
    expect(long).toBe(providerCallKey('run-0000abcd', 1, `${'x'.repeat(300)}#1`));
    expect(long).not.toBe(providerCallKey('run-0000abcd', 1, `${'x'.repeat(300)}#2`));
  });
});

describe('keyedProviders', () => {
  const text = LOCAL_MODELS.find((m) => m.kind === 'text')!;
  const classifier = LOCAL_MODELS.find((m) => m.kind === 'classifier') ?? text;

  it('keys every request from the run, step and seed, and reports every answer with its cost before the step sees it', async () => {
    const calls: AnsweredCall[] = [];
    let reported = 0;
    const keyed = keyedProviders(createProviders(), { runId: 'run-0000abcd', stepIndex: 2 }, async (call) => {
      await new Promise((r) => setTimeout(r, 5));
      calls.push(call);
      reported++;
    });
    const first = await keyed.text('local')!.complete({ model: text, prompt: 'Write "a poem"', seed: 'step-3#1' });
    expect(reported).toBe(1);
    await keyed.text('local')!.complete({ model: text, prompt: 'Write "a poem"', seed: 'step-3#2' });
    await keyed.classifier('local')!.classify({ model: classifier, policy: 'safety', text: 'fine', seed: 'gate:safe' });
    expect(calls.map((c) => c.key)).toEqual(['run-0000abcd:2:step-3_231', 'run-0000abcd:2:step-3_232', 'run-0000abcd:2:gate:safe']);
    expect(calls[0]).toEqual({ key: 'run-0000abcd:2:step-3_231', provider: 'local', model: text.id, costUsd: first.costUsd });
    expect(calls[0]!.costUsd).toBeGreaterThan(0);

    // The same step executed again (a new attempt) derives the same keys for the same calls.
    const again: string[] = [];
    const retried = keyedProviders(createProviders(), { runId: 'run-0000abcd', stepIndex: 2 }, async (call) => {
      again.push(call.key);
    });
    await retried.text('local')!.complete({ model: text, prompt: 'Write "a poem"', seed: 'step-3#1' });
    expect(again).toEqual(['run-0000abcd:2:step-3_231']);
  });

  it('records nothing for a call the provider did not answer, and leaves unknown providers unknown', async () => {
    const calls: AnsweredCall[] = [];
    const failing = {
      ...createProviders(),
      text: () => ({
        complete: async () => {
          throw new Error('boom');
        },
      }),
    };
    const keyed = keyedProviders(failing, { runId: 'run-0000abcd', stepIndex: 0 }, async (call) => {
      calls.push(call);
    });
    await expect(keyed.text('local')!.complete({ model: text, prompt: 'x', seed: 's' })).rejects.toThrow('boom');
    expect(calls).toEqual([]);
    const real = keyedProviders(createProviders(), { runId: 'run-0000abcd', stepIndex: 0 }, async () => undefined);
    expect(real.text('nowhere')).toBeUndefined();
    expect(real.video('local')).toBeDefined();
  });
});

describe('the openai adapter sends the key as Idempotency-Key', () => {
  let server: OpenAiLoopback;
  const mini = OPENAI_MODELS.find((m) => m.id === 'openai/gpt-4o-mini')!;
  const imageModel = OPENAI_MODELS.find((m) => m.id === 'openai/gpt-image-1')!;
  beforeAll(async () => {
    server = await startOpenAiLoopback(() => completion('{"title":"ok"}'));
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.received.length = 0;
    server.script.length = 0;
  });
  const provider = () => createOpenAiProvider({ baseUrl: server.baseUrl, apiKey: 'sk-test', maxAttempts: 3 });

  it('on every attempt of a call, the same key (a 503 retried by the adapter is the same call)', async () => {
    server.script.push({ status: 503, body: { error: { message: 'overloaded' } } });
    await provider().text.complete({ model: mini, prompt: 'x', seed: 's', idempotencyKey: 'run-0000abcd:1:step-2_231' });
    expect(server.received.map((r) => r.idempotencyKey)).toEqual(['run-0000abcd:1:step-2_231', 'run-0000abcd:1:step-2_231']);
  });

  it('on image generations too, and not at all when the request has no key', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 1 } } })
      .png()
      .toBuffer();
    server.script.push({ body: { created: 1, data: [{ b64_json: png.toString('base64') }] } });
    await provider().image.generate({
      model: imageModel,
      prompt: 'a fox',
      width: 1024,
      height: 1024,
      seed: 's',
      transparentBackground: false,
      idempotencyKey: 'run-0000abcd:0:step-1:run-0000abcd',
    });
    await provider().text.complete({ model: mini, prompt: 'x', seed: 's' });
    expect(server.received.map((r) => r.idempotencyKey)).toEqual(['run-0000abcd:0:step-1:run-0000abcd', undefined]);
  });
});
