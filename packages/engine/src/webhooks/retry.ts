import { DEFAULT_WEBHOOK_RETRY, type WebhookRetrySettings } from './types.js';

/** What one answer (or failure to get one) means for the message. */
export type AttemptVerdict =
  | { kind: 'delivered' }
  /** Worth another attempt; `delayMs` when the consumer said when (Retry-After). */
  | { kind: 'retry'; delayMs?: number }
  | { kind: 'final' };

/** 2xx delivered; 429 and 5xx retried (Retry-After honoured); 408 retried; any other 3xx/4xx final. */
export function verdictOf(status: number, retryAfter: string | null, now = Date.now()): AttemptVerdict {
  if (status >= 200 && status < 300) return { kind: 'delivered' };
  if (status === 429 || status === 408 || status >= 500) {
    const delayMs = retryAfter ? retryAfterMs(retryAfter, now) : undefined;
    return delayMs !== undefined ? { kind: 'retry', delayMs } : { kind: 'retry' };
  }
  return { kind: 'final' };
}

/** Retry-After as milliseconds from now: delta-seconds or an HTTP date; undefined when unreadable. */
export function retryAfterMs(value: string, now = Date.now()): number | undefined {
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

const positive = (value: string | undefined, name: string): number | undefined => {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number (got "${value}")`);
  return n;
};

/**
 * Retry settings over the defaults: ATELIER_WEBHOOK_RETRY_INITIAL_MS, ATELIER_WEBHOOK_RETRY_MAX_INTERVAL_MS,
 * ATELIER_WEBHOOK_RETRY_MAX_ATTEMPTS, ATELIER_WEBHOOK_ATTEMPT_TIMEOUT_MS; `given` (tests) wins over both.
 */
export function webhookRetrySettings(
  env: NodeJS.ProcessEnv = process.env,
  given: Partial<WebhookRetrySettings> = {},
): WebhookRetrySettings {
  const fromEnv: Partial<WebhookRetrySettings> = {};
  const initial = positive(env.ATELIER_WEBHOOK_RETRY_INITIAL_MS, 'ATELIER_WEBHOOK_RETRY_INITIAL_MS');
  const maxInterval = positive(env.ATELIER_WEBHOOK_RETRY_MAX_INTERVAL_MS, 'ATELIER_WEBHOOK_RETRY_MAX_INTERVAL_MS');
  const attempts = positive(env.ATELIER_WEBHOOK_RETRY_MAX_ATTEMPTS, 'ATELIER_WEBHOOK_RETRY_MAX_ATTEMPTS');
  const timeout = positive(env.ATELIER_WEBHOOK_ATTEMPT_TIMEOUT_MS, 'ATELIER_WEBHOOK_ATTEMPT_TIMEOUT_MS');
  if (initial !== undefined) fromEnv.initialIntervalMs = initial;
  if (maxInterval !== undefined) fromEnv.maximumIntervalMs = maxInterval;
  if (attempts !== undefined) fromEnv.maximumAttempts = Math.floor(attempts);
  if (timeout !== undefined) fromEnv.attemptTimeoutMs = timeout;
  const s = { ...DEFAULT_WEBHOOK_RETRY, ...fromEnv, ...given };
  return { ...s, maximumIntervalMs: Math.max(s.maximumIntervalMs, s.initialIntervalMs) };
}
