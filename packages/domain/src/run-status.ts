import { RUN_STATUS_VALUES } from '@atelier/contracts/run-statuses';

export const RUN_STATUSES = RUN_STATUS_VALUES;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Whether a status read from a row (a string) is one of the run statuses. */
export const isRunStatus = (status: string): status is RunStatus => (RUN_STATUSES as readonly string[]).includes(status);

export const TERMINAL_RUN_STATUSES = [
  'completed',
  'review',
  'failed',
  'cancelled',
  'rejected',
  'changes_requested',
] as const satisfies readonly RunStatus[];

export function isTerminalRunStatus(status: string): boolean {
  return (TERMINAL_RUN_STATUSES as readonly string[]).includes(status);
}

export const STEP_STATUSES = ['pending', 'completed', 'failed', 'skipped'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/**
 * The forward-only order of the non-terminal statuses a run moves through. A write that would move a
 * run backwards (a late `queued` after the worker already marked it `running`) is ignored.
 */
const PROGRESS_RANK: Record<Exclude<RunStatus, (typeof TERMINAL_RUN_STATUSES)[number]>, number> = {
  planned: 0,
  pending: 1,
  queued: 2,
  running: 3,
};
// Every status is ranked here or terminal: a status added to the contract fails to compile until placed.
const rankOf = (status: string): number => (PROGRESS_RANK as Record<string, number>)[status] ?? -1;

export function isForwardMove(from: string, to: string): boolean {
  if (isTerminalRunStatus(from)) return false;
  if (isTerminalRunStatus(to)) return true;
  return rankOf(to) > rankOf(from);
}
