import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WebhookVerificationError, verifyWebhook } from '../src/webhooks.js';

const key = randomBytes(32);
const secret = `whsec_${key.toString('base64')}`;
const sign = (id: string, ts: number, body: string, k = key) =>
  `v1,${createHmac('sha256', k).update(`${id}.${ts}.${body}`).digest('base64')}`;
const now = 1_800_000_000;
const body = JSON.stringify({ type: 'document.published', slug: 'hello' });
const headers = (ts = now, signature = sign('msg_1', ts, body)) => ({
  'webhook-id': 'msg_1',
  'webhook-timestamp': String(ts),
  'webhook-signature': signature,
});

describe('verifyWebhook (Standard Webhooks)', () => {
  it('accepts a genuine delivery and returns its JSON body, from a record or a Headers', () => {
    expect(verifyWebhook(secret, headers(), body, { nowSeconds: now })).toEqual({ type: 'document.published', slug: 'hello' });
    expect(verifyWebhook(secret, new Headers(headers()), Buffer.from(body), { nowSeconds: now + 299 })).toEqual({
      type: 'document.published',
      slug: 'hello',
    });
  });

  it('accepts any one of several space-separated signatures (a rotation), ignoring unknown versions', () => {
    const other = sign('msg_1', now, body, randomBytes(32));
    expect(() =>
      verifyWebhook(secret, headers(now, `v2,abc ${other} ${sign('msg_1', now, body)}`), body, { nowSeconds: now }),
    ).not.toThrow();
  });

  it.each([
    ['a changed body', () => verifyWebhook(secret, headers(), `${body} `, { nowSeconds: now })],
    ['another secret', () => verifyWebhook(`whsec_${randomBytes(32).toString('base64')}`, headers(), body, { nowSeconds: now })],
    ['a stale timestamp', () => verifyWebhook(secret, headers(now - 301), body, { nowSeconds: now })],
    ['a future timestamp', () => verifyWebhook(secret, headers(now + 301), body, { nowSeconds: now })],
    ['a tolerance of 10 s', () => verifyWebhook(secret, headers(now - 11), body, { nowSeconds: now, toleranceSeconds: 10 })],
    [
      'a missing header',
      () => verifyWebhook(secret, { 'webhook-id': 'msg_1', 'webhook-timestamp': String(now) }, body, { nowSeconds: now }),
    ],
    ['a v1 signature of another id', () => verifyWebhook(secret, headers(now, sign('msg_2', now, body)), body, { nowSeconds: now })],
    ['a truncated signature', () => verifyWebhook(secret, headers(now, sign('msg_1', now, body).slice(0, 20)), body, { nowSeconds: now })],
  ])('refuses %s', (_label, attempt) => {
    expect(attempt).toThrow(WebhookVerificationError);
  });
});
