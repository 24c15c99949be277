import type { Readable } from 'node:stream';

/**
 * Object storage for artifact files. Keys are stable paths such as
 * `artifacts/illustration/artifact-1a2b/raw.webp`; drivers decide where the bytes live.
 */
export interface StoredObject {
  size: number;
  contentType: string;
  /** An opaque validator that changes whenever the bytes may have changed (drivers that know one). */
  etag?: string;
  updatedAt?: Date;
}

export interface ObjectStorage {
  readonly driver: 'local' | 'gcs';
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The object's bytes; a missing object throws ObjectNotFoundError. */
  get(key: string): Promise<Buffer>;
  stat(key: string): Promise<StoredObject | undefined>;
  delete(key: string): Promise<void>;
  /** The address a client downloads the object from; `origin` is the gateway's public origin. */
  url(key: string, origin: string): Promise<string>;
}

/** A driver whose bytes the gateway streams itself (the local one); others are reached by redirect. */
export interface StreamableStorage extends ObjectStorage {
  /** A byte range of the object (inclusive end), for the gateway's range requests. */
  stream(key: string, range?: { start: number; end: number }): Readable;
}

export function isStreamable(storage: ObjectStorage): storage is StreamableStorage {
  return typeof (storage as Partial<StreamableStorage>).stream === 'function';
}

/** The object does not exist. Carries `code: 'ENOENT'` like the filesystem error it replaces. */
export class ObjectNotFoundError extends Error {
  readonly code = 'ENOENT';
  constructor(readonly key: string) {
    super(`no stored object at "${key}"`);
    this.name = 'ObjectNotFoundError';
  }
}

const CONTENT_TYPES: Record<string, string> = {
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  mp4: 'video/mp4',
  json: 'application/json',
};

export function contentTypeFor(key: string): string {
  const ext = key.split('.').pop()?.toLowerCase() ?? '';
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}

/** Keys never climb out of the storage root and never carry odd characters. */
export function assertSafeKey(key: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(key) || key.split('/').some((part) => part === '..' || part === '.' || part === '')) {
    throw new Error(`invalid storage key "${key}"`);
  }
}

/** The filesystem or the network failing under a driver: nothing a caller's request did wrong. */
const OUTAGE_ERRNO = new Set([
  'ENOSPC',
  'EDQUOT',
  'EROFS',
  'EIO',
  'EACCES',
  'EPERM',
  'ENOTDIR',
  'EBUSY',
  'EAGAIN',
  'EMFILE',
  'ENFILE',
  'ESTALE',
  'ETIMEDOUT',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'EAI_AGAIN',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * Whether a storage failure is the storage being unavailable for a while (a full or read-only disk, a
 * volume gone, the bucket's service answering 408, 429 or 5xx, the network) rather than a bad request
 * (an invalid key, a missing object): the write is worth trying again once it is back.
 */
export function isStorageOutage(err: unknown): boolean {
  if (err instanceof ObjectNotFoundError) return false;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return OUTAGE_ERRNO.has(code);
  if (typeof code === 'number') return code === 408 || code === 429 || code >= 500;
  return false;
}
