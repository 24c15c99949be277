import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';

export interface ManagedProcess {
  child: ChildProcess;
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
}

/**
 * glibc's malloc settings for Atelier's own processes, read once when a process starts. Left to adjust
 * itself, glibc raises its mmap threshold each time a large block is freed, and from then on serves such
 * blocks from per-thread arenas that keep their pages: a worker that had taken a burst of runs stayed about
 * 200 MB larger for good (docs/performance-log.md, 2026-11-27). A fixed trim threshold (which also fixes the
 * mmap threshold) lets freed memory go back to the system. Set on the processes `atelier dev` and the
 * production-shaped stack spawn, and in the image (infra/Dockerfile); an operator's own value wins.
 */
export const MALLOC_ENV: Readonly<NodeJS.ProcessEnv> = Object.freeze({ MALLOC_TRIM_THRESHOLD_: '131072' });

/** Spawns a long-lived child whose output goes to `log`, and stops it with a grace period. */
export function spawnManaged(command: string, args: string[], log: (line: string) => void, env?: NodeJS.ProcessEnv): ManagedProcess {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: env ?? process.env });
  const forward = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line.trim()) log(line);
  };
  child.stdout?.on('data', forward);
  child.stderr?.on('data', forward);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    async stop(signal = 'SIGTERM', graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A free TCP port on loopback, chosen by the kernel. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function waitFor<T>(what: string, attempt: () => Promise<T>, timeoutMs: number, exited?: () => boolean): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (exited?.()) throw new Error(`${what}: the process exited before it was ready`);
    try {
      return await attempt();
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`${what} was not ready after ${timeoutMs} ms: ${(lastError as Error)?.message ?? lastError}`);
}

/**
 * Runs a stack's `start`, and `stop` before its error goes on when it fails or is called off part-way: the caller
 * then holds no stack to stop, so nothing else would end the processes and servers started so far, or free their ports.
 */
export async function stopIfStartFails<T>(stop: () => Promise<void>, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (err) {
    await stop();
    throw err;
  }
}

/** waitFor's attempt for a process of ours: its /readyz at `url` answers 200 (anything else, or no answer, is tried again). */
export function answersReady(url: string): () => Promise<void> {
  return async () => {
    const res = await fetch(`${url}/readyz`);
    if (res.status !== 200) throw new Error(`${url}/readyz answered ${res.status}`);
  };
}

/** The direct children of a process, with their command lines (`ps`); none when it has gone. */
export async function childProcesses(pid: number): Promise<Array<{ pid: number; args: string }>> {
  const { stdout } = await promisify(execFile)('ps', ['-o', 'pid=,args=', '--ppid', String(pid)]).catch(() => ({ stdout: '' }));
  return stdout
    .split('\n')
    .map((l) => l.trim().match(/^(\d+)\s+(.*)$/))
    .filter((m): m is RegExpMatchArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), args: m[2]! }));
}

/** Whether a process exists (signal 0 checks without sending anything). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
