import { randomBytes, randomUUID } from 'node:crypto';

/** Run ids are `run-` plus eight hex characters, as the contract fixes. */
export const RUN_ID_PATTERN = /^run-[0-9a-f]{8}$/;

/**
 * Random hex characters, taken from a version 4 UUID's random digits: Node fills UUIDs from a pool of random
 * bytes drawn in bulk, where `randomBytes` draws and allocates on every call (each run takes two ids).
 */
function randomHex(length: 8 | 16): string {
  const uuid = randomUUID(); // xxxxxxxx-xxxx-4xxx-Nxxx-xxxxxxxxxxxx: the 4 and N are not random
  return length === 8 ? uuid.slice(0, 8) : `${uuid.slice(0, 8)}${uuid.slice(9, 13)}${uuid.slice(24, 28)}`;
}

export function newRunId(): string {
  return `run-${randomHex(8)}`;
}

export function newArtifactId(): string {
  return `artifact-${randomHex(16)}`;
}

/** Character ids are `char-` plus sixteen hex characters (the contract's `char-<id>`). */
export function newCharacterId(): string {
  return `char-${randomHex(16)}`;
}

export function newUuid(): string {
  return randomUUID();
}

/** An opaque, URL-safe secret of 32 random bytes (43 characters). */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}
