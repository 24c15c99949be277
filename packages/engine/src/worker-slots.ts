import type { State, Worker, WorkerTuner } from '@temporalio/worker';
import type { DetachedSteps } from './activities/detached-steps.js';
import type { NondeterminismWatch } from './nondeterminism.js';

/**
 * How many tasks of each kind a worker runs at once (docs/architecture.md, Slots and queues).
 *
 * Activity slots are sized for work that waits: a model call spends seconds to minutes waiting on its
 * provider and costs a promise and a socket meanwhile, so a worker holds a thousand of them in little
 * memory. CPU-heavy media work is bounded by the cores instead, inside the process (media/cpu-slots.ts),
 * so a large slot count never means a thousand encodes at once. Webhook deliveries run on a worker and a
 * task queue of their own (webhookTaskQueue), so integrators that hang hold only that worker's slots.
 *
 * Slots are Temporal's fixed-size slot suppliers. Its resource-based suppliers hand out slots while the
 * host's CPU and memory stay under targets: they would throttle model calls (which use neither) whenever
 * another process or an encode loads the machine, and ramp up one slot per throttle interval.
 */
export interface WorkerSlots {
  /** Activities of the run queue in flight at once (ATELIER_WORKER_MAX_ACTIVITIES, default 1,000). */
  activities: number;
  /**
   * Step attempts a worker runs detached from its slots at once (ATELIER_WORKER_MAX_DETACHED_STEPS, default
   * 5,000; 0 keeps every attempt in its slot). An attempt still running after 250 ms hands its slot back and
   * reports through the worker's client (activities/step-attempt.ts): a step waiting on its provider then
   * costs its own promises, not the SDK's machinery of an activity in flight.
   */
  detachedSteps: number;
  /** Delivery attempts in flight at once on the webhook queue (ATELIER_WEBHOOK_MAX_ACTIVITIES, default 200). */
  webhookActivities: number;
  /**
   * Workflow tasks a worker holds at once (ATELIER_WORKFLOW_TASK_SLOTS, default 8; the SDK's is 40). Temporal
   * orders a task queue's backlog by priority and fairness (domain/priority.ts), but a task the worker has
   * already taken waits in the worker's own first-come line: with 40 held, one workspace's burst kept another's
   * run 4.5 s behind an idle 1.1 s on two cores, with 6 held 1.0 s. Workflow tasks are short and CPU-bound, so
   * a few slots keep a worker busy.
   */
  workflowTasks: number;
  /**
   * Of the worker's workflow task polls, the share that asks the task queue itself rather than the worker's
   * sticky queue (ATELIER_WORKFLOW_QUEUE_POLL_RATIO, default 0.5; the SDK's nonStickyToStickyPollRatio, whose
   * own default is 0.2). The task queue holds new runs' first tasks, in priority and fairness order; the
   * sticky queue holds the next tasks of runs this worker has cached, first come, first served. More polls on
   * the task queue start a burst's runs sooner, so their model calls overlap: 400 runs posted at once with
   * 2 s model calls finished in 1.17–1.30× bare Temporal's time at 0.5 (median 1.28) against 1.32–1.33× at 0.2, and
   * 1.11–1.13× at 1. But at 1 the sticky queue keeps one poll, and every started run's next task waits behind
   * it: a workspace's single run behind another's burst took 1.8–1.97× its idle time (bench/fairness.ts,
   * target 1.5×), against 1.13–1.22× at 0.5 and 1.12–1.31× at 0.2. A deployment with one tenant may raise it.
   */
  queuePollRatio: number;
  /**
   * Executions each of a worker's two workers keeps cached between their workflow tasks
   * (ATELIER_WORKFLOW_CACHE_SIZE, default 500; Temporal's maxCachedWorkflows, at least 2). The SDK sizes its
   * own from the heap (about 2,300 on a 4 GB heap), so every run waiting on a model call stayed cached at
   * about 90 KB each: a worker with 2,000 calls in flight grew 2.3×, 1.8× with 500 cached. An evicted run is
   * replayed from its history at its next task, and replays share the cores with new runs' first tasks: 2,000
   * runs started at once, each with two 2 s model calls, finished about 7% later with 200 cached than with all
   * of them (bench/slow-calls.ts, performance-log.md 2026-11-28). 500 keeps a burst of that many runs whole.
   */
  workflowCache: number;
}

export const DEFAULT_WORKER_SLOTS: Readonly<WorkerSlots> = Object.freeze({
  activities: 1_000,
  detachedSteps: 5_000,
  webhookActivities: 200,
  workflowTasks: 8,
  queuePollRatio: 0.5,
  workflowCache: 500,
});

/** How long a stopping worker waits for its detached step attempts, as long as the SDK's shutdown grace. */
const DETACHED_DRAIN_MS = 10_000;

/** Local activities are the run workflow's bookkeeping (database writes), bounded as they were. */
const LOCAL_ACTIVITY_SLOTS = 50;

/** A number setting from the environment: `fallback` when unset, refused (naming the setting) when not `valid`. */
function setting(env: NodeJS.ProcessEnv, name: string, fallback: number, valid: (n: number) => boolean, must: string): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!valid(n)) throw new Error(`${name} must be ${must} (got "${raw}")`);
  return n;
}

const count = (env: NodeJS.ProcessEnv, name: string, fallback: number, least = 1) =>
  setting(env, name, fallback, (n) => Number.isInteger(n) && n >= least, `an integer of at least ${least}`);

const ratio = (env: NodeJS.ProcessEnv, name: string, fallback: number) =>
  setting(env, name, fallback, (n) => n > 0 && n <= 1, 'a number above 0 and at most 1');

export function workerSlotsFromEnv(env: NodeJS.ProcessEnv = process.env): WorkerSlots {
  return {
    activities: count(env, 'ATELIER_WORKER_MAX_ACTIVITIES', DEFAULT_WORKER_SLOTS.activities),
    detachedSteps: count(env, 'ATELIER_WORKER_MAX_DETACHED_STEPS', DEFAULT_WORKER_SLOTS.detachedSteps, 0),
    webhookActivities: count(env, 'ATELIER_WEBHOOK_MAX_ACTIVITIES', DEFAULT_WORKER_SLOTS.webhookActivities),
    workflowTasks: count(env, 'ATELIER_WORKFLOW_TASK_SLOTS', DEFAULT_WORKER_SLOTS.workflowTasks),
    queuePollRatio: ratio(env, 'ATELIER_WORKFLOW_QUEUE_POLL_RATIO', DEFAULT_WORKER_SLOTS.queuePollRatio),
    workflowCache: count(env, 'ATELIER_WORKFLOW_CACHE_SIZE', DEFAULT_WORKER_SLOTS.workflowCache, 2),
  };
}

/** A tuner of fixed-size slot suppliers with `activities` activity slots and `workflowTasks` workflow task slots. */
export function slotTuner(activities: number, workflowTasks: number = DEFAULT_WORKER_SLOTS.workflowTasks): WorkerTuner {
  return {
    workflowTaskSlotSupplier: { type: 'fixed-size', numSlots: workflowTasks },
    activityTaskSlotSupplier: { type: 'fixed-size', numSlots: activities },
    localActivityTaskSlotSupplier: { type: 'fixed-size', numSlots: LOCAL_ACTIVITY_SLOTS },
    nexusTaskSlotSupplier: { type: 'fixed-size', numSlots: 1 },
  };
}

/**
 * The two workers of a worker process: the run queue's and the webhook queue's, over one connection.
 * They run, are shut down and report their state together; the process is ready only when both poll,
 * and when one fails the other is shut down so the process ends instead of half-serving.
 */
export class RunWorkers {
  constructor(
    readonly runs: Worker,
    readonly webhooks: Worker,
    /** Called once both have stopped (the worker's expression threads, tracing). */
    private readonly stopped: () => Promise<unknown> = async () => undefined,
    /** Where both report nondeterminism errors (for the probe server's /readyz). */
    readonly nondeterminism?: NondeterminismWatch,
    /** Step attempts running detached from the run worker's slots: drained before the connection may close. */
    readonly detached?: DetachedSteps,
  ) {}

  get client() {
    return this.runs.client;
  }

  /** RUNNING when both run; otherwise the state of the one that does not (FAILED first). */
  getState(): State {
    const states = [this.runs.getState(), this.webhooks.getState()];
    if (states.includes('FAILED')) return 'FAILED';
    return states.find((s) => s !== 'RUNNING') ?? 'RUNNING';
  }

  async run(): Promise<void> {
    const both = [this.runs, this.webhooks].map((w) =>
      w.run().catch((err) => {
        this.shutdown();
        throw err;
      }),
    );
    try {
      const [failed] = (await Promise.allSettled(both)).filter((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
    } finally {
      await this.detached?.drain(DETACHED_DRAIN_MS);
      await this.stopped();
    }
  }

  shutdown(): void {
    for (const w of [this.runs, this.webhooks]) if (w.getState() === 'RUNNING') w.shutdown();
  }
}
