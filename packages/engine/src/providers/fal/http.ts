import { traceProviderCall } from '../../tracing.js';
import { attempt as attemptOnce, jsonRequest, retryAfterOf, TryAgain, withRetries } from '../http-attempt.js';
import { outputFileUrl, readOutputFile } from '../output-file.js';
import { PermanentProviderError, ProviderThrottledError, TransientProviderError } from '../types.js';

export interface FalOptions {
  /** FAL_KEY, sent as `Authorization: Key <key>` to the queue only (never to media URLs). */
  apiKey: string;
  /** FAL_QUEUE_URL: the queue API's base, https://queue.fal.run unless set. */
  queueUrl: string;
  /** FAL_JWKS_URL: where fal publishes the public keys its webhooks are signed with. */
  jwksUrl: string;
  /** Bounds each queue API call (submit, status, result, cancel). */
  requestTimeoutMs?: number;
  /** Bounds each download of a finished image or video. */
  downloadTimeoutMs?: number;
  /** Attempts per call for 5xx, timeouts and network errors, before the engine's own retries (429s are the capacity layer's). */
  maxAttempts?: number;
}

export const DEFAULT_QUEUE_URL = 'https://queue.fal.run';
export const DEFAULT_JWKS_URL = 'https://rest.fal.ai/.well-known/jwks.json';

export interface FalCall {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  /** The URL's path with ids left as placeholders: the span name, so spans group by operation. */
  path: string;
  body?: unknown;
  signal?: AbortSignal;
  /**
   * A 5xx that is an answer rather than an outage: the stored outcome of a finished request (fal's request
   * errors carry `error_type`), which asking again would only repeat.
   */
  settled?: (status: number, body: unknown) => boolean;
}

/** A finished request's own failure (a runner error, a timeout on fal's side), as its result answers it. */
export class FalRequestFailed extends TransientProviderError {}

export interface FalAnswer {
  status: number;
  body: unknown;
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * fal's error bodies: `{detail: "..."}` for request errors (with `error_type`), `{detail: [{loc, msg, type}]}`
 * for a model's input validation. The message keeps fal's words; it never holds the key, which fal does not echo.
 */
export function falMessage(body: unknown, text: string): string {
  const detail = (body as { detail?: unknown } | undefined)?.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail))
    return detail
      .map((d: { loc?: unknown[]; msg?: unknown }) => {
        const at = Array.isArray(d?.loc) ? d.loc.filter((p) => p !== 'body').join('.') : '';
        return `${at ? `${at}: ` : ''}${typeof d?.msg === 'string' ? d.msg : JSON.stringify(d)}`;
      })
      .join('; ');
  return text;
}

/**
 * One call to fal's queue API with the key, a per-attempt timeout and retries of 5xx and network failures
 * (honouring Retry-After). A 429 is thrown at once as ProviderThrottledError for the capacity layer to wait
 * out; other 4xx are permanent, with fal's message; what still fails after the last attempt is transient.
 * Answers with any 2xx status and its JSON body. Traced as one client span, like the openai adapter's calls.
 */
export function falCall(opts: FalOptions, call: FalCall): Promise<FalAnswer> {
  return traceProviderCall({ method: call.method, url: call.url, path: call.path }, async (traceHeaders, span) => {
    const timeoutMs = opts.requestTimeoutMs ?? 30_000;
    return withRetries('fal', opts.maxAttempts ?? 3, call.signal, async (attempt) => {
      span?.setAttribute('atelier.provider.attempts', attempt);
      const response = await attemptOnce(
        (signal) =>
          fetch(
            call.url,
            jsonRequest(
              call.method,
              { accept: 'application/json', ...traceHeaders, authorization: `Key ${opts.apiKey}` },
              call.body,
              signal,
            ),
          ),
        timeoutMs,
        call.signal,
      );
      if ('noAnswer' in response) return new TryAgain(response.message);
      const text = await response.text();
      const body = parse(text);
      if (response.ok) {
        if (body === undefined) throw new TransientProviderError(`fal answered ${call.path} with a body that is not JSON`, response.status);
        return { status: response.status, body };
      }
      const message = `${response.status}: ${falMessage(body, text)}`;
      if (response.status === 429) throw new ProviderThrottledError(`fal: ${message}`.slice(0, 300), retryAfterOf(response));
      if (response.status < 500) throw new PermanentProviderError(`fal: ${message}`.slice(0, 500), response.status);
      if (call.settled?.(response.status, body)) throw new FalRequestFailed(`fal: ${message}`.slice(0, 500), response.status);
      return new TryAgain(message.slice(0, 300), retryAfterOf(response));
    });
  });
}

/**
 * Fetches a finished request's media from the URL fal's answer names (its CDN), without the key: the
 * key is for the queue API only. Bounded in time and size; a refusal (4xx) is permanent, anything else
 * transient (checking the job again downloads again).
 */
export async function download(
  url: string,
  maxBytes: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ bytes: Buffer; contentType?: string }> {
  const target = outputFileUrl("fal's media", url);
  const timeout = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(target, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new TransientProviderError(
      `downloading fal's media from ${target.host} ${timeout.aborted ? `timed out after ${timeoutMs} ms` : 'failed'}`,
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    const error = `downloading fal's media from ${target.host} answered ${response.status}`;
    throw response.status >= 400 && response.status < 500 && response.status !== 429
      ? new PermanentProviderError(error, response.status)
      : new TransientProviderError(error, response.status);
  }
  const bytes = await readOutputFile(response, maxBytes, "fal's media");
  return { bytes, contentType: response.headers.get('content-type') ?? undefined };
}
