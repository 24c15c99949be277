import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signed file URLs: `/v1/files/{key}?exp=<unix seconds>&sig=<base64url HMAC-SHA256(secret, key + "\n" + exp)>`.
 * The gateway serves a file only with a signature it made and that has not expired, so a storage key
 * alone is not access, a leaked URL dies at `exp`, and rotating the secret revokes every URL handed out.
 * Pure functions: the caller passes the secret and the clock.
 */
export interface FileUrlSigning {
  /** The HMAC key (ATELIER_FILE_SIGNING_SECRET, or the dev stack's generated one); at least 32 characters. */
  secret: string;
  /** How long a URL handed out stays valid (ATELIER_FILE_URL_TTL_SECONDS, default 7 days). */
  ttlSeconds: number;
}

export const DEFAULT_FILE_URL_TTL_SECONDS = 7 * 24 * 3600;
export const MAX_FILE_URL_TTL_SECONDS = 365 * 24 * 3600;
export const MIN_FILE_SIGNING_SECRET_LENGTH = 32;

const SIG = /^[A-Za-z0-9_-]{43}$/;
const EXP = /^[0-9]{1,12}$/;

/** A fresh secret: 32 random bytes, base64url (43 characters). */
export function generateFileSigningSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Checks a secret and a lifetime, with messages that name the settings. */
export function fileUrlSigning(secret: string, ttlSeconds: number = DEFAULT_FILE_URL_TTL_SECONDS): FileUrlSigning {
  if (typeof secret !== 'string' || secret.length < MIN_FILE_SIGNING_SECRET_LENGTH) {
    throw new Error(
      `ATELIER_FILE_SIGNING_SECRET must be at least ${MIN_FILE_SIGNING_SECRET_LENGTH} characters (for example: openssl rand -base64 32)`,
    );
  }
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > MAX_FILE_URL_TTL_SECONDS) {
    throw new Error(
      `ATELIER_FILE_URL_TTL_SECONDS must be a whole number of seconds from 1 to ${MAX_FILE_URL_TTL_SECONDS} (got ${ttlSeconds})`,
    );
  }
  return { secret, ttlSeconds };
}

/** The signature of one key until one expiry: base64url HMAC-SHA256(secret, key + "\n" + exp). */
export function fileSignature(secret: string, key: string, exp: number): string {
  return createHmac('sha256', secret).update(`${key}\n${exp}`).digest('base64url');
}

/**
 * The expiry of a URL signed at `nowSeconds`: at least `ttlSeconds` away, rounded up to a step (an hour
 * for lifetimes of a day or more) so reads of one artifact within the step give the same URL and a
 * client's cache keeps working.
 */
export function fileUrlExpiry(ttlSeconds: number, nowSeconds: number): number {
  const step = Math.max(1, Math.min(3600, Math.floor(ttlSeconds / 24)));
  return Math.ceil((Math.floor(nowSeconds) + ttlSeconds) / step) * step;
}

/** The query that grants `key` until its expiry: `exp=…&sig=…`. */
export function signFileKey(signing: FileUrlSigning, key: string, nowSeconds: number = Date.now() / 1000): { exp: number; sig: string } {
  const exp = fileUrlExpiry(signing.ttlSeconds, nowSeconds);
  return { exp, sig: fileSignature(signing.secret, key, exp) };
}

/** The gateway path of a key, each segment percent-encoded (keys are already URL-safe, so usually as is). */
export function filePath(key: string): string {
  return `/v1/files/${key.split('/').map(encodeURIComponent).join('/')}`;
}

/** `${origin}/v1/files/{key}?exp=…&sig=…`: the signed address of a stored file. */
export function signedFileUrl(origin: string, key: string, signing: FileUrlSigning, nowSeconds: number = Date.now() / 1000): string {
  const { exp, sig } = signFileKey(signing, key, nowSeconds);
  return `${origin.replace(/\/+$/, '')}${filePath(key)}?exp=${exp}&sig=${sig}`;
}

export type FileSignatureCheck = { ok: true; exp: number } | { ok: false; reason: 'missing' | 'invalid' | 'expired' };

/**
 * Whether `exp` and `sig` (the query values, possibly absent) grant `key` at `nowSeconds`. The signature
 * is compared in constant time; an expired URL is reported as such only when its signature is valid.
 */
export function verifyFileSignature(
  secret: string,
  key: string,
  exp: string | undefined,
  sig: string | undefined,
  nowSeconds: number = Date.now() / 1000,
): FileSignatureCheck {
  if (exp === undefined || sig === undefined) return { ok: false, reason: 'missing' };
  if (!EXP.test(exp) || !SIG.test(sig)) return { ok: false, reason: 'invalid' };
  // Compared as text, not decoded bytes: base64url's last character carries two unused bits, so
  // decoding would accept four spellings of one signature.
  const expected = Buffer.from(fileSignature(secret, key, Number(exp)), 'latin1');
  const given = Buffer.from(sig, 'latin1');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
  if (Number(exp) <= Math.floor(nowSeconds)) return { ok: false, reason: 'expired' };
  return { ok: true, exp: Number(exp) };
}
