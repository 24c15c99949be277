/**
 * Types shared by the reconciler (reconciler.ts, I/O) and the reconcile workflow that runs it as an
 * activity. Type-only: deterministic workflow code imports this file with `import type`, so nothing
 * here may be a value.
 */

/** What one reconcile workflow asks of its activity. */
export interface ReconcileInput {
  staleAfterMs: number;
  graceMs?: number;
}

export interface ReconcileAction {
  kind: 'run' | 'order';
  id: string;
  from: string;
  to: string;
  /** Why it was settled: the execution's state in Temporal. */
  reason: string;
  errorCode: string | null;
  error: string | null;
}

export interface ReconcileReport {
  dryRun: boolean;
  examined: { runs: number; orders: number };
  settled: ReconcileAction[];
}

/** The reconciler's activity (createReconcilerActivities), as the reconcile workflow proxies it. */
export interface ReconcilerActivities {
  reconcileStuck(input: ReconcileInput): Promise<ReconcileReport>;
}
