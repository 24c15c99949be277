import path from 'node:path';
import type { Logger } from 'pino';
import { dataDirSecret } from './data-dir-secret.js';
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
  const { secret, created } = await dataDirSecret(dataDir, SECRETS_KEY_FILE, generateSecretsKey);
  if (created) logger.info({ file: path.join(dataDir, SECRETS_KEY_FILE) }, `generated ${SECRETS_KEY_VARIABLE} for this data dir`);
  return parseSecretsKey(secret);
}
