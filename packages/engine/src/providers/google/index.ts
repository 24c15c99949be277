import { createHash } from 'node:crypto';
import { roundUsd, textCallCost } from '@atelier/domain';
import { msSetting } from '../settings.js';
import {
  type Adapter,
  type ImageProvider,
  PermanentProviderError,
  type ProviderDefinition,
  type TextProvider,
  TransientProviderError,
} from '../types.js';
import { postStreamWithRetries } from '../http-call.js';
import { type GoogleOptions, callGoogle, predict } from './http.js';
import { apiModel, nearestAspectRatio } from './names.js';
import { createVeoJobs } from './video.js';

export type { GoogleOptions } from './http.js';
export { nearestAspectRatio } from './names.js';

/** Finish reasons that mean the model refused the content: asking again gives the same answer. */
const REFUSED = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'LANGUAGE']);

/** Google's rule of thumb: a token is about four characters. Only used when the answer reports no usage. */
const estimatedTokens = (text: string) => Math.ceil(text.length / 4);

/** generationConfig.seed is an int32: the step's seed string folded into one, so schema retries vary it. */
const seedOf = (seed: string) => createHash('sha256').update(seed).digest().readInt32BE(0);

interface GenerateContentResponse {
  candidates?: Array<{ content?: { parts?: Array<{ text?: string; thought?: boolean }> }; finishReason?: string }>;
  promptFeedback?: { blockReason?: string };
  usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number; thoughtsTokenCount?: number };
}

/**
 * generateContent streamed (`streamGenerateContent?alt=sse`): each event is a GenerateContentResponse with
 * the next piece of the answer, handed to `onDelta` (thoughts left out), and the pieces are put together as
 * the whole call would answer: the same text, finish reason and usage (which the last event carries).
 */
async function streamGenerateContent(
  opts: GoogleOptions,
  model: string,
  body: unknown,
  timeoutMs: number,
  onDelta: (text: string) => void,
  signal: AbortSignal | undefined,
  idempotencyKey: string | undefined,
): Promise<GenerateContentResponse> {
  let text = '';
  let finishReason: string | undefined;
  let usageMetadata: GenerateContentResponse['usageMetadata'];
  let promptFeedback: GenerateContentResponse['promptFeedback'];
  const whole = await postStreamWithRetries(
    {
      baseUrl: opts.baseUrl,
      path: `/v1beta/models/${encodeURIComponent(model)}:streamGenerateContent?alt=sse`,
      body,
      timeoutMs,
      signal,
      idempotencyKey,
      headers: { 'x-goog-api-key': opts.apiKey },
      maxAttempts: opts.maxAttempts,
      secrets: [opts.apiKey],
    },
    (event) => {
      let chunk: GenerateContentResponse;
      try {
        chunk = JSON.parse(event.data) as GenerateContentResponse;
      } catch {
        throw new TransientProviderError('Google streamed an event that is not JSON');
      }
      const candidate = chunk.candidates?.[0];
      for (const part of candidate?.content?.parts ?? [])
        if (!part.thought && typeof part.text === 'string' && part.text) {
          text += part.text;
          onDelta(part.text);
        }
      finishReason = candidate?.finishReason ?? finishReason;
      usageMetadata = chunk.usageMetadata ?? usageMetadata;
      promptFeedback = chunk.promptFeedback ?? promptFeedback;
    },
  );
  if (whole !== undefined) return whole as GenerateContentResponse;
  // A stream that ended without saying why it stopped was cut short.
  if (!finishReason && !promptFeedback?.blockReason) throw new TransientProviderError('the stream from Google ended before its last piece');
  return {
    candidates: [{ content: { parts: text ? [{ text }] : [] }, ...(finishReason ? { finishReason } : {}) }],
    ...(usageMetadata ? { usageMetadata } : {}),
    ...(promptFeedback ? { promptFeedback } : {}),
  };
}

function createText(opts: GoogleOptions): TextProvider {
  return {
    async complete(req) {
      const model = apiModel(req.model.id);
      const body = {
        contents: [{ role: 'user', parts: [{ text: req.prompt }] }],
        generationConfig: {
          seed: seedOf(req.seed),
          ...(req.jsonSchema ? { responseMimeType: 'application/json', responseJsonSchema: req.jsonSchema } : {}),
        },
      };
      const timeoutMs = opts.textTimeoutMs ?? 60_000;
      const answer = req.onDelta
        ? await streamGenerateContent(opts, model, body, timeoutMs, req.onDelta, req.signal, req.idempotencyKey)
        : ((await callGoogle(opts, {
            method: 'POST',
            path: `/v1beta/models/${encodeURIComponent(model)}:generateContent`,
            model,
            body,
            timeoutMs,
            signal: req.signal,
            idempotencyKey: req.idempotencyKey,
          })) as GenerateContentResponse);
      const blocked = answer.promptFeedback?.blockReason;
      if (blocked) throw new PermanentProviderError(`Google blocked the prompt (${blocked})`);
      const candidate = answer.candidates?.[0];
      if (candidate?.finishReason && REFUSED.has(candidate.finishReason))
        throw new PermanentProviderError(`Google refused to answer (finishReason ${candidate.finishReason})`);
      // Thinking models return their thoughts as parts marked `thought`; the answer is the rest.
      const parts = candidate?.content?.parts?.filter((p) => !p.thought && typeof p.text === 'string') ?? [];
      if (parts.length === 0) throw new TransientProviderError('Google answered without a candidate');
      const text = parts.map((p) => p.text).join('');
      const usage = answer.usageMetadata;
      // Thinking tokens are billed at the output rate. Without usage, the prompt and answer lengths stand in
      // for it rather than pricing the call at nothing.
      const inputTokens = usage?.promptTokenCount ?? estimatedTokens(req.prompt);
      const outputTokens =
        usage?.candidatesTokenCount !== undefined ? usage.candidatesTokenCount + (usage.thoughtsTokenCount ?? 0) : estimatedTokens(text);
      return { text, inputTokens, outputTokens, costUsd: textCallCost(req.model, inputTokens, outputTokens) };
    },
  };
}

interface PredictResponse {
  predictions?: Array<{ bytesBase64Encoded?: string; mimeType?: string; raiFilteredReason?: string }>;
}

function createImage(opts: GoogleOptions): ImageProvider {
  return {
    async generate(req) {
      const parameters = { sampleCount: 1, aspectRatio: nearestAspectRatio(req.width, req.height) };
      const answer = (await predict(opts, req, 'predict', parameters, opts.imageTimeoutMs ?? 120_000)) as PredictResponse;
      const image = answer.predictions?.find((p) => typeof p.bytesBase64Encoded === 'string');
      if (!image?.bytesBase64Encoded) {
        // Imagen leaves out images its safety filter blocked: the same prompt would be blocked again.
        const reason = answer.predictions?.find((p) => p.raiFilteredReason)?.raiFilteredReason;
        throw new PermanentProviderError(`Google returned no image${reason ? `: ${reason}` : ' (filtered by its safety checks)'}`);
      }
      return {
        bytes: Buffer.from(image.bytesBase64Encoded, 'base64'),
        mimeType: image.mimeType ?? 'image/png',
        // Imagen has no transparent output: the workflow removes the background afterwards.
        nativeTransparency: false,
        costUsd: roundUsd(req.model.pricing.per_image ?? 0),
      };
    },
  };
}

/**
 * The `google` provider: the Gemini API. Text with Gemini (structured output through responseJsonSchema
 * when the step has a jsonSchema), images with Imagen, videos with Veo as long-running operations (polled:
 * Veo announces nothing). Costs come from the usage the API reports, priced by the model registry.
 */
export function createGoogleProvider(opts: GoogleOptions): Adapter {
  return { text: createText(opts), image: createImage(opts), videoJobs: createVeoJobs(opts) };
}

/**
 * GEMINI_API_KEY (or GOOGLE_API_KEY, the name Google's own SDKs also read) enables the provider;
 * GEMINI_BASE_URL points it elsewhere (a proxy, a test server); GEMINI_TIMEOUT_MS bounds text calls.
 */
export const googleProvider: ProviderDefinition<GoogleOptions> = {
  fromSettings(settings) {
    const apiKey = settings('GEMINI_API_KEY') ?? settings('GOOGLE_API_KEY');
    if (!apiKey) return undefined;
    const textTimeoutMs = msSetting(settings, 'GEMINI_TIMEOUT_MS');
    return {
      baseUrl: settings('GEMINI_BASE_URL') ?? 'https://generativelanguage.googleapis.com',
      apiKey,
      ...(textTimeoutMs ? { textTimeoutMs } : {}),
    };
  },
  create: createGoogleProvider,
};
