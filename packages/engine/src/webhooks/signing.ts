import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): a secret is `whsec_` + base64 of its key
 * bytes; a signature is `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)). Exactly what the
 * `standardwebhooks` package verifies.
 */
export const SECRET_PREFIX = 'whsec_';

/** 32 random key bytes. */
export function generateWebhookKey(): Buffer {
  return randomBytes(32);
}

/** The key as the consumer is shown it once: `whsec_<base64>`. */
export function formatWebhookSecret(key: Buffer): string {
  return `${SECRET_PREFIX}${key.toString('base64')}`;
}

/** The key bytes of a `whsec_` secret (or of bare base64). */
export function parseWebhookSecret(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** A message id: `msg_` + 32 hex characters (128 random bits); also the delivery workflow's id. */
export function newWebhookMessageId(): string {
  return `msg_${randomBytes(16).toString('hex')}`;
}

/** The `webhook-signature` entry for these exact bytes. */
export function signWebhook(key: Buffer, id: string, timestampSeconds: number, body: string | Buffer): string {
  const mac = createHmac('sha256', key);
  mac.update(`${id}.${timestampSeconds}.`, 'utf8');
  mac.update(body);
  return `v1,${mac.digest('base64')}`;
}

/** The three headers of a signed message, signed now (or at `nowSeconds`). */
export function signedWebhookHeaders(
  key: Buffer,
  id: string,
  body: string | Buffer,
  nowSeconds = Math.floor(Date.now() / 1000),
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(nowSeconds),
    'webhook-signature': signWebhook(key, id, nowSeconds, body),
  };
}
