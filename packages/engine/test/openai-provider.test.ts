import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OPENAI_MODELS } from '@atelier/domain';
import { createOpenAiProvider } from '../src/providers/openai/index';
import { PermanentProviderError, ProviderThrottledError, TransientProviderError } from '../src/providers/types';
import { type OpenAiLoopback, completion, startOpenAiLoopback } from './support/openai-loopback';

const mini = OPENAI_MODELS.find((m) => m.id === 'openai/gpt-4o-mini')!;
const imageModel = OPENAI_MODELS.find((m) => m.id === 'openai/gpt-image-1')!;
let server: OpenAiLoopback;

beforeAll(async () => {
  server = await startOpenAiLoopback(() => completion('{"title":"ok"}'));
});
afterAll(() => server.close());
beforeEach(() => {
  server.received.length = 0;
  server.script.length = 0;
});

const provider = (extra: Record<string, unknown> = {}) =>
  createOpenAiProvider({ baseUrl: server.baseUrl, apiKey: 'sk-test', maxAttempts: 3, ...extra });

describe('the openai provider against a loopback server', () => {
  it('sends chat completions with structured outputs and prices the reported usage', async () => {
    const schema = { type: 'object', properties: { title: { type: 'string' } } };
    const answer = await provider().text.complete({ model: mini, prompt: 'Title this', jsonSchema: schema, seed: 's' });
    expect(answer).toEqual({ text: '{"title":"ok"}', inputTokens: 1000, outputTokens: 500, costUsd: 0.00015 + 0.0003 });
    const [req] = server.received;
    expect(req).toMatchObject({ path: '/v1/chat/completions', authorization: 'Bearer sk-test' });
    expect(req!.body).toEqual({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Title this' }],
      response_format: { type: 'json_schema', json_schema: { name: 'step_output', schema, strict: false } },
    });
  });

  it('hands a 429 back at once as back-pressure, with its Retry-After, for the capacity layer to wait out', async () => {
    server.script.push({ status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'slow down' } } });
    const call = provider().text.complete({ model: mini, prompt: 'x', seed: 's' });
    await expect(call).rejects.toBeInstanceOf(ProviderThrottledError);
    await expect(call).rejects.toMatchObject({ retryAfterMs: 1000, status: 429 });
    expect(server.received).toHaveLength(1);
  });

  it('gives up on repeated 5xx with a transient error after its attempts', async () => {
    server.script.push(...Array.from({ length: 3 }, () => ({ status: 503, body: { error: { message: 'overloaded' } } })));
    await expect(provider().text.complete({ model: mini, prompt: 'x', seed: 's' })).rejects.toBeInstanceOf(TransientProviderError);
    expect(server.received).toHaveLength(3);
  });

  it('treats a 400 as permanent, without retrying, and keeps the API message', async () => {
    server.script.push({ status: 400, body: { error: { message: "Invalid schema for response_format 'step_output'" } } });
    const call = provider().text.complete({ model: mini, prompt: 'x', seed: 's' });
    await expect(call).rejects.toBeInstanceOf(PermanentProviderError);
    await expect(call).rejects.toThrow(/Invalid schema/);
    expect(server.received).toHaveLength(1);
  });

  it('times out a hanging call and reports it as transient', async () => {
    server.script.push({ delayMs: 800, ...completion('late') }, { delayMs: 800, ...completion('late') });
    await expect(provider({ textTimeoutMs: 200, maxAttempts: 2 }).text.complete({ model: mini, prompt: 'x', seed: 's' })).rejects.toThrow(
      /timed out after 200 ms/,
    );
  });

  it('treats a malformed 200 as transient', async () => {
    server.script.push({ raw: 'not json at all' });
    await expect(provider().text.complete({ model: mini, prompt: 'x', seed: 's' })).rejects.toBeInstanceOf(TransientProviderError);
  });

  it('generates images from b64_json, asking for a transparent background when the model has one', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer();
    server.script.push({ body: { created: 1, data: [{ b64_json: png.toString('base64') }] } });
    const image = await provider().image.generate({
      model: imageModel,
      prompt: 'a fox',
      width: 1024,
      height: 1024,
      seed: 's',
      transparentBackground: true,
    });
    expect(image).toMatchObject({ mimeType: 'image/png', nativeTransparency: true, costUsd: 0.04 });
    expect(image.bytes.equals(png)).toBe(true);
    expect(server.received[0]).toMatchObject({
      path: '/v1/images/generations',
      body: { model: 'gpt-image-1', size: '1024x1024', n: 1, response_format: 'b64_json', background: 'transparent' },
    });
  });
});
