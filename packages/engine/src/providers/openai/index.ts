import { roundUsd } from '@atelier/domain';
import { type BatchProvider, type ImageProvider, type ProviderDefinition, type TextProvider, TransientProviderError } from '../types.js';
import { openaiBatches } from './batches.js';
import { type ChatCompletionBody, apiModel, chatCompletionOf, chatRequestBody } from './chat.js';
import { type OpenAiOptions, postJson, postStream } from './http.js';
import { msSetting } from '../settings.js';

export type { OpenAiOptions } from './http.js';

function mimeOf(bytes: Buffer): string {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.subarray(0, 4).toString('ascii') === 'RIFF' && bytes.subarray(8, 12).toString('ascii') === 'WEBP') return 'image/webp';
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'image/jpeg';
  return 'application/octet-stream';
}

interface ChatCompletionChunk {
  choices?: Array<{ delta?: { content?: string | null } }>;
  usage?: ChatCompletionBody['usage'];
  error?: { message?: string };
}

/**
 * A chat completion streamed (`stream: true`, its usage asked for in a last chunk with `stream_options`),
 * each piece of content handed to `onDelta`, and put together as the non-streaming call would answer: the
 * same content and usage. A stream that ends before `data: [DONE]`, or says it failed, is transient; a
 * server that answers without streaming is answered from its body.
 */
async function streamCompletion(
  opts: OpenAiOptions,
  body: Record<string, unknown>,
  timeoutMs: number,
  onDelta: (text: string) => void,
  signal?: AbortSignal,
  idempotencyKey?: string,
): Promise<ChatCompletionBody> {
  let content: string | undefined;
  let usage: ChatCompletionBody['usage'];
  let done = false;
  const whole = await postStream(
    opts,
    '/chat/completions',
    { ...body, stream: true, stream_options: { include_usage: true } },
    timeoutMs,
    (event) => {
      if (done) return;
      if (event.data === '[DONE]') {
        done = true;
        return;
      }
      let chunk: ChatCompletionChunk;
      try {
        chunk = JSON.parse(event.data) as ChatCompletionChunk;
      } catch {
        throw new TransientProviderError('the provider streamed a chunk that is not JSON');
      }
      if (chunk.error) throw new TransientProviderError(`the stream ended in an error: ${chunk.error.message ?? 'unknown'}`.slice(0, 300));
      const delta = chunk.choices?.[0]?.delta;
      if (delta) {
        content ??= '';
        if (typeof delta.content === 'string' && delta.content) {
          content += delta.content;
          onDelta(delta.content);
        }
      }
      if (chunk.usage) usage = chunk.usage;
    },
    signal,
    idempotencyKey,
  );
  if (whole !== undefined) return whole as ChatCompletionBody;
  if (!done) throw new TransientProviderError('the stream was cut before it ended ([DONE])');
  return { choices: content === undefined ? [] : [{ message: { content } }], usage };
}

/**
 * The `openai` provider: any OpenAI-compatible HTTP API (OpenAI, vLLM, Ollama...). Text uses chat
 * completions with structured outputs when the step has a jsonSchema; images use image generations.
 * Costs come from the usage the API reports, priced by the model registry. Every request carries the call's
 * idempotency key as `Idempotency-Key`: APIs and gateways that honour it (Stripe-style keys, the IETF
 * httpapi draft) answer a repeated call from the first one instead of charging twice; the others ignore it.
 */
export function createOpenAiProvider(opts: OpenAiOptions): { text: TextProvider; image: ImageProvider; batches: BatchProvider } {
  return {
    batches: openaiBatches(opts),
    text: {
      async complete(req) {
        const body = chatRequestBody(req);
        const timeoutMs = opts.textTimeoutMs ?? 60_000;
        const answer = (
          req.onDelta
            ? await streamCompletion(opts, body, timeoutMs, req.onDelta, req.signal, req.idempotencyKey)
            : await postJson(opts, '/chat/completions', body, timeoutMs, req.signal, req.idempotencyKey)
        ) as ChatCompletionBody;
        return chatCompletionOf(req.model, answer);
      },
    },
    image: {
      async generate(req) {
        const native = req.transparentBackground && req.model.capabilities.includes('transparency');
        const answer = (await postJson(
          opts,
          '/images/generations',
          {
            model: apiModel(req.model.id),
            prompt: req.prompt,
            size: `${req.width}x${req.height}`,
            n: 1,
            response_format: 'b64_json',
            ...(native ? { background: 'transparent' } : {}),
          },
          opts.imageTimeoutMs ?? 120_000,
          req.signal,
          req.idempotencyKey,
        )) as { data?: Array<{ b64_json?: string }> };
        const b64 = answer.data?.[0]?.b64_json;
        if (typeof b64 !== 'string') throw new TransientProviderError('the provider answered without an image');
        const bytes = Buffer.from(b64, 'base64');
        return { bytes, mimeType: mimeOf(bytes), nativeTransparency: native, costUsd: roundUsd(req.model.pricing.per_image ?? 0) };
      },
    },
  };
}

/**
 * OPENAI_API_KEY and/or OPENAI_BASE_URL enable the provider (a base URL alone: a compatible server that
 * needs no key); OPENAI_TIMEOUT_MS bounds text calls.
 */
export const openaiProvider: ProviderDefinition<OpenAiOptions> = {
  fromSettings(settings) {
    const apiKey = settings('OPENAI_API_KEY');
    const baseUrl = settings('OPENAI_BASE_URL');
    if (!apiKey && !baseUrl) return undefined;
    const textTimeoutMs = msSetting(settings, 'OPENAI_TIMEOUT_MS');
    return { baseUrl: baseUrl ?? 'https://api.openai.com/v1', apiKey, ...(textTimeoutMs ? { textTimeoutMs } : {}) };
  },
  create: createOpenAiProvider,
};
