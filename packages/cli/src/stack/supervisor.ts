import { type ChildProcess, spawn } from 'node:child_process';
import type { Logger } from 'pino';

/** How long a process must stay up before a crash counts as a fresh one (the back-off starts over). */
const STABLE_AFTER_MS = 60_000;
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;

export interface SupervisedOptions {
  /** What the logs call it: `gateway`, `worker`. */
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** How long a stop waits for a clean exit before SIGKILL. */
  stopGraceMs?: number;
}

/**
 * One long-lived child of `atelier dev`, restarted whenever it exits while the stack is up, with a back-off
 * that doubles from 1 s to 30 s while it keeps crashing. Its output goes straight to the terminal (the
 * children log JSON lines that carry their component). Exits during a stop are the stop's, never restarted.
 */
export class SupervisedProcess {
  private child: ChildProcess | undefined;
  private stopping = false;
  private backoffMs = FIRST_BACKOFF_MS;
  private restartTimer: NodeJS.Timeout | undefined;
  restarts = 0;

  constructor(private readonly opts: SupervisedOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): void {
    const { name, command, args, env, logger } = this.opts;
    const startedAt = Date.now();
    const child = spawn(command, args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
    this.child = child;
    child.once('exit', (code, signal) => {
      if (this.stopping) return;
      if (Date.now() - startedAt > STABLE_AFTER_MS) this.backoffMs = FIRST_BACKOFF_MS;
      const delay = this.backoffMs;
      this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
      logger.error(
        { process: name, pid: child.pid, code, signal },
        `the ${name} process exited (${signal ?? `code ${code}`}); restarting it in ${delay / 1000} s`,
      );
      this.restartTimer = setTimeout(() => {
        if (this.stopping) return;
        this.restarts += 1;
        this.start();
        logger.warn({ process: name, pid: this.child?.pid, restarts: this.restarts }, `the ${name} process restarted`);
      }, delay);
    });
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), this.opts.stopGraceMs ?? 20_000);
    await exited;
    clearTimeout(timer);
  }
}

/**
 * In a child of `atelier dev`: stop when the parent is gone (killed with SIGKILL, so it could not stop its
 * children), rather than live on holding the stack's ports and data for nobody.
 */
export function exitWithParent(onOrphaned: () => void, everyMs = 1_000): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      onOrphaned();
    }
  }, everyMs);
  timer.unref();
}
