import { readFileSync } from 'node:fs';

/**
 * Where provider settings (API keys, base URLs, timeouts) come from: the environment, then a secrets file
 * (ATELIER_SECRETS_FILE, a JSON object of the same names, as a mounted Kubernetes secret or a vault agent
 * writes it). Never from a run's input. The environment wins, so one value can be overridden for a process.
 */
export type SettingsSource = (name: string) => string | undefined;

export function settingsFrom(env: NodeJS.ProcessEnv): SettingsSource {
  const file = env.ATELIER_SECRETS_FILE ? readSecretsFile(env.ATELIER_SECRETS_FILE) : {};
  return (name) => {
    const value = env[name] ?? file[name];
    return value === undefined || value === '' ? undefined : value;
  };
}

function readSecretsFile(path: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    // The message names the file, never its content.
    throw new Error(
      `ATELIER_SECRETS_FILE ${path} is not a readable JSON object (${(err as NodeJS.ErrnoException).code ?? 'invalid JSON'})`,
    );
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`ATELIER_SECRETS_FILE ${path} is not a JSON object`);
  return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** A positive number of milliseconds from a setting, or undefined. */
export function msSetting(settings: SettingsSource, name: string): number | undefined {
  const value = Number(settings(name));
  return Number.isFinite(value) && value > 0 ? value : undefined;
}
