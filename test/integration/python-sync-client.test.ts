import { spawnSync } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PYTHON_CLIENT_DIR } from '../support/python-client';

/**
 * clients/python's synchronous client is made from the asynchronous one (make_sync.py): the committed
 * client.py must be what it makes, and a change to the asynchronous client must show as a difference.
 */
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const check = (dir: string) => spawnSync('python3', [path.join(dir, 'make_sync.py'), '--check'], { encoding: 'utf8' });

describe('the Python client made synchronous', () => {
  it('is committed as make_sync.py makes it', () => {
    const run = check(PYTHON_CLIENT_DIR);
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
  });

  /** A copy of make_sync.py and both clients in a folder of its own, with the asynchronous client edited by `edit`. */
  async function copyWith(edit: (source: string) => string): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'atelier-make-sync-'));
    dirs.push(dir);
    const pkg = path.join(dir, 'src', 'atelier');
    await mkdir(pkg, { recursive: true });
    await copyFile(path.join(PYTHON_CLIENT_DIR, 'make_sync.py'), path.join(dir, 'make_sync.py'));
    for (const file of ['async_client.py', 'client.py'])
      await copyFile(path.join(PYTHON_CLIENT_DIR, 'src', 'atelier', file), path.join(pkg, file));
    const source = await readFile(path.join(pkg, 'async_client.py'), 'utf8');
    await writeFile(path.join(pkg, 'async_client.py'), edit(source));
    return dir;
  }

  it('is found stale when the asynchronous client changes', async () => {
    expect(check(await copyWith((source) => source)).status).toBe(0);
    const stale = check(await copyWith((source) => source.replace('await self._http.aclose()', 'await self._http.aclose()  # closed')));
    expect(stale.status).toBe(1);
    expect(stale.stdout).toMatch(/run python3 clients\/python\/make_sync\.py/);
  });

  it('refuses an asynchronous client whose wording make_sync.py no longer knows', async () => {
    const reworded = check(await copyWith((source) => source.replace('    await :meth:`close`.', '    await its :meth:`close`.')));
    expect(reworded.status).toBe(2);
    expect(reworded.stdout).toMatch(/no longer has these lines; update LINES in make_sync\.py:\n {4}await :meth:`close`\./);
  });
});
