import { RUN_STATUS_VALUES } from '@atelier/contracts/run-statuses';

export const RUN_STATUSES = RUN_STATUS_VALUES;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Whether a status read from a row (a string) is one of the run statuses. */
export const isRunStatus = (status: string): status is RunStatus => (RUN_STATUSES as readonly string[]).includes(status);

export const TERMINAL_RUN_STATUSES: readonly RunStatus[] = ['completed', 'review', 'failed', 'cancelled', 'rejected', 'changes_requested'];

export function isTerminalRunStatus(status: string): boolean {
  return (TERMINAL_RUN_STATUSES as readonly string[]).includes(status);
}

export const STEP_STATUSES = ['pending', 'completed', 'failed', 'skipped'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/**
 * The forward-only order of the non-terminal statuses a run moves through. A write that would move a
 * run backwards (a late `queued` after the worker already marked it `running`) is ignored.
 */
const PROGRESS_RANK: Record<string, number> = { planned: 0, pending: 1, queued: 2, running: 3 };

export function isForwardMove(from: string, to: string): boolean {
  if (isTerminalRunStatus(from)) return false;
  if (isTerminalRunStatus(to)) return true;
  return (PROGRESS_RANK[to] ?? -1) > (PROGRESS_RANK[from] ?? -1);
}
