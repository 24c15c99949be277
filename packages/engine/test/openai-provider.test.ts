import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OPENAI_MODELS } from '@atelier/domain';
import { createOpenAiProvider } from '../src/providers/openai/index.js';
import { PermanentProviderError, ProviderThrottledError, TransientProviderError } from '../src/providers/types.js';
import { type OpenAiLoopback, completion, startOpenAiLoopback } from './support/openai-loopback.js';

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

describe('the openai provider streaming a text step', () => {
  const schema = { type: 'object', properties: { title: { type: 'string' } } };
  const content = 'A streamed answer, long enough to come in many pieces: héllo wörld 😀 and more.';

  const streamed = async (req: { jsonSchema?: Record<string, unknown> } = {}, extra: Record<string, unknown> = {}) => {
    const pieces: string[] = [];
    const answer = await provider(extra).text.complete({ model: mini, prompt: 'Write', seed: 's', ...req, onDelta: (t) => pieces.push(t) });
    return { answer, pieces };
  };

  it('asks for a stream with its usage, hands on each piece, and answers exactly as without streaming', async () => {
    server.script.push(completion(content, { prompt_tokens: 1234, completion_tokens: 567 }));
    const { answer, pieces } = await streamed();
    server.script.push(completion(content, { prompt_tokens: 1234, completion_tokens: 567 }));
    const plain = await provider().text.complete({ model: mini, prompt: 'Write', seed: 's' });
    expect(answer).toEqual(plain);
    expect(answer.text).toBe(content);
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.join('')).toBe(content);
    expect(server.received[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(server.received[1]!.body.stream).toBeUndefined();
  });

  it('streams a structured answer too, its pieces the JSON the model writes', async () => {
    server.script.push(completion('{"title":"a streamed title"}'));
    const { answer, pieces } = await streamed({ jsonSchema: schema });
    expect(answer).toEqual({ text: '{"title":"a streamed title"}', inputTokens: 1000, outputTokens: 500, costUsd: 0.00015 + 0.0003 });
    expect(pieces.join('')).toBe('{"title":"a streamed title"}');
    expect(server.received[0]!.body.response_format.json_schema.schema).toEqual(schema);
  });

  it('behaves as today on a 429 or 5xx before the stream begins: back-pressure, retried 5xx', async () => {
    server.script.push({ status: 429, headers: { 'retry-after': '2' }, body: { error: { message: 'slow down' } } });
    const throttled = streamed();
    await expect(throttled).rejects.toBeInstanceOf(ProviderThrottledError);
    await expect(throttled).rejects.toMatchObject({ retryAfterMs: 2000 });
    server.received.length = 0;
    server.script.push({ status: 503, body: { error: { message: 'overloaded' } } }, completion(content));
    const { answer, pieces } = await streamed();
    expect(answer.text).toBe(content);
    expect(pieces.join('')).toBe(content);
    expect(server.received).toHaveLength(2);
    server.script.push({ status: 400, body: { error: { message: 'bad request' } } });
    await expect(streamed()).rejects.toBeInstanceOf(PermanentProviderError);
  });

  it('treats a stream cut part-way as transient, without calling again within the call', async () => {
    server.script.push({ ...completion(content), cutAfterFrames: 4, frameDelayMs: 5 });
    const pieces: string[] = [];
    const call = provider().text.complete({ model: mini, prompt: 'Write', seed: 's', onDelta: (t) => pieces.push(t) });
    await expect(call).rejects.toBeInstanceOf(TransientProviderError);
    expect(pieces.length).toBeGreaterThan(0);
    expect(pieces.join('').length).toBeLessThan(content.length);
    expect(server.received).toHaveLength(1);
  });

  it('treats a stream that ends without [DONE], or with an error chunk, as transient', async () => {
    const frame = (o: unknown) => `data: ${JSON.stringify(o)}\n\n`;
    const sse = { 'content-type': 'text/event-stream' };
    server.script.push({ headers: sse, raw: frame({ choices: [{ index: 0, delta: { content: 'half' } }] }) });
    await expect(streamed()).rejects.toThrow(/cut before it ended/);
    server.script.push({ headers: sse, raw: frame({ error: { message: 'server_error mid-stream' } }) });
    await expect(streamed()).rejects.toThrow(/server_error mid-stream/);
  });

  it('reads the answer of a compatible server that does not stream, and a stream timed out part-way is transient', async () => {
    server.script.push({ raw: JSON.stringify(completion(content).body) });
    const { answer } = await streamed();
    expect(answer).toMatchObject({ text: content, inputTokens: 1000, outputTokens: 500 });
    server.script.push({ ...completion(content), frameDelayMs: 30 });
    await expect(streamed({}, { textTimeoutMs: 200 })).rejects.toBeInstanceOf(TransientProviderError);
  });
});
