import { delay } from './delay.js';
import { parseRetryAfter } from './provider-limits.js';
import { TransientProviderError } from './types.js';

/**
 * How long a provider call waits before its next attempt: what the provider asked for (Retry-After, or its
 * own hint) when it said, else from 250 ms doubling, jittered so callers that failed together spread out;
 * 20 s at the most either way, since the engine's own step retries take over beyond that.
 */
function backoffMs(attempt: number, hintMs: number | undefined): number {
  if (hintMs !== undefined) return Math.min(20_000, hintMs);
  return Math.min(20_000, 250 * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
}

/** The wait an answer's Retry-After header asks for, when it has one. */
export const retryAfterOf = (response: Response): number | undefined => parseRetryAfter(response.headers.get('retry-after'), Date.now());

/** A fetch of `method` with `headers`, sending `body` as JSON when there is one. */
export function jsonRequest(method: string, headers: Record<string, string>, body: unknown, signal: AbortSignal): RequestInit {
  if (body === undefined) return { method, headers, signal };
  return { method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body), signal };
}

/** An attempt that got no answer: the connection failed or its own timeout ran out. */
export interface NoAnswer {
  // A mark rather than `instanceof Response`: fetch's Response may come from another realm (undici's own).
  noAnswer: true;
  timedOut: boolean;
  message: string;
}

/**
 * One attempt of a provider call, bounded by its own timeout as well as the caller's signal. Getting no
 * answer is returned rather than thrown, for the caller's retry loop to weigh; only the caller's own abort
 * is thrown, since nothing should be retried then. `scrub` cleans the network error's words (of a key).
 */
export async function attempt(
  send: (signal: AbortSignal) => Promise<Response>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  scrub: (message: string) => string = (message) => message,
): Promise<Response | NoAnswer> {
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    return await send(signal ? AbortSignal.any([signal, timeout]) : timeout);
  } catch (err) {
    if (signal?.aborted) throw err;
    return timeout.aborted
      ? { noAnswer: true, timedOut: true, message: `timed out after ${timeoutMs} ms` }
      : { noAnswer: true, timedOut: false, message: scrub((err as Error).message) };
  }
}

/**
 * What an attempt answers when the call is worth trying again: why (the last reason goes into the final
 * error), and the wait the provider asked for, if it said. A class, not a marked object, because the values
 * attempts return are parsed answers of any shape, which a mark could be forged by.
 */
export class TryAgain {
  constructor(
    readonly reason: string,
    readonly notBeforeMs?: number,
  ) {}
}

/**
 * The retry loop every provider call runs: up to `attempts` tries of `once` (told which try it is), backing
 * off between them (for as long as a TryAgain asked, else exponentially), until one returns its value. What
 * `once` throws (a throttle, a refusal, the caller's abort) ends the call at once, and so does `signal`
 * aborting during a wait. When the last try still asks to be tried again, the call is transient, in words
 * that name `name` and the last reason.
 */
export async function withRetries<T>(
  name: string,
  attempts: number,
  signal: AbortSignal | undefined,
  once: (attempt: number) => Promise<T | TryAgain>,
): Promise<T> {
  let last = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const outcome = await once(attempt);
    if (!(outcome instanceof TryAgain)) return outcome;
    last = outcome.reason;
    if (attempt < attempts) await delay(backoffMs(attempt, outcome.notBeforeMs), signal);
  }
  throw new TransientProviderError(`${name} kept failing after ${attempts} attempts (${last})`);
}

/** A 2xx body that is not JSON is a fault on the provider's side (a proxy's page), worth trying again later. */
export function parseJsonAnswer(text: string, provider: string, path: string, status: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new TransientProviderError(`${provider} answered ${path} with a body that is not JSON`, status);
  }
}
