/** The nine run statuses of the contract (plus planned, for order children not yet started). */
export const RUN_STATUS_VALUES = [
  'pending',
  'queued',
  'running',
  'planned',
  'completed',
  'review',
  'failed',
  'cancelled',
  'rejected',
  'changes_requested',
] as const;
