import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MODEL_CATALOG, buildModelRegistry } from '@atelier/domain';
import { anthropicProvider, createAnthropicProvider } from '../src/providers/anthropic/index.js';
import { PermanentProviderError, ProviderThrottledError, TransientProviderError } from '../src/providers/types.js';
import {
  type AnthropicLoopback,
  apiError,
  cutMessage,
  sseEvent,
  startAnthropicLoopback,
  textMessage,
  toolUseMessage,
} from './support/anthropic-loopback.js';

const KEY = 'sk-ant-loopback';
const model = (id: string) => MODEL_CATALOG.anthropic!.find((m) => m.id === id)!;
const haiku = model('anthropic/claude-haiku-4-5');
const classifierModel = model('anthropic/claude-haiku-4-5:classifier');
let server: AnthropicLoopback;

beforeAll(async () => {
  server = await startAnthropicLoopback(() => textMessage('fallback'), KEY);
});
afterAll(() => server.close());
beforeEach(() => {
  server.received.length = 0;
  server.script.length = 0;
});

const provider = (extra: Record<string, unknown> = {}) =>
  createAnthropicProvider({ baseUrl: server.baseUrl, apiKey: KEY, maxAttempts: 3, ...extra });
const complete = (extra: Record<string, unknown> = {}) => provider().text.complete({ model: haiku, prompt: 'x', seed: 's', ...extra });

describe('the anthropic provider against a loopback Messages API', () => {
  it('forces the step_output tool for a schema, returns its input as the text and prices the reported usage', async () => {
    const schema = { type: 'object', required: ['title'], properties: { title: { type: 'string' } } };
    server.script.push(toolUseMessage('step_output', { title: 'ok' }));
    const answer = await provider().text.complete({
      model: haiku,
      prompt: 'Title this',
      jsonSchema: schema,
      seed: 's',
      idempotencyKey: 'run:1:s',
    });
    // 1,000 input and 500 output tokens at 0.001 and 0.005 USD per 1k.
    expect(answer).toEqual({ text: '{"title":"ok"}', inputTokens: 1000, outputTokens: 500, costUsd: 0.0035 });
    const [req] = server.received;
    expect(req).toMatchObject({ method: 'POST', path: '/v1/messages', apiKey: KEY, version: '2023-06-01', idempotencyKey: 'run:1:s' });
    expect(req!.authorization).toBeUndefined();
    expect(req!.contentType).toBe('application/json');
    expect(req!.body).toEqual({
      model: 'claude-haiku-4-5',
      max_tokens: 8192,
      messages: [{ role: 'user', content: 'Title this' }],
      tools: [{ name: 'step_output', description: expect.any(String), input_schema: schema }],
      tool_choice: { type: 'tool', name: 'step_output' },
    });
  });

  it('answers a step without a schema with the text blocks, and sends no tools', async () => {
    server.script.push({
      body: {
        ...textMessage('').body,
        content: [
          { type: 'text', text: 'Hello, ' },
          { type: 'text', text: 'world.' },
        ],
      },
    });
    const answer = await provider({ maxTokens: 1000 }).text.complete({
      model: model('anthropic/claude-sonnet-4-5'),
      prompt: 'Greet',
      seed: 's',
    });
    // 1,000 input and 500 output tokens at 0.003 and 0.015 USD per 1k.
    expect(answer).toEqual({ text: 'Hello, world.', inputTokens: 1000, outputTokens: 500, costUsd: 0.0105 });
    expect(server.received[0]!.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 1000,
      messages: [{ role: 'user', content: 'Greet' }],
    });
  });

  it('asks for a schema that is not an object under `value`, since a tool input must be an object, and unwraps it', async () => {
    const schema = { type: 'array', items: { type: 'string' } };
    server.script.push(toolUseMessage('step_output', { value: ['a', 'b'] }));
    expect((await complete({ jsonSchema: schema })).text).toBe('["a","b"]');
    expect(server.received[0]!.body.tools[0].input_schema).toEqual({ type: 'object', properties: { value: schema }, required: ['value'] });
  });

  it('counts cache reads and writes as input, and estimates usage an answer lacks instead of pricing it at nothing', async () => {
    const cached = textMessage('ok');
    Object.assign(cached.body.usage!, { cache_creation_input_tokens: 200, cache_read_input_tokens: 300 });
    server.script.push(cached, textMessage('x'.repeat(400), null));
    expect(await complete()).toMatchObject({ inputTokens: 1500, outputTokens: 500 });
    const estimated = await complete();
    expect(estimated.outputTokens).toBe(100);
    expect(estimated.inputTokens).toBeGreaterThan(0);
    expect(estimated.costUsd).toBeGreaterThan(0);
  });

  it('treats an answer cut at max_tokens before the tool call completed as transient, without retrying inside the call', async () => {
    server.script.push(cutMessage());
    const call = complete({ jsonSchema: { type: 'object', properties: {} } });
    await expect(call).rejects.toBeInstanceOf(TransientProviderError);
    await expect(call).rejects.toThrow(/max_tokens/);
    expect(server.received).toHaveLength(1);
  });

  it('treats a refusal (stop_reason refusal) as permanent', async () => {
    server.script.push({ body: { ...textMessage('').body, content: [], stop_reason: 'refusal' } });
    await expect(complete()).rejects.toBeInstanceOf(PermanentProviderError);
  });

  it('hands a 429 rate_limit_error back at once as back-pressure, with its retry-after', async () => {
    server.script.push(
      apiError(429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit', { 'retry-after': '7' }),
    );
    const call = complete();
    await expect(call).rejects.toBeInstanceOf(ProviderThrottledError);
    await expect(call).rejects.toMatchObject({ retryAfterMs: 7000, status: 429 });
    await expect(call).rejects.toThrow(/rate_limit_error: Number of request tokens/);
    expect(server.received).toHaveLength(1);
  });

  it('retries 529 overloaded_error and 500 api_error, then gives up with a transient error', async () => {
    server.script.push(apiError(529, 'overloaded_error', 'Overloaded'), textMessage('after the storm'));
    expect((await complete()).text).toBe('after the storm');
    expect(server.received).toHaveLength(2);
    server.received.length = 0;
    server.script.push(
      apiError(529, 'overloaded_error', 'Overloaded'),
      apiError(500, 'api_error', 'Internal server error'),
      apiError(529, 'overloaded_error', 'Overloaded'),
    );
    const call = complete();
    await expect(call).rejects.toBeInstanceOf(TransientProviderError);
    await expect(call).rejects.toThrow(/after 3 attempts \(529: overloaded_error: Overloaded\)/);
    expect(server.received).toHaveLength(3);
  });

  it("treats Anthropic's 4xx refusals as permanent, without retrying, and keeps its message", async () => {
    server.script.push(apiError(400, 'invalid_request_error', 'prompt is too long: 215000 tokens > 200000 maximum'));
    await expect(complete()).rejects.toThrow(/400: invalid_request_error: prompt is too long/);
    const unknown = { ...haiku, id: 'anthropic/claude-nonexistent-1' };
    await expect(provider().text.complete({ model: unknown, prompt: 'x', seed: 's' })).rejects.toThrow(
      /404: not_found_error: model: claude-nonexistent-1/,
    );
    server.script.push(apiError(403, 'permission_error', 'Your API key does not have permission to use the specified resource.'));
    await expect(complete()).rejects.toBeInstanceOf(PermanentProviderError);
    expect(server.received).toHaveLength(3);
  });

  it('never repeats the API key in an error, even when the server echoes it', async () => {
    const wrong = 'sk-ant-wrong-key-0123456789';
    const call = createAnthropicProvider({ baseUrl: server.baseUrl, apiKey: wrong }).text.complete({
      model: haiku,
      prompt: 'x',
      seed: 's',
    });
    await expect(call).rejects.toBeInstanceOf(PermanentProviderError);
    await expect(call).rejects.toThrow(/401: authentication_error: invalid x-api-key/);
    server.script.push(apiError(400, 'invalid_request_error', `bad header x-api-key: ${KEY}`));
    const echoed = await complete().catch((err: Error) => err.message);
    expect(echoed).toMatch(/\[redacted\]/);
    expect(echoed).not.toContain(KEY);
  });

  it('times out a hanging call and reports it as transient', async () => {
    server.script.push({ delayMs: 800, ...textMessage('late') }, { delayMs: 800, ...textMessage('late') });
    await expect(provider({ timeoutMs: 200, maxAttempts: 2 }).text.complete({ model: haiku, prompt: 'x', seed: 's' })).rejects.toThrow(
      /timed out after 200 ms/,
    );
  });

  it('treats a malformed 200 as transient', async () => {
    server.script.push({ raw: 'not json at all' });
    await expect(complete()).rejects.toBeInstanceOf(TransientProviderError);
  });
});

describe('the anthropic classifier', () => {
  const classify = (policy: 'safety' | 'quality', text: string) =>
    provider().classifier.classify({ model: classifierModel, policy, text, idempotencyKey: 'run:2:gate:quality' });

  it('forces the verdict tool on the API model behind the registry entry, and prices the call', async () => {
    server.script.push(toolUseMessage('verdict', { pass: false, reasons: ['placeholder_text'] }, { input_tokens: 400, output_tokens: 40 }));
    const verdict = await classify('quality', '{"title":"TODO"}');
    // 400 input and 40 output tokens at 0.001 and 0.005 USD per 1k.
    expect(verdict).toEqual({
      pass: false,
      reasons: ['placeholder_text'],
      verdict: 'fails the quality policy: placeholder text',
      costUsd: 0.0006,
    });
    const [req] = server.received;
    expect(req).toMatchObject({ apiKey: KEY, idempotencyKey: 'run:2:gate:quality' });
    expect(req!.body).toMatchObject({ model: 'claude-haiku-4-5', max_tokens: 1024, tool_choice: { type: 'tool', name: 'verdict' } });
    expect(req!.body.tools[0].input_schema.required).toEqual(['pass', 'reasons']);
    expect(req!.body.messages[0].content).toContain('<work>\n{"title":"TODO"}\n</work>');
  });

  it('passes work the model passes', async () => {
    server.script.push(toolUseMessage('verdict', { pass: true, reasons: [] }));
    expect(await classify('safety', 'A watercolour fox.')).toMatchObject({ pass: true, reasons: [], verdict: 'passes the safety policy' });
  });

  it('fails work the model declines to judge, and a verdict without a boolean is transient', async () => {
    server.script.push({ body: { ...textMessage('').body, content: [], stop_reason: 'refusal' } });
    expect(await classify('safety', '...')).toMatchObject({ pass: false, reasons: ['classifier_refused'] });
    server.script.push(toolUseMessage('verdict', { reasons: [] }));
    await expect(classify('safety', '...')).rejects.toBeInstanceOf(TransientProviderError);
  });
});

describe('anthropic settings and models', () => {
  it('are enabled by ANTHROPIC_API_KEY alone, with the public base URL by default', () => {
    const from = (values: Record<string, string>) => anthropicProvider.fromSettings((name) => values[name]);
    expect(from({ ANTHROPIC_BASE_URL: 'http://proxy.example' })).toBeUndefined();
    expect(from({ ANTHROPIC_API_KEY: 'k' })).toEqual({ baseUrl: 'https://api.anthropic.com', apiKey: 'k' });
    expect(from({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'http://proxy.example', ANTHROPIC_TIMEOUT_MS: '5000' })).toEqual({
      baseUrl: 'http://proxy.example',
      apiKey: 'k',
      timeoutMs: 5000,
    });
  });

  it('list Claude text models with json-schema, and the classifier, only when the provider is configured', () => {
    const registry = buildModelRegistry(['anthropic']);
    const anthropic = registry.models.filter((m) => m.provider === 'anthropic');
    expect(anthropic.map((m) => m.id)).toEqual(
      expect.arrayContaining(['anthropic/claude-sonnet-4-5', 'anthropic/claude-haiku-4-5', 'anthropic/claude-opus-4-1']),
    );
    // Text models go through Message Batches in batch mode.
    for (const m of anthropic.filter((m) => m.kind === 'text'))
      expect(m).toMatchObject({ capabilities: ['text', 'json-schema'], batch: true });
    for (const m of anthropic.filter((m) => m.snapshotOf)) expect(registry.get(m.snapshotOf!)?.pricing).toEqual(m.pricing);
    expect(registry.bindingProblem('classifier', 'anthropic/claude-haiku-4-5:classifier')).toBeNull();
    expect(buildModelRegistry([]).get('anthropic/claude-haiku-4-5')).toBeUndefined();
  });
});

describe('the anthropic provider streaming a text step', () => {
  const text = 'A streamed answer, long enough to come in many pieces: héllo wörld 😀 and more.';
  const streamed = async (extra: Record<string, unknown> = {}) => {
    const pieces: string[] = [];
    const answer = await complete({ ...extra, onDelta: (t: string) => pieces.push(t) });
    return { answer, pieces };
  };

  it('asks for a stream, hands on each text piece, and answers exactly as without streaming', async () => {
    const cached = () => {
      const m = textMessage(text, { input_tokens: 1234, output_tokens: 567 });
      Object.assign(m.body.usage!, { cache_read_input_tokens: 100 });
      return m;
    };
    server.script.push(cached(), cached());
    const { answer, pieces } = await streamed();
    const plain = await complete();
    expect(answer).toEqual(plain);
    expect(answer).toMatchObject({ text, inputTokens: 1334, outputTokens: 567 });
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.join('')).toBe(text);
    expect(server.received[0]!.body.stream).toBe(true);
    expect(server.received[1]!.body.stream).toBeUndefined();
  });

  it('streams the forced tool call input, and returns the validated JSON as without streaming', async () => {
    const schema = { type: 'array', items: { type: 'string' } };
    server.script.push(toolUseMessage('step_output', { value: ['a', 'b'] }), toolUseMessage('step_output', { value: ['a', 'b'] }));
    const { answer, pieces } = await streamed({ jsonSchema: schema });
    expect(answer).toEqual(await complete({ jsonSchema: schema }));
    expect(answer.text).toBe('["a","b"]');
    expect(pieces.join('')).toBe('{"value":["a","b"]}');
  });

  it('estimates usage a stream lacks, and keeps max_tokens and refusals as without streaming', async () => {
    server.script.push(textMessage('x'.repeat(400), null));
    expect((await streamed()).answer.outputTokens).toBe(100);
    server.script.push(cutMessage());
    await expect(streamed({ jsonSchema: { type: 'object', properties: {} } })).rejects.toThrow(/max_tokens/);
    server.script.push({ body: { ...textMessage('').body, content: [], stop_reason: 'refusal' } });
    await expect(streamed()).rejects.toBeInstanceOf(PermanentProviderError);
  });

  it('behaves as today on a 429 or 5xx before the stream begins: back-pressure, retried 529', async () => {
    server.script.push(apiError(429, 'rate_limit_error', 'slow down', { 'retry-after': '3' }));
    const throttled = streamed();
    await expect(throttled).rejects.toBeInstanceOf(ProviderThrottledError);
    await expect(throttled).rejects.toMatchObject({ retryAfterMs: 3000 });
    server.received.length = 0;
    server.script.push(apiError(529, 'overloaded_error', 'Overloaded'), textMessage(text));
    const { answer, pieces } = await streamed();
    expect(answer.text).toBe(text);
    expect(pieces.join('')).toBe(text);
    expect(server.received).toHaveLength(2);
  });

  it('treats a stream cut part-way, or ending in an error event, as transient, without calling again within the call', async () => {
    server.script.push({ ...textMessage(text), cutAfterFrames: 6, frameDelayMs: 5 });
    const pieces: string[] = [];
    const call = complete({ onDelta: (t: string) => pieces.push(t) });
    await expect(call).rejects.toBeInstanceOf(TransientProviderError);
    expect(pieces.length).toBeGreaterThan(0);
    expect(server.received).toHaveLength(1);
    server.script.push({
      headers: { 'content-type': 'text/event-stream' },
      raw:
        sseEvent({ type: 'message_start', message: { ...textMessage('').body, content: [], stop_reason: null } }) +
        sseEvent({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
    });
    await expect(streamed()).rejects.toThrow(/overloaded_error: Overloaded/);
    expect(server.received).toHaveLength(2);
  });
});
