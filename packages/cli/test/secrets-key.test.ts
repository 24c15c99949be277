import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { SECRETS_KEY_FILE, resolveSecretsKey } from '../src/stack/secrets-key.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('the secrets key of an embedded stack', () => {
  it('is generated once under the data dir, the same for processes starting at once, and said once', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'atelier-secrets-key-'));
    dirs.push(root);
    const dataDir = path.join(root, 'nested');
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const keys = await Promise.all([1, 2, 3].map(() => resolveSecretsKey(dataDir, true, logger, {})));
    expect(keys[0]).toHaveLength(32);
    for (const key of keys) expect(key?.equals(keys[0]!)).toBe(true);
    const file = path.join(dataDir, SECRETS_KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await resolveSecretsKey(dataDir, true, logger, {}))?.equals(keys[0]!)).toBe(true);
    expect(lines.filter((l) => l.includes('generated ATELIER_SECRETS_KEY'))).toHaveLength(1);
    expect((await readFile(file, 'utf8')).trim()).not.toBe('');
  });

  it('is left unset, with a warning, by a production process without ATELIER_SECRETS_KEY', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'atelier-secrets-key-'));
    dirs.push(dataDir);
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    expect(await resolveSecretsKey(dataDir, false, logger, {})).toBeUndefined();
    expect(lines.join('')).toMatch(/ATELIER_SECRETS_KEY is not set/);
    await expect(stat(path.join(dataDir, SECRETS_KEY_FILE))).rejects.toThrow();
  });
});
