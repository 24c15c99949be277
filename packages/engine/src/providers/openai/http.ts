import { type SseMessage, postJsonWithRetries, postStreamWithRetries } from '../http-call';

export interface OpenAiOptions {
  baseUrl: string;
  apiKey?: string;
  textTimeoutMs?: number;
  imageTimeoutMs?: number;
  /** Attempts per call for 5xx, timeouts and network errors, before the engine's own retries (429s are the capacity layer's). */
  maxAttempts?: number;
}

/**
 * POSTs JSON to an OpenAI-compatible endpoint (http-call.ts: timeouts, retries, tracing), authenticated
 * with a bearer key when there is one: a compatible server may need none.
 */
export async function postJson(
  opts: OpenAiOptions,
  path: string,
  body: unknown,
  timeoutMs: number,
  signal?: AbortSignal,
  /** Sent as `Idempotency-Key` (the same on every attempt), for APIs that answer a repeated call from the first. */
  idempotencyKey?: string,
): Promise<unknown> {
  return postJsonWithRetries({
    baseUrl: opts.baseUrl,
    path,
    body,
    timeoutMs,
    signal,
    idempotencyKey,
    headers: opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {},
    maxAttempts: opts.maxAttempts,
    secrets: opts.apiKey ? [opts.apiKey] : [],
  });
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
  return postStreamWithRetries(
    {
      baseUrl: opts.baseUrl,
      path,
      body,
      timeoutMs,
      signal,
      idempotencyKey,
      headers: opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {},
      maxAttempts: opts.maxAttempts,
      secrets: opts.apiKey ? [opts.apiKey] : [],
    },
    onEvent,
  );
}
