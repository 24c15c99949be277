import type { Span } from '@opentelemetry/api';
import { traceProviderCall } from '../tracing.js';
import { attempt as attemptOnce, parseJsonAnswer, retryAfterOf, TryAgain, withRetries } from './http-attempt.js';
import { providerFetch } from './http-transport.js';
import { PermanentProviderError, ProviderThrottledError, TransientProviderError } from './types.js';

/** One JSON POST to a provider's HTTP API, as every adapter makes it. */
export interface JsonCall {
  baseUrl: string;
  path: string;
  body: unknown;
  /** POST unless said; a GET sends no body. */
  method?: 'GET' | 'POST';
  /** A multipart body (a file upload) instead of JSON. */
  form?: FormData;
  /** `text`: the answer's body as it is (a JSONL file), not parsed. */
  answer?: 'json' | 'text';
  timeoutMs: number;
  signal?: AbortSignal;
  /** Sent as `Idempotency-Key` (the same on every attempt), for APIs that answer a repeated call from the first. */
  idempotencyKey?: string;
  /** The provider's own headers, the same on every attempt: its authentication, its API version. */
  headers: Record<string, string>;
  /** Attempts for 5xx, timeouts and network errors, before the engine's own retries (429s are the capacity layer's). */
  maxAttempts?: number;
  /**
   * Values never to repeat in an error (the API key): a proxy or a misconfigured server may echo a header
   * back in its error body, and error messages end up in run records and logs.
   */
  secrets?: readonly string[];
}

const RETRYABLE = (status: number) => status >= 500;

/**
 * The message of an error body: `{ error: { message } }` is the shape of OpenAI's API, of Anthropic's
 * (`{ type: 'error', error: { type, message } }`) and of Google's (`{ error: { code, message, status } }`). Anthropic's error type goes in front, since its message
 * alone does not always say what kind of refusal it was (`overloaded_error`, `permission_error`).
 */
function errorMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { type?: unknown; error?: { type?: unknown; message?: unknown; status?: unknown } };
    const error = body.error;
    if (typeof error?.message !== 'string') return text;
    if (body.type === 'error' && typeof error.type === 'string') return `${error.type}: ${error.message}`;
    // Google's google.rpc.Status names its kind (INVALID_ARGUMENT, RESOURCE_EXHAUSTED) beside the message.
    return typeof error.status === 'string' ? `${error.status}: ${error.message}` : error.message;
  } catch {
    return text;
  }
}

function redact(message: string, secrets: readonly string[] | undefined): string {
  let clean = message;
  for (const secret of secrets ?? []) if (secret) clean = clean.split(secret).join('[redacted]');
  return clean;
}

/**
 * POSTs JSON with a per-request timeout, retrying 5xx and network failures with exponential backoff
 * (honouring Retry-After). What is still failing after the last attempt is transient (the engine retries
 * the step later); 4xx refusals are permanent. A 429 is thrown at once as ProviderThrottledError: the
 * capacity layer waits it out for the whole call, without counting it a failure. When tracing is on, the
 * call (all its attempts) is one client span of the step's trace, and the W3C trace headers go along.
 */
export async function postJsonWithRetries(call: JsonCall): Promise<unknown> {
  const url = `${call.baseUrl.replace(/\/$/, '')}${call.path}`;
  const method = call.method ?? 'POST';
  return traceProviderCall({ method, url, path: call.path }, async (traceHeaders, span) => {
    const headers = callHeaders(
      call,
      traceHeaders,
      span,
      // A multipart body's content type, its boundary included, comes from its encoder (http-transport.ts).
      method === 'POST' && !call.form ? { 'content-type': 'application/json' } : {},
    );
    return attempts(
      call,
      url,
      headers,
      (attempt) => span?.setAttribute('atelier.provider.attempts', attempt),
      (response) => (call.answer === 'text' ? response.text() : readJson(response, call.path)),
    );
  });
}

/** One server-sent event: its `event` field (`message` when it has none) and its data lines joined. */
export interface SseMessage {
  event: string;
  data: string;
}

/**
 * POSTs JSON that asks for a stream of server-sent events, and hands each event to `onEvent` as it
 * arrives. Until the stream begins (a 2xx answer) it is postJsonWithRetries: timeouts, retries of 5xx and
 * network errors, a 429 as ProviderThrottledError, 4xx permanent. Once begun it is never retried within
 * the call (its pieces were handed on): a stream that breaks (the connection lost, the timeout, which
 * bounds the whole call) is transient, and so is anything `onEvent` throws that is not a provider error.
 * Resolves with undefined when the stream ended, and with the JSON body of a server that answered without
 * streaming (a compatible server that ignores `stream`), for the caller to read as a whole answer. Whether
 * the stream was complete (its last event came) is the caller's to judge.
 */
export async function postStreamWithRetries(call: JsonCall, onEvent: (event: SseMessage) => void): Promise<unknown> {
  const url = `${call.baseUrl.replace(/\/$/, '')}${call.path}`;
  return traceProviderCall({ method: 'POST', url, path: call.path }, async (traceHeaders, span) => {
    const headers = callHeaders(call, traceHeaders, span, { 'content-type': 'application/json', accept: 'text/event-stream' });
    return attempts(
      call,
      url,
      headers,
      (attempt) => span?.setAttribute('atelier.provider.attempts', attempt),
      async (response) => {
        if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) return readJson(response, call.path);
        await readEvents(response, onEvent, call);
        return undefined;
      },
    );
  });
}

/**
 * The headers of every attempt of a call: what its kind of request needs, the trace's, the idempotency key,
 * then the provider's own (its authentication) last, so nothing overrides them. The model goes on the span.
 */
function callHeaders(
  call: JsonCall,
  traceHeaders: Record<string, string>,
  span: Span | undefined,
  kind: Record<string, string>,
): Record<string, string> {
  const model = (call.body as { model?: unknown } | null)?.model;
  if (span && typeof model === 'string') span.setAttribute('gen_ai.request.model', model);
  return {
    ...kind,
    ...traceHeaders,
    ...(call.idempotencyKey ? { 'idempotency-key': call.idempotencyKey } : {}),
    ...call.headers,
  };
}

async function readJson(response: Response, path: string): Promise<unknown> {
  return parseJsonAnswer(await response.text(), 'the provider', path, response.status);
}

/** Reads a `text/event-stream` body to its end (the SSE format: `field: value` lines, a blank line ends an event). */
async function readEvents(response: Response, onEvent: (event: SseMessage) => void, call: JsonCall): Promise<void> {
  const reader = response.body?.getReader();
  if (!reader) return;
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  const line = (text: string) => {
    if (text === '') {
      if (data.length > 0) onEvent({ event: event || 'message', data: data.join('\n') });
      event = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? '' : text.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      // A trailing \r may be the first half of a \r\n: held until the next read says.
      const held = !done && buffer.endsWith('\r') ? '\r' : '';
      const lines = buffer.slice(0, buffer.length - held.length).split(/\r\n|\n|\r/);
      buffer = (done ? '' : (lines.pop() ?? '')) + held;
      for (const text of lines) line(text);
      // An event the stream ends in the middle of is not dispatched (as an EventSource would not).
      if (done) return;
    }
  } catch (err) {
    if (call.signal?.aborted) throw err;
    if (err instanceof TransientProviderError || err instanceof PermanentProviderError) throw err;
    throw new TransientProviderError(`the stream from ${call.path} broke: ${redact((err as Error).message, call.secrets)}`.slice(0, 300));
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

async function attempts<T>(
  call: JsonCall,
  url: string,
  headers: Record<string, string>,
  onAttempt: (attempt: number) => void,
  read: (response: Response) => Promise<T>,
): Promise<T> {
  const { timeoutMs, signal } = call;
  return withRetries('the provider', call.maxAttempts ?? 3, signal, async (attempt) => {
    onAttempt(attempt);
    const response = await attemptOnce(
      (bound) =>
        providerFetch(url, {
          method: call.method ?? 'POST',
          headers,
          ...(call.method === 'GET' ? {} : { body: call.form ?? JSON.stringify(call.body) }),
          signal: bound,
        }),
      timeoutMs,
      signal,
      (message) => redact(message, call.secrets),
    );
    if ('noAnswer' in response) return new TryAgain(response.message);
    if (response.ok) return read(response);
    const text = await response.text();
    const message = redact(errorMessage(text), call.secrets);
    if (response.status === 429) throw new ProviderThrottledError(`429: ${message}`.slice(0, 300), retryAfterOf(response));
    if (!RETRYABLE(response.status)) throw new PermanentProviderError(`${response.status}: ${message}`.slice(0, 500), response.status);
    return new TryAgain(`${response.status}: ${message}`.slice(0, 300), retryAfterOf(response));
  });
}
