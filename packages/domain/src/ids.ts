import { randomBytes, randomUUID } from 'node:crypto';

/** Run ids are `run-` plus eight hex characters, as the contract fixes. */
export const RUN_ID_PATTERN = /^run-[0-9a-f]{8}$/;

export function newRunId(): string {
  return `run-${randomBytes(4).toString('hex')}`;
}

export function newArtifactId(): string {
  return `artifact-${randomBytes(8).toString('hex')}`;
}

/** Character ids are `char-` plus sixteen hex characters (the contract's `char-<id>`). */
export function newCharacterId(): string {
  return `char-${randomBytes(8).toString('hex')}`;
}

export function newUuid(): string {
  return randomUUID();
}

/** An opaque, URL-safe secret of 32 random bytes (43 characters). */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}
