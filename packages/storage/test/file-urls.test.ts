import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FILE_URL_TTL_SECONDS,
  fileSignature,
  fileUrlExpiry,
  fileUrlSigning,
  generateFileSigningSecret,
  signFileKey,
  signedFileUrl,
  verifyFileSignature,
} from '../src/file-urls.js';
import { createHmac } from 'node:crypto';

const key = 'artifacts/illustration/artifact-0123456789abcdef/processed.webp';
const signing = fileUrlSigning('s'.repeat(40));
const now = 1_800_000_000;

describe('signed file URLs', () => {
  it('signs base64url HMAC-SHA256(secret, key + "\\n" + exp)', () => {
    const expected = createHmac('sha256', signing.secret)
      .update(`${key}\n${now + 60}`)
      .digest('base64url');
    expect(fileSignature(signing.secret, key, now + 60)).toBe(expected);
    expect(expected).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('always expires, by default 7 days on (rounded up to the hour), and gives one URL per hour', () => {
    expect(signing.ttlSeconds).toBe(DEFAULT_FILE_URL_TTL_SECONDS);
    const { exp } = signFileKey(signing, key, now);
    expect(exp).toBeGreaterThanOrEqual(now + DEFAULT_FILE_URL_TTL_SECONDS);
    expect(exp).toBeLessThan(now + DEFAULT_FILE_URL_TTL_SECONDS + 3600);
    expect(exp % 3600).toBe(0);
    expect(signedFileUrl('https://a.example/', key, signing, now + 1)).toBe(signedFileUrl('https://a.example', key, signing, now + 3599));
    // Short lifetimes round by less.
    expect(fileUrlExpiry(60, now)).toBeGreaterThanOrEqual(now + 60);
    expect(fileUrlExpiry(60, now)).toBeLessThan(now + 63);
    expect(fileUrlExpiry(1, now + 0.7)).toBe(now + 1);
  });

  it('builds the gateway URL with exp and sig in the query', () => {
    const url = new URL(signedFileUrl('https://atelier.example/', key, signing, now));
    expect(url.origin + url.pathname).toBe(`https://atelier.example/v1/files/${key}`);
    const exp = url.searchParams.get('exp')!;
    expect(url.searchParams.get('sig')).toBe(fileSignature(signing.secret, key, Number(exp)));
  });

  it('verifies its own signature until exp, and refuses everything else', () => {
    const { exp, sig } = signFileKey(signing, key, now);
    const e = String(exp);
    expect(verifyFileSignature(signing.secret, key, e, sig, now)).toEqual({ ok: true, exp });
    expect(verifyFileSignature(signing.secret, key, e, sig, exp - 1)).toEqual({ ok: true, exp });
    expect(verifyFileSignature(signing.secret, key, e, sig, exp)).toEqual({ ok: false, reason: 'expired' });
    expect(verifyFileSignature(signing.secret, key, undefined, undefined, now)).toEqual({ ok: false, reason: 'missing' });
    expect(verifyFileSignature(signing.secret, key, e, undefined, now)).toEqual({ ok: false, reason: 'missing' });
    const invalid = { ok: false, reason: 'invalid' };
    // Another key, another expiry, another secret, a changed character (the last one included: it is compared as text).
    expect(verifyFileSignature(signing.secret, key.replace('processed', 'raw'), e, sig, now)).toEqual(invalid);
    expect(verifyFileSignature(signing.secret, key, String(exp + 3600), sig, now)).toEqual(invalid);
    expect(verifyFileSignature(generateFileSigningSecret(), key, e, sig, now)).toEqual(invalid);
    for (const i of [0, 20, 42]) {
      const c = sig[i] === 'A' ? 'B' : 'A';
      expect(verifyFileSignature(signing.secret, key, e, sig.slice(0, i) + c + sig.slice(i + 1), now), `char ${i}`).toEqual(invalid);
    }
    // Malformed values never reach the comparison; an expired but forged URL is invalid, not expired.
    for (const [x, s] of [
      ['', sig],
      ['-1', sig],
      ['1e12', sig],
      [e, ''],
      [e, `${sig}=`],
      [e, sig.slice(1)],
      [e, `${sig}A`],
      [e, sig.replace(/./, '+')],
    ]) {
      expect(verifyFileSignature(signing.secret, key, x, s, now)).toEqual(invalid);
    }
    expect(verifyFileSignature(signing.secret, key, String(now - 10), sig, now)).toEqual(invalid);
  });

  it('refuses short secrets and lifetimes out of range, naming the setting', () => {
    expect(generateFileSigningSecret()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(generateFileSigningSecret()).not.toBe(generateFileSigningSecret());
    expect(() => fileUrlSigning('short')).toThrow(/ATELIER_FILE_SIGNING_SECRET/);
    for (const ttl of [0, -1, 1.5, 366 * 24 * 3600])
      expect(() => fileUrlSigning(signing.secret, ttl)).toThrow(/ATELIER_FILE_URL_TTL_SECONDS/);
    expect(fileUrlSigning(signing.secret, 60).ttlSeconds).toBe(60);
  });
});
