/**
 * The priorities a caller may give a run or an order (`priority` on POST /v1/runs and /v1/orders). What
 * each means for Temporal's task queues is decided in one place: domain/priority.ts.
 */
export const PRIORITY_VALUES = ['high', 'normal', 'low'] as const;

export type Priority = (typeof PRIORITY_VALUES)[number];

/** The children of one order that may run at once, when the order names it (`maxConcurrency`). */
export const MAX_CONCURRENCY = { min: 1, max: 1000 } as const;
