import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { defaultApiUrl } from '../config.js';

/** Where `atelier login` keeps the gateway URL and API key (mode 0600). */
export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || homedir(), '.config');
  return path.join(base, 'atelier', 'credentials.json');
}

/** The gateway of `atelier dev` on this machine (its port from ATELIER_API_PORT, default 8080). */
export const defaultUrl = (env: NodeJS.ProcessEnv = process.env) => defaultApiUrl(env);

export interface SavedCredentials {
  url: string;
  apiKey: string;
}

export async function readSavedCredentials(env: NodeJS.ProcessEnv = process.env): Promise<Partial<SavedCredentials>> {
  try {
    const parsed = JSON.parse(await readFile(credentialsPath(env), 'utf8')) as Partial<SavedCredentials>;
    return {
      ...(typeof parsed.url === 'string' ? { url: parsed.url } : {}),
      ...(typeof parsed.apiKey === 'string' ? { apiKey: parsed.apiKey } : {}),
    };
  } catch {
    return {};
  }
}

export async function saveCredentials(credentials: SavedCredentials, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const file = credentialsPath(env);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600); // an existing file keeps its old mode on writeFile
  return file;
}

/** A gateway URL as requests are made on it: no trailing slash, and no /v1 (each path has it; `atelier dev` prints the API with it). */
export const gatewayOrigin = (url: string) => url.replace(/\/+$/, '').replace(/\/v1$/, '');

/** The gateway and key a command uses: its flags, else ATELIER_URL / ATELIER_API_KEY, else the saved login. */
export async function resolveCredentials(
  flags: { url?: string; apiKey?: string },
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ url: string; apiKey?: string }> {
  const saved = await readSavedCredentials(env);
  const url = flags.url || env.ATELIER_URL || saved.url || defaultUrl(env);
  const apiKey = flags.apiKey || env.ATELIER_API_KEY || saved.apiKey;
  return { url: gatewayOrigin(url), ...(apiKey ? { apiKey } : {}) };
}
