import { type JsonCall, type SseMessage, postJsonWithRetries, postStreamWithRetries } from '../http-call.js';

export interface OpenAiOptions {
  baseUrl: string;
  apiKey?: string;
  textTimeoutMs?: number;
  imageTimeoutMs?: number;
  /** Attempts per call for 5xx, timeouts and network errors, before the engine's own retries (429s are the capacity layer's). */
  maxAttempts?: number;
}

/**
 * One call to an OpenAI-compatible endpoint as http-call.ts makes it (timeouts, retries, tracing),
 * authenticated with a bearer key when there is one: a compatible server may need none.
 */
export function openaiCall(opts: OpenAiOptions, path: string, call: Omit<JsonCall, 'baseUrl' | 'path' | 'headers' | 'secrets'>): JsonCall {
  return {
    maxAttempts: opts.maxAttempts,
    ...call,
    baseUrl: opts.baseUrl,
    path,
    headers: opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {},
    secrets: opts.apiKey ? [opts.apiKey] : [],
  };
}

/** POSTs JSON to an OpenAI-compatible endpoint. */
export async function postJson(
  opts: OpenAiOptions,
  path: string,
  body: unknown,
  timeoutMs: number,
  signal?: AbortSignal,
  /** Sent as `Idempotency-Key` (the same on every attempt), for APIs that answer a repeated call from the first. */
  idempotencyKey?: string,
): Promise<unknown> {
  return postJsonWithRetries(openaiCall(opts, path, { body, timeoutMs, signal, idempotencyKey }));
}

/** As postJson, asking for a stream of server-sent events (http-call.ts postStreamWithRetries). */
export async function postStream(
  opts: OpenAiOptions,
  path: string,
  body: unknown,
  timeoutMs: number,
  onEvent: (event: SseMessage) => void,
  signal?: AbortSignal,
  idempotencyKey?: string,
): Promise<unknown> {
  return postStreamWithRetries(openaiCall(opts, path, { body, timeoutMs, signal, idempotencyKey }), onEvent);
}
