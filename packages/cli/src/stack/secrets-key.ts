import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { SECRETS_KEY_VARIABLE, generateSecretsKey, parseSecretsKey, secretsKeyFromEnv } from '@atelier/engine/webhooks/index';

export const SECRETS_KEY_FILE = 'secrets-key';

/**
 * The key that seals webhook signing secrets at rest (AES-256-GCM; docs/publications.md): ATELIER_SECRETS_KEY
 * when set (32 bytes, base64 or hex). Otherwise `npm start` / `atelier dev` (embedded) keeps one under the
 * data dir, generated on first start. A production `atelier api` or `atelier worker` without it starts, but
 * warns: publications cannot be created, rotated or verified, and webhooks cannot be signed, until it is set
 * (the same value on every gateway and worker). Losing the key loses every publication's secret: rotate them.
 */
export async function resolveSecretsKey(
  dataDir: string,
  embedded: boolean,
  logger: Logger,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Buffer | undefined> {
  const fromEnv = secretsKeyFromEnv(env);
  if (fromEnv) return fromEnv;
  if (!embedded) {
    logger.warn(
      `${SECRETS_KEY_VARIABLE} is not set: publications cannot be created and webhooks cannot be signed (every gateway and worker needs the same key; for example: openssl rand -base64 32)`,
    );
    return undefined;
  }
  const file = path.join(dataDir, SECRETS_KEY_FILE);
  let text: string;
  try {
    text = (await readFile(file, 'utf8')).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    text = generateSecretsKey();
    await mkdir(dataDir, { recursive: true });
    // `wx`: two processes starting at once never overwrite each other's key; the loser reads the winner's.
    try {
      await writeFile(file, `${text}\n`, { mode: 0o600, flag: 'wx' });
      logger.info({ file }, `generated ${SECRETS_KEY_VARIABLE} for this data dir`);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      text = (await readFile(file, 'utf8')).trim();
    }
  }
  return parseSecretsKey(text);
}
