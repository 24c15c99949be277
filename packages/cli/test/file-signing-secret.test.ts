import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { FILE_SIGNING_SECRET_FILE, resolveFileSigning } from '../src/stack/file-signing-secret.js';

const dirs: string[] = [];
const tempDir = async () => {
  const d = await mkdtemp(path.join(os.tmpdir(), 'atelier-secret-'));
  dirs.push(d);
  return d;
};
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('the file URL signing secret of a stack', () => {
  it('is ATELIER_FILE_SIGNING_SECRET with ATELIER_FILE_URL_TTL_SECONDS when set', async () => {
    const dataDir = await tempDir();
    const config = loadConfig({
      ATELIER_DATA_DIR: dataDir,
      ATELIER_FILE_SIGNING_SECRET: 'x'.repeat(32),
      ATELIER_FILE_URL_TTL_SECONDS: '600',
    });
    for (const embedded of [true, false])
      expect(await resolveFileSigning(config, embedded)).toEqual({ secret: 'x'.repeat(32), ttlSeconds: 600 });
    await expect(stat(path.join(dataDir, FILE_SIGNING_SECRET_FILE))).rejects.toThrow();
    await expect(
      resolveFileSigning(loadConfig({ ATELIER_DATA_DIR: dataDir, ATELIER_FILE_SIGNING_SECRET: 'short' }), false),
    ).rejects.toThrow(/at least 32/);
    await expect(
      resolveFileSigning(
        loadConfig({ ATELIER_DATA_DIR: dataDir, ATELIER_FILE_SIGNING_SECRET: 'x'.repeat(32), ATELIER_FILE_URL_TTL_SECONDS: '0' }),
        false,
      ),
    ).rejects.toThrow(/ATELIER_FILE_URL_TTL_SECONDS/);
  });

  it('is generated once under the data dir by `atelier dev` and kept across starts (7-day URLs)', async () => {
    const dataDir = path.join(await tempDir(), 'nested');
    const config = loadConfig({ ATELIER_DATA_DIR: dataDir });
    const [first, racing] = await Promise.all([resolveFileSigning(config, true), resolveFileSigning(config, true)]);
    expect(first.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(racing.secret).toBe(first.secret);
    expect(first.ttlSeconds).toBe(7 * 24 * 3600);
    const file = path.join(dataDir, FILE_SIGNING_SECRET_FILE);
    expect((await readFile(file, 'utf8')).trim()).toBe(first.secret);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await resolveFileSigning(config, true)).secret).toBe(first.secret);
  });

  it('is required by a production gateway (`atelier api`)', async () => {
    await expect(resolveFileSigning(loadConfig({ ATELIER_DATA_DIR: await tempDir() }), false)).rejects.toThrow(
      /ATELIER_FILE_SIGNING_SECRET is not set/,
    );
  });
});
