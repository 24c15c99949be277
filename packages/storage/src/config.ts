import path from 'node:path';
import { GcsStorage } from './gcs.js';
import { LocalStorage } from './local.js';
import type { ObjectStorage } from './types.js';

export interface StorageConfigDefaults {
  /** Where the local driver keeps files when ATELIER_STORAGE_DIR is unset (default {ATELIER_DATA_DIR or .data}/storage). */
  localDir?: string;
}

const bool = (value: string | undefined, name: string): boolean => {
  if (value === undefined || value === '') return false;
  if (/^(true|1|yes)$/i.test(value)) return true;
  if (/^(false|0|no)$/i.test(value)) return false;
  throw new Error(`${name} must be true or false (got "${value}")`);
};

const seconds = (value: string | undefined, name: string): number | undefined => {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number of seconds (got "${value}")`);
  return n;
};

/**
 * The object storage a deployment is configured for:
 * - `ATELIER_STORAGE=local` (default): files under ATELIER_STORAGE_DIR, served by the gateway;
 * - `ATELIER_STORAGE=gcs`: GCS_BUCKET (required), GCS_PREFIX, GCS_PROJECT_ID, GCS_KEY_FILE (else
 *   Application Default Credentials), GCS_PUBLIC=true|false, GCS_SIGNED_URL_TTL_SECONDS; the client
 *   honours STORAGE_EMULATOR_HOST.
 * A bad setting is refused at start, naming the variable.
 */
export function storageFromConfig(env: NodeJS.ProcessEnv = process.env, defaults: StorageConfigDefaults = {}): ObjectStorage {
  const driver = (env.ATELIER_STORAGE || 'local').toLowerCase();
  if (driver === 'local')
    return new LocalStorage(
      path.resolve(env.ATELIER_STORAGE_DIR || defaults.localDir || path.join(env.ATELIER_DATA_DIR || '.data', 'storage')),
    );
  if (driver !== 'gcs') throw new Error(`ATELIER_STORAGE must be local or gcs (got "${env.ATELIER_STORAGE}")`);
  if (!env.GCS_BUCKET) throw new Error('GCS_BUCKET is required when ATELIER_STORAGE=gcs');
  return new GcsStorage({
    bucket: env.GCS_BUCKET,
    prefix: env.GCS_PREFIX || undefined,
    projectId: env.GCS_PROJECT_ID || undefined,
    keyFile: env.GCS_KEY_FILE ? path.resolve(env.GCS_KEY_FILE) : undefined,
    apiEndpoint: env.STORAGE_EMULATOR_HOST || undefined,
    public: bool(env.GCS_PUBLIC, 'GCS_PUBLIC'),
    signedUrlTtlSeconds: seconds(env.GCS_SIGNED_URL_TTL_SECONDS, 'GCS_SIGNED_URL_TTL_SECONDS'),
  });
}
