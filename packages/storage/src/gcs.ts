import { readFileSync } from 'node:fs';
import { type File, Storage } from '@google-cloud/storage';
import { ObjectNotFoundError, type ObjectStorage, type StoredObject, assertSafeKey } from './types.js';

export interface GcsStorageOptions {
  bucket: string;
  /** Prepended to every key (`atelier/` puts artifacts under `atelier/artifacts/...`). */
  prefix?: string;
  projectId?: string;
  /** A service-account key file; without one the client uses Application Default Credentials. */
  keyFile?: string;
  /**
   * Where the JSON API lives. Unset, the client uses STORAGE_EMULATOR_HOST when the process has it, else
   * Google's endpoint.
   */
  apiEndpoint?: string;
  /** Objects are world-readable (a public bucket or a CDN in front): url() is the plain public address. */
  public?: boolean;
  /** The public host of `public` URLs; default https://storage.googleapis.com (or the emulator). */
  publicBaseUrl?: string;
  /** Lifetime of V4 signed URLs when the bucket is private; default 3600 s, at most 7 days. */
  signedUrlTtlSeconds?: number;
  /** A ready client (tests); otherwise one is built from the options above. */
  client?: Storage;
}

const GOOGLE_STORAGE = 'https://storage.googleapis.com';
const MAX_SIGNED_TTL = 7 * 24 * 3600;
/** Artifact keys never change content once written (decisions: storage keys are stable). */
const IMMUTABLE = 'public, max-age=31536000, immutable';

export function normalisePrefix(prefix: string | undefined): string {
  const trimmed = (prefix ?? '').replace(/^\/+|\/+$/g, '');
  if (!trimmed) return '';
  assertSafeKey(trimmed);
  return `${trimmed}/`;
}

const statusOf = (err: unknown): number | undefined => {
  const e = err as { code?: unknown; response?: { status?: unknown } };
  return typeof e?.code === 'number' ? e.code : typeof e?.response?.status === 'number' ? e.response.status : undefined;
};

/**
 * Google Cloud Storage: one bucket, every key under a prefix. Private buckets hand out V4 signed URLs
 * (signing needs a service-account key or ADC that can sign); public ones their plain address.
 */
export class GcsStorage implements ObjectStorage {
  readonly driver = 'gcs' as const;
  readonly bucket: string;
  readonly prefix: string;
  readonly isPublic: boolean;
  readonly signedUrlTtlSeconds: number;
  private readonly client: Storage;
  private readonly publicBase: string;

  constructor(opts: GcsStorageOptions) {
    if (!opts.bucket || !/^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/.test(opts.bucket))
      throw new Error(`GCS bucket name "${opts.bucket}" is not valid`);
    const ttl = opts.signedUrlTtlSeconds ?? 3600;
    if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_SIGNED_TTL)
      throw new Error(`the signed URL lifetime must be 1 to ${MAX_SIGNED_TTL} seconds (got ${ttl})`);
    this.bucket = opts.bucket;
    this.prefix = normalisePrefix(opts.prefix);
    this.isPublic = opts.public === true;
    this.signedUrlTtlSeconds = ttl;
    const endpoint = opts.apiEndpoint ?? process.env.STORAGE_EMULATOR_HOST;
    this.client =
      opts.client ??
      new Storage({
        ...(opts.projectId ? { projectId: opts.projectId } : {}),
        ...(opts.keyFile ? { credentials: readKeyFile(opts.keyFile) } : {}),
        ...(opts.apiEndpoint ? { apiEndpoint: opts.apiEndpoint } : {}),
      });
    this.publicBase = (opts.publicBaseUrl ?? (endpoint ? withScheme(endpoint) : GOOGLE_STORAGE)).replace(/\/+$/, '');
  }

  /** The object name in the bucket: the prefix, then the key. */
  objectName(key: string): string {
    assertSafeKey(key);
    return `${this.prefix}${key}`;
  }

  private file(key: string): File {
    return this.client.bucket(this.bucket).file(this.objectName(key));
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    // One request, no resumable session: artifact files are small, and a retried put simply overwrites.
    await this.file(key).save(bytes, { resumable: false, contentType, metadata: { contentType, cacheControl: IMMUTABLE } });
  }

  async get(key: string): Promise<Buffer> {
    try {
      const [bytes] = await this.file(key).download();
      return bytes;
    } catch (err) {
      if (statusOf(err) === 404) throw new ObjectNotFoundError(key);
      throw err;
    }
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    try {
      const [meta] = await this.file(key).getMetadata();
      return {
        size: Number(meta.size ?? 0),
        contentType: meta.contentType ?? 'application/octet-stream',
        ...(meta.etag ? { etag: `"${meta.etag.replace(/"/g, '')}"` } : {}),
        ...(meta.updated ? { updatedAt: new Date(meta.updated) } : {}),
      };
    } catch (err) {
      if (statusOf(err) === 404) return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.file(key).delete({ ignoreNotFound: true });
  }

  /** Public: the object's plain address. Private: a V4 signed GET URL valid for the configured lifetime. */
  async url(key: string, _origin?: string): Promise<string> {
    const name = this.objectName(key);
    if (this.isPublic) return `${this.publicBase}/${this.bucket}/${name.split('/').map(encodeURIComponent).join('/')}`;
    const [signed] = await this.file(key).getSignedUrl({
      version: 'v4',
      action: 'read',
      expires: Date.now() + this.signedUrlTtlSeconds * 1000,
    });
    return signed;
  }
}

/** A service-account (or other credential) JSON file, read once at start so a bad path fails early. */
function readKeyFile(file: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`the GCS key file ${file} could not be read as JSON: ${(err as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object') throw new Error(`the GCS key file ${file} is not a credentials object`);
  return parsed as Record<string, unknown>;
}

function withScheme(host: string): string {
  // As the client does: a bare host means https.
  return /^https?:\/\//.test(host) ? host : `https://${host}`;
}
