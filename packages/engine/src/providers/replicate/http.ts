import { traceProviderCall } from '../../tracing.js';
import { attempt as attemptOnce, jsonRequest, parseJsonAnswer, retryAfterOf, TryAgain, withRetries } from '../http-attempt.js';
import { outputFileUrl, readOutputFile } from '../output-file.js';
import { PermanentProviderError, ProviderThrottledError, TransientProviderError } from '../types.js';

export interface ReplicateOptions {
  /** Without `/v1`: the paths carry it, as Replicate's own reference writes them. */
  baseUrl: string;
  apiToken: string;
  /** The account's webhook signing secret (`whsec_…`); fetched from the API once when not set. */
  webhookSecret?: string;
  /** Per request to the API (creating, reading and cancelling predictions). */
  timeoutMs?: number;
  /** Per output file download. */
  downloadTimeoutMs?: number;
  /** Attempts per call for 5xx and network failures, before the engine's own retries (429s are the capacity layer's). */
  maxAttempts?: number;
}

/** Output files larger than this are refused rather than held in memory (a 10 s 1080p clip is tens of MB). */
const MAX_DOWNLOAD_BYTES = 512 * 1024 * 1024;

/**
 * Replicate answers errors as problem details (`{title, detail, status}`, 422s add `invalid_fields`), and
 * its throttle as `{detail}` alone. The token is scrubbed in case an answer ever echoes the header.
 */
function problemMessage(text: string, token: string): string {
  let message = text;
  try {
    const problem = JSON.parse(text) as { title?: unknown; detail?: unknown };
    const title = typeof problem.title === 'string' ? problem.title : undefined;
    const detail = typeof problem.detail === 'string' ? problem.detail : undefined;
    if (title || detail) message = title && detail ? `${title}: ${detail}` : (title ?? detail)!;
  } catch {
    // Not JSON (a proxy's HTML page): the text itself, shortened below.
  }
  return token ? message.split(token).join('[token]') : message;
}

export interface ApiCall {
  method: 'GET' | 'POST';
  /** From `/v1/...`. */
  path: string;
  body?: unknown;
  signal?: AbortSignal;
  /**
   * Creating a prediction is the paid act: a request that timed out may have been accepted, so it is not
   * sent again from here (the engine's step retry decides). Reads and cancels are safe to repeat.
   */
  repeatAfterTimeout: boolean;
}

/**
 * One call to Replicate's HTTP API with `Authorization: Bearer`, retrying 5xx and network failures with
 * exponential backoff (honouring Retry-After). A 429 is thrown at once as ProviderThrottledError for the
 * capacity layer; other 4xx are permanent. Traced as one client span when tracing is on.
 */
export async function replicateApi(opts: ReplicateOptions, call: ApiCall): Promise<unknown> {
  const url = `${opts.baseUrl.replace(/\/$/, '')}${call.path}`;
  return traceProviderCall({ method: call.method, url, path: call.path }, async (traceHeaders, span) => {
    const timeoutMs = opts.timeoutMs ?? 30_000;
    return withRetries('Replicate', opts.maxAttempts ?? 3, call.signal, async (attempt) => {
      span?.setAttribute('atelier.provider.attempts', attempt);
      const response = await attemptOnce(
        (signal) => fetch(url, jsonRequest(call.method, { ...traceHeaders, authorization: `Bearer ${opts.apiToken}` }, call.body, signal)),
        timeoutMs,
        call.signal,
      );
      if ('noAnswer' in response) {
        if (response.timedOut && !call.repeatAfterTimeout) throw new TransientProviderError(`Replicate ${call.path}: ${response.message}`);
        return new TryAgain(response.message);
      }
      const text = await response.text();
      if (response.ok) return parseJsonAnswer(text, 'Replicate', call.path, response.status);
      const message = `${response.status}: ${problemMessage(text, opts.apiToken)}`;
      if (response.status === 429) throw new ProviderThrottledError(message.slice(0, 300), retryAfterOf(response));
      if (response.status < 500) throw new PermanentProviderError(message.slice(0, 500), response.status);
      return new TryAgain(message.slice(0, 300), retryAfterOf(response));
    });
  });
}

/**
 * The bytes of an output file. Replicate serves outputs from its delivery host without credentials, so the
 * token is never sent along (it would go to another host). Outputs of API predictions are deleted after an
 * hour: a 404 or 410 is permanent.
 */
export async function downloadOutput(
  opts: ReplicateOptions,
  fileUrl: string,
  signal?: AbortSignal,
): Promise<{ bytes: Buffer; mimeType: string }> {
  const parsed = outputFileUrl("Replicate's output file", fileUrl);
  const path = parsed.pathname;
  return traceProviderCall({ method: 'GET', url: `${parsed.origin}${path}`, path }, async (traceHeaders) => {
    const timeoutMs = opts.downloadTimeoutMs ?? 120_000;
    return withRetries("Replicate's output file", opts.maxAttempts ?? 3, signal, async () => {
      // Its own timeout rather than attemptOnce's: the timeout bounds reading the body too, not just the answer.
      const timeout = AbortSignal.timeout(timeoutMs);
      try {
        const response = await fetch(parsed, { headers: traceHeaders, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
        if (response.ok) {
          const bytes = await readOutputFile(response, MAX_DOWNLOAD_BYTES, "Replicate's output file");
          return { bytes, mimeType: response.headers.get('content-type')?.split(';')[0]?.trim() ?? 'application/octet-stream' };
        }
        await response.body?.cancel();
        if (response.status === 429) throw new ProviderThrottledError('429 on an output file', retryAfterOf(response));
        if (response.status < 500)
          throw new PermanentProviderError(
            `Replicate's output file answered ${response.status} (outputs are kept for an hour)`,
            response.status,
          );
        return new TryAgain(`${response.status}`, retryAfterOf(response));
      } catch (err) {
        if (signal?.aborted || err instanceof PermanentProviderError || err instanceof TransientProviderError) throw err;
        return new TryAgain(timeout.aborted ? `timed out after ${timeoutMs} ms` : (err as Error).message);
      }
    });
  });
}
