import { roundUsd, textCallCost } from '@atelier/domain';
import { type ImageProvider, type ProviderDefinition, type TextProvider, TransientProviderError } from '../types';
import { type OpenAiOptions, postJson } from './http';
import { msSetting } from '../settings';

export type { OpenAiOptions } from './http';

/** The model name the API knows: the registry id without its `openai/` prefix. */
const apiModel = (id: string) => id.replace(/^openai\//, '');

function mimeOf(bytes: Buffer): string {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.subarray(0, 4).toString('ascii') === 'RIFF' && bytes.subarray(8, 12).toString('ascii') === 'WEBP') return 'image/webp';
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'image/jpeg';
  return 'application/octet-stream';
}

/**
 * The `openai` provider: any OpenAI-compatible HTTP API (OpenAI, vLLM, Ollama...). Text uses chat
 * completions with structured outputs when the step has a jsonSchema; images use image generations.
 * Costs come from the usage the API reports, priced by the model registry. Every request carries the call's
 * idempotency key as `Idempotency-Key`: APIs and gateways that honour it (Stripe-style keys, the IETF
 * httpapi draft) answer a repeated call from the first one instead of charging twice; the others ignore it.
 */
export function createOpenAiProvider(opts: OpenAiOptions): { text: TextProvider; image: ImageProvider } {
  return {
    text: {
      async complete(req) {
        const answer = (await postJson(
          opts,
          '/chat/completions',
          {
            model: apiModel(req.model.id),
            messages: [{ role: 'user', content: req.prompt }],
            ...(req.jsonSchema
              ? { response_format: { type: 'json_schema', json_schema: { name: 'step_output', schema: req.jsonSchema, strict: false } } }
              : {}),
          },
          opts.textTimeoutMs ?? 60_000,
          req.signal,
          req.idempotencyKey,
        )) as { choices?: Array<{ message?: { content?: string } }>; usage?: { prompt_tokens?: number; completion_tokens?: number } };
        const text = answer.choices?.[0]?.message?.content;
        if (typeof text !== 'string') throw new TransientProviderError('the provider answered without a message');
        const inputTokens = answer.usage?.prompt_tokens ?? 0;
        const outputTokens = answer.usage?.completion_tokens ?? 0;
        // No usage (some compatible servers leave it out): the call was still paid for, at a cost not known.
        if (answer.usage?.prompt_tokens === undefined && answer.usage?.completion_tokens === undefined)
          return { text, inputTokens, outputTokens, costUsd: 0, unpriced: true };
        return { text, inputTokens, outputTokens, costUsd: textCallCost(req.model, inputTokens, outputTokens) };
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
