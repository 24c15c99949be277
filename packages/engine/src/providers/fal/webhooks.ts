import { type KeyObject, createHash, createPublicKey, verify } from 'node:crypto';
import { type JobWebhooks, TransientProviderError } from '../types.js';

/** fal refuses to be trusted for deliveries older or newer than this (its documented replay window). */
export const WEBHOOK_TOLERANCE_MS = 5 * 60_000;
/** fal allows its JWKS to be cached for a day; keys rotate, so a signature no cached key verifies refetches it. */
const JWKS_TTL_MS = 24 * 60 * 60_000;
/** An unknown signature refetches the JWKS at most this often, so forged deliveries cannot drive fetches. */
const JWKS_REFRESH_MIN_MS = 60_000;
const JWKS_TIMEOUT_MS = 10_000;

interface KeySet {
  keys: KeyObject[];
  fetchedAt: number;
}

/** The Ed25519 keys of a JWKS (RFC 8037 OKP keys); anything else in the set is skipped. */
function ed25519Keys(body: unknown): KeyObject[] {
  const keys = (body as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) return [];
  return keys.flatMap((jwk: { kty?: unknown; crv?: unknown; x?: unknown }) => {
    if (jwk?.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') return [];
    try {
      return [createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' })];
    } catch {
      return [];
    }
  });
}

/**
 * fal's completion webhooks, verified as fal documents: ED25519 over the lines request id, user id,
 * timestamp and the hex SHA-256 of the raw body (X-Fal-Webhook-Request-Id, -User-Id, -Timestamp; the
 * signature in hex in X-Fal-Webhook-Signature), with fal's public keys from its JWKS, and the timestamp
 * within five minutes of now. The job id a genuine delivery names is fal's request id (the jobId submit gave).
 * An unreachable JWKS is thrown as transient, so the gateway answers 5xx and fal delivers again later.
 */
export function falWebhooks(jwksUrl: string, now: () => number = Date.now): JobWebhooks {
  let cached: KeySet | undefined;
  let pending: Promise<KeySet> | undefined;

  const fetchKeys = async (): Promise<KeySet> => {
    let response: Response;
    try {
      response = await fetch(jwksUrl, { signal: AbortSignal.timeout(JWKS_TIMEOUT_MS), headers: { accept: 'application/json' } });
    } catch (err) {
      throw new TransientProviderError(`fal's webhook keys could not be fetched: ${(err as Error).message}`);
    }
    const text = await response.text();
    if (!response.ok) throw new TransientProviderError(`fal's webhook keys could not be fetched: ${response.status}`, response.status);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new TransientProviderError("fal's webhook keys are not JSON");
    }
    cached = { keys: ed25519Keys(body), fetchedAt: now() };
    return cached;
  };
  // Concurrent deliveries share one fetch.
  const refresh = () => {
    pending ??= fetchKeys().finally(() => {
      pending = undefined;
    });
    return pending;
  };

  const signedBy = (keys: KeyObject[], message: Buffer, signature: Buffer) => keys.some((key) => verify(null, message, key, signature));

  return {
    async verify({ headers, body }) {
      const requestId = headers.get('x-fal-webhook-request-id');
      const userId = headers.get('x-fal-webhook-user-id');
      const timestamp = headers.get('x-fal-webhook-timestamp');
      const signatureHex = headers.get('x-fal-webhook-signature');
      if (!requestId || !userId || !timestamp || !signatureHex) return undefined;
      if (!/^\d{1,12}$/.test(timestamp) || Math.abs(now() - Number(timestamp) * 1000) > WEBHOOK_TOLERANCE_MS) return undefined;
      if (!/^[0-9a-fA-F]{128}$/.test(signatureHex)) return undefined;
      const signature = Buffer.from(signatureHex, 'hex');
      const digest = createHash('sha256').update(body, 'utf8').digest('hex');
      const message = Buffer.from([requestId, userId, timestamp, digest].join('\n'), 'utf8');

      let keys = cached && now() - cached.fetchedAt < JWKS_TTL_MS ? cached : await refresh();
      let genuine = signedBy(keys.keys, message, signature);
      if (!genuine && now() - keys.fetchedAt >= JWKS_REFRESH_MIN_MS) {
        keys = await refresh();
        genuine = signedBy(keys.keys, message, signature);
      }
      if (!genuine) return undefined;
      // The body is signed too (by its digest); a body naming another request is not this delivery's.
      const named = (() => {
        try {
          return (JSON.parse(body) as { request_id?: unknown }).request_id;
        } catch {
          return undefined;
        }
      })();
      return named === undefined || named === requestId ? requestId : undefined;
    },
  };
}
