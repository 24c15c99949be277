import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * The real `gcp-storage-emulator` (PyPI), installed on first use into a project-local venv under
 * .tools/, started on a free loopback port with an in-memory store, and stopped by its own pid.
 */
export const EMULATOR_VERSION = '2026.7.19';
const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const VENV = path.join(PROJECT_ROOT, '.tools', 'gcs-emulator');
const BIN = path.join(VENV, 'bin', 'gcp-storage-emulator');
const MARKER = path.join(VENV, '.installed-version');
const run = promisify(execFile);

export async function ensureEmulator(): Promise<string> {
  const installed = existsSync(MARKER) ? (await readFile(MARKER, 'utf8')).trim() : '';
  if (installed === EMULATOR_VERSION && existsSync(BIN)) return BIN;
  if (!existsSync(path.join(VENV, 'bin', 'python'))) await run('python3', ['-m', 'venv', VENV], { timeout: 120_000 });
  await run(
    path.join(VENV, 'bin', 'pip'),
    ['install', '--quiet', '--disable-pip-version-check', `gcp-storage-emulator==${EMULATOR_VERSION}`],
    { timeout: 300_000 },
  );
  await writeFile(MARKER, `${EMULATOR_VERSION}\n`);
  return BIN;
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningEmulator {
  /** http://127.0.0.1:<port>, the value for STORAGE_EMULATOR_HOST. */
  host: string;
  stop(): Promise<void>;
}

export async function startEmulator(defaultBucket: string): Promise<RunningEmulator> {
  const bin = await ensureEmulator();
  const port = await freeLoopbackPort();
  const child: ChildProcess = spawn(
    bin,
    ['start', '--host', '127.0.0.1', '--port', String(port), '--in-memory', '--default-bucket', defaultBucket, '--quiet'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr = (stderr + String(d)).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const host = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`gcp-storage-emulator exited at start: ${stderr}`);
    try {
      if ((await fetch(`${host}/`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`gcp-storage-emulator did not answer on ${host} within 30 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    host,
    async stop() {
      if (child.exitCode !== null || child.pid === undefined) return;
      process.kill(child.pid, 'SIGTERM');
      const timer = setTimeout(() => child.exitCode === null && child.pid !== undefined && process.kill(child.pid, 'SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
