import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A secret an embedded stack keeps in its data dir (`name`), made by `generate` on first start, so that
 * what it signs or seals survives restarts. `created` says whether this call made it.
 *
 * Written whole under a temporary name, then linked into place, which fails if the file exists: two
 * processes starting at once never see half a secret nor overwrite each other's; the loser reads the winner's.
 */
export async function dataDirSecret(dataDir: string, name: string, generate: () => string): Promise<{ secret: string; created: boolean }> {
  const file = path.join(dataDir, name);
  try {
    return { secret: (await readFile(file, 'utf8')).trim(), created: false };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const secret = generate();
  await mkdir(dataDir, { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    await link(temp, file);
    return { secret, created: true };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return { secret: (await readFile(file, 'utf8')).trim(), created: false };
  } finally {
    await rm(temp, { force: true });
  }
}
