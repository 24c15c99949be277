import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';

const run = promisify(execFile);

/**
 * The release before this one, as operators run it: a commit of this repository's history checked out
 * into a folder of its own and installed from its own lockfile. It predates the compiled build, so its
 * processes run from TypeScript sources (its packages' exports point at src/).
 */
export interface PreviousRelease {
  commit: string;
  dir: string;
  /** How long extracting and installing took (0 when an earlier run's install was reused). */
  installMs: number;
  reused: boolean;
}

const MARKER = '.atelier-installed';

/**
 * Extracts `commit` into a folder under the system's temporary directory and installs it, or reuses the
 * folder an earlier run left when its marker names the same commit (the install is the slow part, and
 * a release's files never change). A missing commit fails loudly: the test proves nothing without it,
 * and a shallow clone must not pass it by skipping.
 */
export async function installPreviousRelease(commit: string): Promise<PreviousRelease> {
  let full: string;
  try {
    full = (await run('git', ['-C', PROJECT_ROOT, 'rev-parse', '--verify', `${commit}^{commit}`])).stdout.trim();
  } catch {
    throw new Error(
      `the previous release's commit ${commit} is not in this clone's history: the upgrade test needs it (clone with full history, e.g. git fetch --unshallow)`,
    );
  }
  const dir = path.join(os.tmpdir(), `atelier-prev-${full.slice(0, 12)}`);
  const installed = async (folder: string) =>
    existsSync(path.join(folder, MARKER)) && (await readFile(path.join(folder, MARKER), 'utf8')).trim() === full;
  if (await installed(dir)) return { commit: full, dir, installMs: 0, reused: true };

  const started = Date.now();
  // Installed beside the final folder and renamed into place when whole: test runs of other checkouts on the
  // same machine may install the same release at the same moment, and none may see (or delete) a half install.
  const partial = `${dir}.partial-${process.pid}-${randomBytes(3).toString('hex')}`;
  await mkdir(partial, { recursive: true });
  try {
    await new Promise<void>((resolve, reject) => {
      const archive = spawn('git', ['-C', PROJECT_ROOT, 'archive', full], { stdio: ['ignore', 'pipe', 'inherit'] });
      const tar = spawn('tar', ['-x', '-C', partial], { stdio: ['pipe', 'inherit', 'inherit'] });
      archive.stdout.pipe(tar.stdin);
      archive.once('error', reject);
      tar.once('error', reject);
      archive.once('exit', (code) => code !== 0 && reject(new Error(`git archive ${full} exited with ${code}`)));
      tar.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`tar exited with ${code}`))));
    });
    try {
      await run('npx', ['-y', 'pnpm@10', 'install', '--frozen-lockfile', '--prefer-offline'], {
        cwd: partial,
        maxBuffer: 16 * 1024 * 1024,
      });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      throw new Error(`installing the previous release in ${partial} failed:\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
    }
    await writeFile(path.join(partial, MARKER), `${full}\n`);
    // pnpm links packages with relative symlinks, so the install works from its final place.
    if (!(await installed(dir))) {
      await rm(dir, { recursive: true, force: true });
      await rename(partial, dir).catch(async (err) => {
        if (!(await installed(dir))) throw err;
      });
    }
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
  return { commit: full, dir, installMs: Date.now() - started, reused: false };
}

/** A spawned process and everything it wrote, for the test's assertions and its failure messages. */
export interface Spawned {
  name: string;
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

function tracked(name: string, child: ChildProcess): Spawned {
  let text = '';
  const keep = (chunk: Buffer) => {
    // Enough to hold a start-up failure and the last warnings; an endless log must not fill the test's memory.
    text = (text + chunk.toString()).slice(-200_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { name, child, output: () => text, exited };
}

/** `atelier <command>` of the previous release, from its folder, as that release's operators started it. */
export function spawnPrevious(release: PreviousRelease, name: string, command: 'api' | 'worker', env: Record<string, string>): Spawned {
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/cli/src/main.ts', command], {
    cwd: release.dir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return tracked(name, child);
}

/** `atelier <command>` of this release (its sources, as the rest of the suite runs them). */
export function spawnCurrent(name: string, args: string[], env: Record<string, string>): Spawned {
  const child = spawn(process.execPath, args, { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return tracked(name, child);
}

/** Waits until `url` answers 200, failing early (with the process's output) if the process exits first. */
export async function waitUntilReady(p: Spawned, url: string, timeoutMs: number): Promise<number> {
  const started = Date.now();
  let exited = false;
  void p.exited.then(() => {
    exited = true;
  });
  while (Date.now() - started < timeoutMs) {
    if (exited) throw new Error(`${p.name} exited before it was ready:\n${p.output().slice(-4_000)}`);
    const ok = await fetch(url, { signal: AbortSignal.timeout(3_000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${p.name} was not ready at ${url} within ${timeoutMs} ms:\n${p.output().slice(-4_000)}`);
}
