import { timingSafeEqual } from 'node:crypto';
import { parseWebhookSecret, signWebhook } from '../../webhooks/signing.js';
import { TransientProviderError, type JobWebhooks } from '../types.js';
import { type ReplicateOptions, replicateApi } from './http.js';

/** Deliveries signed longer ago than this (or this far ahead of our clock) are refused: a replay, or a clock gone wrong. */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

/**
 * Replicate signs its webhooks the Standard Webhooks way: `webhook-signature` holds space-separated
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` entries (more than one while a key rotates), keyed by the
 * account's secret. The secret comes from REPLICATE_WEBHOOK_SECRET or, once, from
 * `GET /v1/webhooks/default/secret`; a failed fetch is not kept, so the next delivery asks again.
 */
export function replicateWebhooks(opts: ReplicateOptions, now: () => number = Date.now): JobWebhooks {
  let secret: Promise<Buffer> | undefined = opts.webhookSecret ? Promise.resolve(parseWebhookSecret(opts.webhookSecret)) : undefined;
  const signingKey = () => {
    secret ??= replicateApi(opts, { method: 'GET', path: '/v1/webhooks/default/secret', repeatAfterTimeout: true }).then((answer) => {
      const key = (answer as { key?: unknown } | null)?.key;
      if (typeof key !== 'string' || !key) throw new TransientProviderError('Replicate answered the webhook secret without a key');
      return parseWebhookSecret(key);
    });
    return secret.catch((err) => {
      secret = undefined;
      throw err;
    });
  };

  return {
    async verify({ headers, body }) {
      const id = headers.get('webhook-id');
      const timestamp = headers.get('webhook-timestamp');
      const signatures = headers.get('webhook-signature');
      if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) return undefined;
      if (Math.abs(now() / 1000 - Number(timestamp)) > WEBHOOK_TOLERANCE_SECONDS) return undefined;
      const expected = Buffer.from(signWebhook(await signingKey(), id, Number(timestamp), body));
      const genuine = signatures
        .split(' ')
        .map((entry) => Buffer.from(entry))
        .some((given) => given.length === expected.length && timingSafeEqual(given, expected));
      if (!genuine) return undefined;
      // The body is the prediction as it ended; the engine reads it again from the API for its result.
      try {
        const prediction = JSON.parse(body) as { id?: unknown };
        return typeof prediction.id === 'string' && prediction.id ? prediction.id : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
