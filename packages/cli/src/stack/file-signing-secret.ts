import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type FileUrlSigning, fileUrlSigning, generateFileSigningSecret } from '@atelier/storage/file-urls';
import type { AtelierConfig } from '../config.js';

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
  const file = path.join(config.dataDir, FILE_SIGNING_SECRET_FILE);
  let secret: string;
  try {
    secret = (await readFile(file, 'utf8')).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    secret = generateFileSigningSecret();
    await mkdir(config.dataDir, { recursive: true });
    // Written whole under a temporary name, then linked into place, which fails if the file exists: two
    // processes starting at once never see half a secret nor overwrite each other's; the loser reads the winner's.
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(temp, `${secret}\n`, { mode: 0o600, flag: 'wx' });
      await link(temp, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      secret = (await readFile(file, 'utf8')).trim();
    } finally {
      await rm(temp, { force: true });
    }
  }
  return secret;
}
