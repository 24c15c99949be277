/**
 * Baseline workflow code for the benchmark, bundled on its own (bundleWorkflowCode({ workflowsPath })).
 * Deterministic: imports only the workflow SDK, types, and the engine's search attribute keys (pure).
 */
import { proxyActivities, proxyLocalActivities, upsertSearchAttributes } from '@temporalio/workflow';
import { SEARCH_ATTRIBUTES } from '@atelier/engine/workflows/search-attributes';
import type { BareActivities } from './bare-activities';

// The same activity options as the engine's executeStep proxy.
const { stepOne, stepTwo, stepThree } = proxyActivities<BareActivities>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '15 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
});

// The same options as the engine's bookkeeping local activities.
const { bookkeeping } = proxyLocalActivities<BareActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '10 seconds' },
});

/** The baseline: three no-op activities in sequence, nothing else. */
export async function bareWorkflow(input: { i: number }): Promise<number> {
  const a = await stepOne(input);
  const b = await stepTwo({ i: a });
  return stepThree({ i: b });
}

/**
 * Diagnostic control with the Temporal shape of the engine's runWorkflow for a 3-step definition, but
 * no database, HTTP or model work: a local activity before the steps, a RunStatus upsert after it, three
 * activities, a local activity and a second upsert at the end (the run is started with search attributes).
 */
export async function shapedWorkflow(input: { i: number }): Promise<number> {
  await bookkeeping(input);
  upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.RunStatus, value: 'running' }]);
  const a = await stepOne(input);
  const b = await stepTwo({ i: a });
  const c = await stepThree({ i: b });
  await bookkeeping(input);
  upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.RunStatus, value: 'completed' }]);
  return c;
}
