import { traceProviderCall } from '../../tracing';
import { delay } from '../delay';
import { parseRetryAfter } from '../provider-limits';
import { PermanentProviderError, ProviderThrottledError, TransientProviderError } from '../types';

export interface OpenAiOptions {
  baseUrl: string;
  apiKey?: string;
  textTimeoutMs?: number;
  imageTimeoutMs?: number;
  /** Attempts per call for 5xx, timeouts and network errors, before the engine's own retries (429s are the capacity layer's). */
  maxAttempts?: number;
}

const RETRYABLE = (status: number) => status >= 500;

function backoff(attempt: number, retryAfter: string | null): number {
  const after = parseRetryAfter(retryAfter, Date.now());
  if (after !== undefined) return Math.min(20_000, after);
  return Math.min(20_000, 250 * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
}

/**
 * POSTs JSON to an OpenAI-compatible endpoint with a per-request timeout, retrying 5xx and network
 * failures with exponential backoff (honouring Retry-After). What is still failing after the last attempt
 * is transient (the engine retries the step later); 4xx refusals are permanent. A 429 is thrown at once as
 * ProviderThrottledError: the capacity layer waits it out for the whole call, without counting it a failure. When tracing
 * is on, the call (all its attempts) is one client span of the step's trace, and the W3C trace headers go along.
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
  const url = `${opts.baseUrl.replace(/\/$/, '')}${path}`;
  return traceProviderCall({ method: 'POST', url, path }, async (traceHeaders, span) => {
    const model = (body as { model?: unknown } | null)?.model;
    if (span && typeof model === 'string') span.setAttribute('gen_ai.request.model', model);
    const headers = idempotencyKey ? { ...traceHeaders, 'idempotency-key': idempotencyKey } : traceHeaders;
    return postWithRetries(opts, url, path, body, timeoutMs, signal, headers, (attempt) =>
      span?.setAttribute('atelier.provider.attempts', attempt),
    );
  });
}

async function postWithRetries(
  opts: OpenAiOptions,
  url: string,
  path: string,
  body: unknown,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  /** Trace context and idempotency key, the same on every attempt. */
  extraHeaders: Record<string, string>,
  onAttempt: (attempt: number) => void,
): Promise<unknown> {
  const attempts = opts.maxAttempts ?? 3;
  let last = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    onAttempt(attempt);
    const timeout = AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...extraHeaders,
          ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (err) {
      if (signal?.aborted) throw err;
      last = timeout.aborted ? `timed out after ${timeoutMs} ms` : (err as Error).message;
      if (attempt < attempts) await delay(backoff(attempt, null), signal);
      continue;
    }
    const text = await response.text();
    if (response.ok) {
      try {
        return JSON.parse(text);
      } catch {
        throw new TransientProviderError(`the provider answered ${path} with a body that is not JSON`, response.status);
      }
    }
    const message = (() => {
      try {
        return (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
      } catch {
        return text;
      }
    })();
    if (response.status === 429)
      throw new ProviderThrottledError(`429: ${message}`.slice(0, 300), parseRetryAfter(response.headers.get('retry-after'), Date.now()));
    if (!RETRYABLE(response.status)) throw new PermanentProviderError(`${response.status}: ${message}`.slice(0, 500), response.status);
    last = `${response.status}: ${message}`.slice(0, 300);
    if (attempt < attempts) await delay(backoff(attempt, response.headers.get('retry-after')), signal);
  }
  throw new TransientProviderError(`the provider kept failing after ${attempts} attempts (${last})`);
}
