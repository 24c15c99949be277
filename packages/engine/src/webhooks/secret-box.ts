import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets at rest: webhook signing keys must be usable (HMAC needs the key itself, so a hash will not do)
 * yet useless to whoever reads the database or a backup. Each is sealed with AES-256-GCM under the
 * deployment's key (ATELIER_SECRETS_KEY: 32 bytes, base64 or hex), with a fresh 96-bit nonce, and bound to
 * its row by the additional data (`publication:<id>`), so a sealed value copied onto another row does not
 * open. Format: `v1.<nonce>.<ciphertext>.<tag>`, base64url parts.
 */
export const SECRETS_KEY_VARIABLE = 'ATELIER_SECRETS_KEY';

export class SecretsKeyMissing extends Error {
  constructor() {
    super(
      `${SECRETS_KEY_VARIABLE} is not set: webhook secrets cannot be sealed or opened (32 bytes, base64; for example: openssl rand -base64 32)`,
    );
    this.name = 'SecretsKeyMissing';
  }
}

/** The 32-byte key from its text form (base64, base64url or 64 hex characters); throws when it is not one. */
export function parseSecretsKey(text: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  if (key.length !== 32) throw new Error(`${SECRETS_KEY_VARIABLE} must be 32 bytes, base64 or hex encoded (got ${key.length} bytes)`);
  return key;
}

/** The key from the environment, or undefined when unset. */
export function secretsKeyFromEnv(env: NodeJS.ProcessEnv = process.env): Buffer | undefined {
  const v = env[SECRETS_KEY_VARIABLE];
  return v?.trim() ? parseSecretsKey(v) : undefined;
}

export function generateSecretsKey(): string {
  return randomBytes(32).toString('base64');
}

export function sealSecret(key: Buffer, plaintext: Buffer, boundTo: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(boundTo, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return ['v1', nonce.toString('base64url'), ciphertext.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

/** Opens a sealed secret; throws when the key, the binding or the value is wrong (GCM authenticates all three). */
export function openSecret(key: Buffer, sealed: string, boundTo: string): Buffer {
  const [version, nonce, ciphertext, tag] = sealed.split('.');
  if (version !== 'v1' || !nonce || ciphertext === undefined || !tag) throw new Error('not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
  decipher.setAAD(Buffer.from(boundTo, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]);
}
