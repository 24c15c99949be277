import { traceProviderCall } from '../../tracing.js';
import { attempt as attemptOnce, jsonRequest, parseJsonAnswer, TryAgain, withRetries } from '../http-attempt.js';
import { outputFileUrl, readOutputFile } from '../output-file.js';
import { parseRetryAfter } from '../provider-limits.js';
import { PermanentProviderError, ProviderThrottledError, TransientProviderError } from '../types.js';
import { apiModel } from './names.js';

export interface GoogleOptions {
  /** The Gemini API's origin; paths (`/v1beta/models/...`) are appended to it. */
  baseUrl: string;
  apiKey: string;
  textTimeoutMs?: number;
  imageTimeoutMs?: number;
  /** Bounds each operation check and the download of a finished video. */
  videoTimeoutMs?: number;
  /** Attempts per call for 5xx, timeouts and network errors, before the engine's own retries (429s are the capacity layer's). */
  maxAttempts?: number;
}

/** The body of every Gemini API error: a google.rpc.Status with its HTTP code and canonical status name. */
interface GoogleStatus {
  code?: number;
  message?: string;
  status?: string;
  details?: Array<{ '@type'?: string; retryDelay?: string }>;
}

/** A finished clip larger than this is refused rather than held in memory (Veo's 8 s 1080p clips are a few MB). */
const MAX_FILE_BYTES = 512 * 1024 * 1024;

/** 5xx, and ABORTED (409): Google's guidance is to retry a request aborted by a concurrent change. */
const RETRYABLE = (status: number) => status >= 500 || status === 409;

/** google.protobuf.Duration in JSON: seconds with an `s`, e.g. "12s" or "0.5s". */
export function parseRetryDelay(value: unknown): number | undefined {
  const match = typeof value === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(value.trim()) : null;
  return match ? Number(match[1]) * 1000 : undefined;
}

/**
 * How long Google asks a caller to wait: the Retry-After header when one came, otherwise the RetryInfo
 * detail that quota errors carry in the body.
 */
function retryAfterMs(headers: Headers, status: GoogleStatus | undefined): number | undefined {
  const header = parseRetryAfter(headers.get('retry-after'), Date.now());
  if (header !== undefined) return header;
  const info = status?.details?.find((d) => d['@type']?.endsWith('google.rpc.RetryInfo'));
  return parseRetryDelay(info?.retryDelay);
}

/** Whatever Google says, the key never leaves in a message: some proxies echo the request back. */
export function withoutKey(opts: GoogleOptions, text: string): string {
  return opts.apiKey ? text.split(opts.apiKey).join('[redacted]') : text;
}

function readStatus(text: string): GoogleStatus | undefined {
  try {
    const parsed = JSON.parse(text) as { error?: GoogleStatus } | Array<{ error?: GoogleStatus }>;
    // Some Google front ends wrap the status in a one-element array.
    return (Array.isArray(parsed) ? parsed[0]?.error : parsed.error) ?? undefined;
  } catch {
    return undefined;
  }
}

function describe(opts: GoogleOptions, httpStatus: number, text: string, status: GoogleStatus | undefined): string {
  const name = status?.status ? ` ${status.status}` : '';
  return withoutKey(opts, `${httpStatus}${name}: ${status?.message ?? text}`).slice(0, 500);
}

export interface GoogleCall {
  method: 'GET' | 'POST';
  /** From the origin, e.g. `/v1beta/models/gemini-2.5-flash:generateContent`. */
  path: string;
  body?: unknown;
  timeoutMs: number;
  signal?: AbortSignal;
  /** For the trace: the API's model name. */
  model?: string;
  /** Sent as `Idempotency-Key`, the same on every attempt; Google ignores it, gateways in front of it may not. */
  idempotencyKey?: string;
}

/**
 * One Gemini API call with a per-request timeout, retrying 5xx and network failures with exponential
 * backoff (honouring Retry-After or RetryInfo). The key goes in `x-goog-api-key`, never in the URL, so
 * traces and errors, which name the URL, never carry it. A 429 is thrown at once as
 * ProviderThrottledError for the capacity layer; other 4xx refusals are permanent; what still fails after
 * the last attempt is transient.
 */
export async function callGoogle(opts: GoogleOptions, call: GoogleCall): Promise<unknown> {
  const url = `${opts.baseUrl.replace(/\/$/, '')}${call.path}`;
  return traceProviderCall({ method: call.method, url, path: call.path }, async (traceHeaders, span) => {
    if (span && call.model) span.setAttribute('gen_ai.request.model', call.model);
    const headers: Record<string, string> = {
      ...traceHeaders,
      ...(call.idempotencyKey ? { 'idempotency-key': call.idempotencyKey } : {}),
      'x-goog-api-key': opts.apiKey,
    };
    return withRetries('Google', opts.maxAttempts ?? 3, call.signal, async (attempt) => {
      span?.setAttribute('atelier.provider.attempts', attempt);
      const response = await attemptOnce(
        (signal) => fetch(url, jsonRequest(call.method, headers, call.body, signal)),
        call.timeoutMs,
        call.signal,
        (message) => withoutKey(opts, message),
      );
      if ('noAnswer' in response) return new TryAgain(response.message);
      const text = await response.text();
      if (response.ok) return parseJsonAnswer(text, 'Google', call.path, response.status);
      const status = readStatus(text);
      const message = describe(opts, response.status, text, status);
      if (response.status === 429) throw new ProviderThrottledError(message, retryAfterMs(response.headers, status));
      if (!RETRYABLE(response.status)) throw new PermanentProviderError(message, response.status);
      return new TryAgain(message, retryAfterMs(response.headers, status));
    });
  });
}

/** What a prediction asks: the registry's model, one prompt, and the step's signal and idempotency key. */
export interface PredictionAsked {
  model: { id: string };
  prompt: string;
  signal?: AbortSignal;
  idempotencyKey?: string;
}

/** A model's prediction (Imagen's `:predict`, Veo's `:predictLongRunning`): the prompt as its one instance. */
export function predict(
  opts: GoogleOptions,
  req: PredictionAsked,
  method: 'predict' | 'predictLongRunning',
  parameters: Record<string, unknown>,
  timeoutMs: number,
): Promise<unknown> {
  const model = apiModel(req.model.id);
  return callGoogle(opts, {
    method: 'POST',
    path: `/v1beta/models/${encodeURIComponent(model)}:${method}`,
    model,
    body: { instances: [{ prompt: req.prompt }], parameters },
    timeoutMs,
    ...(req.signal ? { signal: req.signal } : {}),
    ...(req.idempotencyKey ? { idempotencyKey: req.idempotencyKey } : {}),
  });
}

/**
 * The bytes of a file the API made (a finished video), following redirects by hand: the key goes only to
 * the API's own origin, never to the storage host a download is redirected to.
 */
export async function downloadFile(opts: GoogleOptions, uri: string, timeoutMs: number, signal?: AbortSignal): Promise<Buffer> {
  const origin = new URL(opts.baseUrl).origin;
  let target = outputFileUrl("Google's file", uri, opts.baseUrl);
  const path = target.pathname;
  return traceProviderCall({ method: 'GET', url: `${target.origin}${target.pathname}`, path }, async (traceHeaders) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const bound = signal ? AbortSignal.any([signal, timeout]) : timeout;
    for (let hop = 0; hop < 5; hop++) {
      let response: Response;
      try {
        response = await fetch(target, {
          headers: { ...traceHeaders, ...(target.origin === origin ? { 'x-goog-api-key': opts.apiKey } : {}) },
          redirect: 'manual',
          signal: bound,
        });
      } catch (err) {
        if (signal?.aborted) throw err;
        throw new TransientProviderError(
          timeout.aborted
            ? `downloading ${path} timed out after ${timeoutMs} ms`
            : `downloading ${path} failed: ${withoutKey(opts, (err as Error).message)}`,
        );
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        target = outputFileUrl(`Google's redirect for ${path}`, location, target.href);
        continue;
      }
      if (response.ok) return readOutputFile(response, MAX_FILE_BYTES, `Google's file ${path}`);
      const text = await response.text();
      const message = `downloading ${path}: ${describe(opts, response.status, text, readStatus(text))}`;
      if (response.status === 429) throw new ProviderThrottledError(message, retryAfterMs(response.headers, readStatus(text)));
      // The file of a finished operation can be fetched again later: even a 4xx here may pass on a retry of the step.
      throw new TransientProviderError(message, response.status);
    }
    throw new TransientProviderError(`downloading ${path} was redirected too many times`);
  });
}
