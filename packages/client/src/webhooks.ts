import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks verification (https://www.standardwebhooks.com), what Atelier's publication
 * deliveries are signed with: the secret is `whsec_` + base64 of the key; `webhook-signature` holds
 * space-separated `v1,<base64 HMAC-SHA256 of "${webhook-id}.${webhook-timestamp}.${body}">` entries
 * (several while a secret rotates); the timestamp must be within the tolerance of now.
 */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** How far webhook-timestamp may be from now, either way (300 s by default). */
  toleranceSeconds?: number;
  /** Now, in unix seconds (tests). */
  nowSeconds?: number;
}

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(' ') : value;
}

/**
 * Checks a delivery against the secret; returns the parsed JSON body when it is genuine and throws
 * WebhookVerificationError otherwise. Pass the body exactly as received (bytes or the raw string),
 * never re-serialised JSON.
 */
export function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): unknown {
  const { toleranceSeconds = 300 } = options;
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d{1,15}$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not a unix time in seconds');
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const ts = Number(timestamp);
  if (ts < now - toleranceSeconds) throw new WebhookVerificationError('webhook-timestamp is too old');
  if (ts > now + toleranceSeconds) throw new WebhookVerificationError('webhook-timestamp is in the future');
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  if (key.length === 0) throw new WebhookVerificationError('the secret is empty');
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`, 'utf8').update(body).digest();
  let matched = false;
  for (const entry of signatures.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
    const given = Buffer.from(entry.slice(comma + 1), 'base64');
    // Compare every candidate in constant time (no early exit on the first mismatching byte).
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  if (!matched) throw new WebhookVerificationError('no matching signature');
  const text = body.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
