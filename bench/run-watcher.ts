import { RunEventHub } from '@atelier/api';
import { createLogger } from '@atelier/cli/logger';
import type { AnnouncedRunEvent, Db } from '@atelier/db';
import { type Cleanup, type Log, describe } from './infra';

/** The domain's terminal run statuses. */
export const TERMINAL = new Set(['completed', 'review', 'failed', 'cancelled', 'rejected', 'changes_requested']);

export interface Settled {
  status: string;
  error: string | null;
  /** performance.now() and Date.now() when the bench saw the terminal status. */
  at: number;
  wallAt: number;
}

/** How long an announced terminal status is kept for a run nobody waits for yet (its POST still answering). */
const KEEP_UNCLAIMED_MS = 60_000;

/**
 * Tells when runs reach a terminal status in the read model (runs.status). The database announces every
 * run event on `atelier_run_events`, from the statement that writes it, so an announcement arrives only
 * once its change committed; a `run.status` one names the status. The watch listens from before the first
 * run is created:
 * - a `completed` announcement settles the run at once: it is the read model's status, no read needed;
 * - another terminal status is read (with the run's error), marked runs together, one query at a time;
 * - a terminal status announced before anyone waits for its run (the POST still answering) is kept, so
 *   waiting for it later needs no read either;
 * - after a reconnect, and every second as a sweep, the runs waited for are read.
 */
export class RunWatcher {
  private readonly waiting = new Map<string, { resolve: (s: Settled) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  /** Terminal statuses announced for runs nobody waited for yet, with when they were seen. */
  private readonly unclaimed = new Map<string, Settled>();
  private readonly marked = new Set<string>();
  private querying = false;
  private readonly sweep = setInterval(() => {
    for (const id of this.waiting.keys()) this.mark(id);
    const stale = performance.now() - KEEP_UNCLAIMED_MS;
    for (const [id, s] of this.unclaimed) if (s.at < stale) this.unclaimed.delete(id);
  }, 1_000);
  /** Queries made, so a phase's database counters can leave them out. */
  queries = 0;
  private listening: Promise<void> | undefined;

  private constructor(
    private readonly db: Db,
    /** The bench's own listener (a hub apart from the gateway's); engine-sse.ts subscribes to single runs on it. */
    readonly hub: RunEventHub,
    private readonly log: Log,
  ) {}

  /**
   * A watch on the database's announcements; with `listen: false` it listens only once `listen()` is called:
   * a phase that learns of runs' ends over their event streams, as an API client does, then adds no
   * listener of the bench's own to the load on Atelier's side (PostgreSQL sends every announcement to each).
   */
  static async start(cleanup: Cleanup, db: Db, databaseUrl: string, log: Log, opts: { listen?: boolean } = {}): Promise<RunWatcher> {
    const hub = new RunEventHub(databaseUrl, createLogger('silent'));
    cleanup.add('the bench’s run event listener', () => hub.close());
    const watcher = new RunWatcher(db, hub, log);
    cleanup.add('the read-model watch', async () => watcher.close());
    if (opts.listen !== false) await watcher.listen();
    return watcher;
  }

  /** Listens from now on (once); runs created before may only be told by the sweep's read. */
  listen(): Promise<void> {
    this.listening ??= this.hub.subscribeAll((event) => this.announced(event)).then(() => undefined);
    return this.listening;
  }

  wait(runId: string, timeoutMs: number): Promise<Settled> {
    if (!this.listening) return Promise.reject(new Error(`the watch is not listening: run ${runId} cannot be waited for`));
    const known = this.unclaimed.get(runId);
    if (known) {
      this.unclaimed.delete(runId);
      return known.status === 'completed' ? Promise.resolve(known) : this.read(runId, timeoutMs);
    }
    return this.read(runId, timeoutMs, false);
  }

  /** Waits for a run and throws unless it completed. */
  async completed(runId: string, timeoutMs: number): Promise<Settled> {
    const settled = await this.wait(runId, timeoutMs);
    if (settled.status !== 'completed') throw new Error(`run ${runId} ended ${settled.status}: ${settled.error}`);
    return settled;
  }

  close(): void {
    clearInterval(this.sweep);
    for (const id of [...this.waiting.keys()]) this.finish(id, new Error('stopped'));
  }

  /** Waits for the run's announcement, or (`now`) reads its status at once as well. */
  private read(runId: string, timeoutMs: number, now = true): Promise<Settled> {
    const settled = new Promise<Settled>((resolve, reject) => {
      const timer = setTimeout(() => this.finish(runId, new Error(`run ${runId} not terminal after ${timeoutMs} ms`)), timeoutMs);
      this.waiting.set(runId, { resolve, reject, timer });
    });
    if (now) this.mark(runId);
    return settled;
  }

  /** An announced event; nothing after a reconnect (anything may have happened: the runs waited for are read). */
  private announced(event: AnnouncedRunEvent | undefined): void {
    if (!event) {
      for (const id of this.waiting.keys()) this.mark(id);
      return;
    }
    if (event.type !== 'run.status' || !event.status || !TERMINAL.has(event.status)) return;
    const seen: Settled = { status: event.status, error: null, at: performance.now(), wallAt: Date.now() };
    if (!this.waiting.has(event.runId)) this.unclaimed.set(event.runId, seen);
    else if (event.status === 'completed') this.finish(event.runId, seen);
    else this.mark(event.runId);
  }

  private mark(runId: string): void {
    if (!this.waiting.has(runId)) return;
    this.marked.add(runId);
    if (this.querying) return;
    this.querying = true;
    setImmediate(() => void this.check());
  }

  private async check(): Promise<void> {
    while (this.marked.size > 0) {
      const ids = [...this.marked].slice(0, 500);
      for (const id of ids) this.marked.delete(id);
      this.queries++;
      try {
        const rows = await this.db.selectFrom('runs').select(['id', 'status', 'error']).where('id', 'in', ids).execute();
        const at = performance.now();
        const wallAt = Date.now();
        for (const row of rows) if (TERMINAL.has(row.status)) this.finish(row.id, { status: row.status, error: row.error, at, wallAt });
      } catch (err) {
        this.log(`read-model check failed (retried by the sweep): ${describe(err)}`);
      }
    }
    this.querying = false;
  }

  private finish(runId: string, outcome: Settled | Error): void {
    const entry = this.waiting.get(runId);
    if (!entry) return;
    this.waiting.delete(runId);
    clearTimeout(entry.timer);
    if (outcome instanceof Error) entry.reject(outcome);
    else entry.resolve(outcome);
  }
}
