import { type FileUrlSigning, fileUrlSigning, generateFileSigningSecret } from '@atelier/storage/file-urls';
import type { AtelierConfig } from '../config.js';
import { dataDirSecret } from './data-dir-secret.js';

export const FILE_SIGNING_SECRET_FILE = 'file-signing-secret';

/**
 * The secret of signed file URLs: ATELIER_FILE_SIGNING_SECRET when set. Otherwise `atelier dev` (embedded)
 * keeps one under the data dir, generated on first start, so URLs survive restarts; a production gateway
 * (`atelier api`) refuses to start, since its replicas must share one secret. Deleting the file (or
 * changing the variable) rotates the secret and revokes every URL handed out.
 */
export async function resolveFileSigning(config: AtelierConfig, embedded: boolean): Promise<FileUrlSigning> {
  return fileUrlSigning(await fileSigningSecret(config, embedded), config.fileUrlTtlSeconds);
}

/** The secret itself (resolveFileSigning says where it comes from); `atelier dev` hands it to its gateway process. */
export async function fileSigningSecret(config: AtelierConfig, embedded: boolean): Promise<string> {
  if (config.fileSigningSecret) return config.fileSigningSecret;
  if (!embedded)
    throw new Error(
      'ATELIER_FILE_SIGNING_SECRET is not set (every gateway of a deployment needs the same one; for example: openssl rand -base64 32)',
    );
  return (await dataDirSecret(config.dataDir, FILE_SIGNING_SECRET_FILE, generateFileSigningSecret)).secret;
}
