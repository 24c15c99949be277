/**
 * The reconcile workflow, started by the reconciler's Temporal Schedule (ensureReconcilerSchedule): one
 * pass of the reconciler as an activity. Its result lists what the pass settled.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { ReconcileInput, ReconcileReport, ReconcilerActivities } from '../reconcile-types.js';

const { reconcileStuck } = proxyActivities<ReconcilerActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '1 minute', maximumAttempts: 3 },
});

export async function reconcileWorkflow(input: ReconcileInput): Promise<ReconcileReport> {
  return reconcileStuck(input);
}
