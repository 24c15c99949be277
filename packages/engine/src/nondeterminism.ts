// A CommonJS package: plain node (the compiled build) cannot take named imports from it.
import proto from '@temporalio/proto';
import { Worker, type WorkerOptions } from '@temporalio/worker';
import type { Logger } from 'pino';
import type { Counter } from 'prom-client';

/**
 * A worker whose workflow code cannot replay a history (it was written by other code: an older worker
 * meeting a newer release's runs, or the reverse) fails that workflow task, and Temporal retries it until
 * compatible code picks it up. The SDK's only word is one WARN line from core at the task's first attempt,
 * naming the run id alone, so runs already stuck sat unseen. A watched worker logs each at error, counts it,
 * and turns /readyz to 503 while it is recent, so a rollout of incompatible code stops (docs/operations.md,
 * Nondeterminism).
 *
 * The signal is structured: when Temporal's core finds that the commands the code produced do not match
 * the history, it evicts the run with the reason NONDETERMINISM (and the error's message). That happens at
 * every attempt, including the unreported ones after the first, so a worker started on runs that are
 * already stuck sees them too. That WARN line ("Failing workflow task") is not matched instead: it is
 * unstructured, and missing at later attempts; a workflow interceptor sees nothing, as the check runs in
 * core; the SDK's temporal_workflow_task_execution_failed{failure_reason="NonDeterminismError"} counts the
 * failures too, but on core's own Prometheus endpoint, where /readyz cannot read it.
 */

const NONDETERMINISM = proto.coresdk.workflow_activation.RemoveFromCache.EvictionReason.NONDETERMINISM;

export interface NondeterminismEvent {
  workflowId?: string;
  runId: string;
  workflowType?: string;
  taskQueue: string;
  message: string;
}

/** What /readyz reports: runs that met a nondeterminism error within the window, and the latest one. */
export interface NondeterminismStatus {
  /** True while a nondeterminism error happened within the last `windowMinutes`: the worker is then not ready. */
  recent: boolean;
  windowMinutes: number;
  /** Distinct runs that met one within the window (15 minutes when the window is 0). */
  count: number;
  /** Failed workflow tasks since the process started (what the counter counts). */
  total: number;
  lastAt?: string;
  lastWorkflowId?: string;
  lastRunId?: string;
  lastWorkflowType?: string;
  lastMessage?: string;
}

/** Minutes a nondeterminism error keeps the worker unready (ATELIER_NONDETERMINISM_UNREADY_MINUTES, 15 by default; 0: never). */
export function nondeterminismWindowFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.ATELIER_NONDETERMINISM_UNREADY_MINUTES?.trim();
  if (!raw) return 15;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0)
    throw new Error(`ATELIER_NONDETERMINISM_UNREADY_MINUTES must be a number of minutes >= 0 (got "${raw}")`);
  return n;
}

/** Runs remembered at once; beyond it the oldest are forgotten (the counter and the total still count them). */
const MAX_RUNS = 1_000;
/** How long a run is remembered (logged once) when readiness ignores nondeterminism (a window of 0). */
const DEFAULT_REMEMBER_MS = 15 * 60_000;

export class NondeterminismWatch {
  /** Runs seen within the window, by run id, oldest first; each logged once per window. */
  private readonly runs = new Map<string, { event: NondeterminismEvent; at: number }>();
  private total = 0;
  private last?: { event: NondeterminismEvent; at: number };
  private readonly windowMs: number;
  private readonly rememberMs: number;

  constructor(
    private readonly opts: {
      logger: Logger;
      counter?: Counter<'workflow_type'> | undefined;
      windowMinutes?: number;
      now?: () => number;
    },
  ) {
    this.windowMs = (opts.windowMinutes ?? nondeterminismWindowFromEnv()) * 60_000;
    this.rememberMs = this.windowMs || DEFAULT_REMEMBER_MS;
  }

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  record(event: NondeterminismEvent): void {
    const at = this.now();
    this.forget(at);
    this.total++;
    this.last = { event, at };
    this.opts.counter?.inc({ workflow_type: event.workflowType ?? 'unknown' });
    // A stuck run fails again at every retry of its task; once per window keeps the log readable.
    const known = this.runs.has(event.runId);
    this.runs.delete(event.runId);
    this.runs.set(event.runId, { event, at });
    if (this.runs.size > MAX_RUNS) this.runs.delete(this.runs.keys().next().value as string);
    if (known) return;
    this.opts.logger.error(
      { ...event, errorType: 'NondeterminismError' },
      `nondeterminism error: workflow ${event.workflowId ?? '?'} (run ${event.runId}, type ${event.workflowType ?? '?'}) cannot replay on this worker's workflow code; its task is retried until a compatible worker takes it (docs/operations.md, Nondeterminism)`,
    );
  }

  status(): NondeterminismStatus {
    const now = this.now();
    this.forget(now);
    const last = this.last;
    return {
      recent: !!last && now - last.at < this.windowMs,
      windowMinutes: this.windowMs / 60_000,
      count: this.runs.size,
      total: this.total,
      ...(last
        ? {
            lastAt: new Date(last.at).toISOString(),
            lastWorkflowId: last.event.workflowId,
            lastRunId: last.event.runId,
            lastWorkflowType: last.event.workflowType,
            lastMessage: last.event.message,
          }
        : {}),
    };
  }

  private forget(now: number): void {
    for (const [runId, seen] of this.runs) {
      if (now - seen.at < this.rememberMs) break;
      this.runs.delete(runId);
    }
  }
}

/**
 * Worker.create, for a worker whose nondeterminism errors go to `watch`. The hook is the worker's
 * handling of each activation, where core's eviction of the run arrives with its reason; the SDK offers
 * no public one. (Worker.create constructs `this`, so the subclass is what runs.)
 */
export async function createWatchedWorker(options: WorkerOptions, watch: NondeterminismWatch): Promise<Worker> {
  const taskQueue = options.taskQueue;
  class WatchedWorker extends Worker {
    protected override handleActivation(...args: Parameters<Worker['handleActivation']>): ReturnType<Worker['handleActivation']> {
      const [workflow, { activation }] = args;
      for (const job of activation.jobs) {
        const evicted = job.removeFromCache;
        if (evicted?.reason !== NONDETERMINISM) continue;
        watch.record({
          runId: activation.runId,
          ...(workflow ? { workflowId: workflow.info.workflowId, workflowType: workflow.info.workflowType } : {}),
          taskQueue,
          message: evicted.message ?? '',
        });
      }
      return super.handleActivation(...args);
    }
  }
  return WatchedWorker.create(options);
}
