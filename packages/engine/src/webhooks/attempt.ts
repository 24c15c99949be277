import { performance } from 'node:perf_hooks';
import { type Db, type WebhookAttemptOutcome, getWebhookMessage, recordWebhookAttempt } from '@atelier/db';
import { type EgressPolicy, EgressRefused, egressFetch } from '@atelier/egress';
import { type AttemptVerdict, verdictOf } from './retry.js';
import { signedWebhookHeaders } from './signing.js';
import { loadWebhookTarget } from './targets.js';

/** What sending one attempt needs: the same in a worker's activity and in the gateway's synchronous verify. */
export interface WebhookAttemptDeps {
  db: Db;
  /** Outbound policy for consumer URLs (loopback and private addresses refused in production). */
  egress: EgressPolicy;
  /** The deployment's ATELIER_SECRETS_KEY; without it nothing can be signed. */
  secretsKey: Buffer | undefined;
}

export interface WebhookAttemptResult {
  attempt: number;
  outcome: WebhookAttemptOutcome;
  statusCode: number | null;
  /** Why it was not delivered, in words fit for the publication's owner. */
  error: string | null;
  /** The Location of a 3xx answer (never followed: the signed POST goes only to the configured URL). */
  redirectedTo: string | null;
  /** The consumer's Retry-After, when it answered 429/5xx with one. */
  retryAfterMs?: number;
  /** The message was already settled by an earlier attempt; nothing was sent. */
  alreadySettled?: boolean;
}

/** Largest answer read from a consumer; more is an error (a revalidation endpoint answers a few bytes). */
const MAX_ANSWER_BYTES = 1024 * 1024;
/** How much of a refusing answer's body is kept in the attempt's error. */
const ANSWER_EXCERPT = 300;

function excerpt(body: Buffer): string {
  // Control characters become spaces, so an answer cannot forge lines in a log or a UI.
  const chars = [...body.subarray(0, ANSWER_EXCERPT * 4).toString('utf8')];
  const text = chars
    .map((ch) => (ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f ? ' ' : ch))
    .join('')
    .replace(/ {2,}/g, ' ')
    .trim();
  return text.length > ANSWER_EXCERPT ? `${text.slice(0, ANSWER_EXCERPT)}…` : text;
}

function answerError(status: number, body: Buffer, redirectedTo: string | null): string | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) {
    return redirectedTo
      ? `the consumer answered ${status} redirecting to ${redirectedTo}: the revalidateUrl is not in its canonical form (for example a missing or extra trailing slash); set revalidateUrl to ${redirectedTo}`
      : `the consumer answered ${status} (a redirect without a usable Location)`;
  }
  const said = excerpt(body);
  return `the consumer answered ${status}${said ? `: ${said}` : ''}`;
}

/**
 * One delivery attempt of a recorded message: reads the target's URL and CURRENT key (so a rotated secret
 * stops signing at once), signs the stored body afresh with its own webhook-timestamp (the webhook-id stays
 * the message id), POSTs exactly those bytes through the egress policy without following redirects, and
 * records the attempt with the target's health. `lastAttempt` turns a retryable failure into a final one.
 */
export async function attemptWebhook(
  deps: WebhookAttemptDeps,
  input: { messageId: string; attempt: number; lastAttempt: boolean },
): Promise<WebhookAttemptResult> {
  const { db } = deps;
  const { messageId, attempt } = input;
  const message = await getWebhookMessage(db, messageId);
  if (!message)
    return {
      attempt,
      outcome: 'failed',
      statusCode: null,
      error: `message ${messageId} does not exist`,
      redirectedTo: null,
      alreadySettled: true,
    };
  if (message.status !== 'pending') {
    return {
      attempt,
      outcome: message.status === 'delivered' ? 'delivered' : 'failed',
      statusCode: null,
      error: message.last_error,
      redirectedTo: null,
      alreadySettled: true,
    };
  }
  const target = await loadWebhookTarget(db, message.target_kind, message.target_id, deps.secretsKey);
  const startedAt = new Date();
  const t0 = performance.now();
  let statusCode: number | null = null;
  let redirectedTo: string | null = null;
  let error: string | null = null;
  let verdict: AttemptVerdict;
  const timestamp = Math.floor(startedAt.getTime() / 1000);
  if (!target) {
    verdict = { kind: 'final' };
    error = `the ${message.target_kind} no longer exists`;
  } else {
    const headers: Record<string, string> = {
      ...signedWebhookHeaders(target.key, message.id, message.body, timestamp),
      'content-type': 'application/json',
    };
    try {
      const policy = { ...deps.egress, maxRedirects: 0, maxBytes: Math.min(deps.egress.maxBytes, MAX_ANSWER_BYTES) };
      const res = await egressFetch(target.url, { method: 'POST', headers, body: message.body, followRedirects: false }, policy);
      statusCode = res.status;
      redirectedTo = res.redirectedTo ?? null;
      verdict = verdictOf(res.status, res.headers.get('retry-after'));
      error = answerError(res.status, res.body, redirectedTo);
    } catch (err) {
      if (err instanceof EgressRefused) {
        error = err.message;
        // A URL the policy refuses stays refused; the network being away does not.
        verdict = err.reason === 'scheme' || err.reason === 'address' ? { kind: 'final' } : { kind: 'retry' };
      } else {
        error = 'the consumer could not be reached';
        verdict = { kind: 'retry' };
      }
    }
  }
  const outcome: WebhookAttemptOutcome =
    verdict.kind === 'delivered' ? 'delivered' : verdict.kind === 'retry' && !input.lastAttempt ? 'retrying' : 'failed';
  await recordWebhookAttempt(db, {
    messageId,
    targetKind: message.target_kind,
    targetId: message.target_id,
    attempt,
    webhookTimestamp: timestamp,
    url: target?.url ?? '',
    startedAt,
    durationMs: Math.round(performance.now() - t0),
    statusCode,
    outcome,
    error,
    redirectedTo,
  });
  return {
    attempt,
    outcome,
    statusCode,
    error,
    redirectedTo,
    ...(verdict.kind === 'retry' && verdict.delayMs !== undefined ? { retryAfterMs: verdict.delayMs } : {}),
  };
}
