/**
 * How a run's or an order's priority becomes Temporal's: a priority key (1 is served first, 5 last; a task
 * without one counts as 3) and a fairness key. Temporal's matching serves a task queue's backlog lowest key
 * first, and within one key round-robin across fairness keys, so one workspace's backlog cannot hold up
 * another's work. Children (an order's, a sub-workflow's) and activities inherit their workflow's priority
 * on the server: only the workflows the engine starts from outside carry it (engine/client.ts).
 */
import type { Priority } from '@atelier/contracts/priorities';

/**
 * A single run someone is waiting on goes ahead of bulk work: an order's children run one level below a
 * run of the same priority (a `high` order's children level with a `low` run).
 */
const KEYS: Record<'run' | 'order', Record<Priority, number>> = {
  run: { high: 1, normal: 2, low: 3 },
  order: { high: 3, normal: 4, low: 5 },
};

export interface TemporalPriority {
  priorityKey: number;
  /** The workspace: each gets its share of the workers, however much any one of them has queued. */
  fairnessKey: string;
}

/** The Temporal priority of a run started on its own or of an order (and so of its children); null means normal. */
export function temporalPriorityOf(kind: 'run' | 'order', workspaceId: string, priority: Priority | null | undefined): TemporalPriority {
  return { priorityKey: KEYS[kind][priority ?? 'normal'], fairnessKey: workspaceId };
}

/**
 * Children of one order in flight at once, unless the order names its own (`maxConcurrency`) or the deployment
 * sets ATELIER_ORDER_CONCURRENCY. High, so an order runs as fast as the workers allow: priority and fairness,
 * not a small cap, keep it from holding up other work.
 */
export const DEFAULT_ORDER_CONCURRENCY = 64;

/**
 * Children of a batch-mode order in flight at once when its owner set no maxConcurrency: a child's model
 * calls wait in a provider batch without holding a worker, so many are started and one batch carries all
 * their calls. Bounded by what one order execution may hold pending (Temporal refuses more than 2,000
 * pending children by default) and keeps its history small.
 */
export const BATCH_ORDER_CONCURRENCY = 1_000;

/** How many children of an order run at once: its owner's cap, else the deployment's default for its mode. */
export function orderConcurrencyOf(order: { max_concurrency: number | null; execution_mode: string }, deployment: number): number {
  return order.max_concurrency ?? (order.execution_mode === 'batch' ? Math.max(deployment, BATCH_ORDER_CONCURRENCY) : deployment);
}
