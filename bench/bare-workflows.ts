/**
 * Baseline workflow code for the benchmark, bundled on its own (bundleWorkflowCode({ workflowsPath })).
 * Deterministic: imports only the workflow SDK, types, and the engine's search attribute keys (pure).
 */
import { executeChild, proxyActivities, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { SEARCH_ATTRIBUTES } from '@atelier/engine/workflows/search-attributes';
import type { BareActivities } from './bare-activities';

// The same activity options as the engine's executeStep proxy.
const { stepOne, stepTwo, stepThree, slowCall } = proxyActivities<BareActivities>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '15 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
});

/** The baseline: three no-op activities in sequence, nothing else. */
export async function bareWorkflow(input: { i: number }): Promise<number> {
  const a = await stepOne(input);
  const b = await stepTwo({ i: a });
  return stepThree({ i: b });
}

/**
 * Diagnostic control with the Temporal shape of the engine's runWorkflow for a 3-step definition (RunShape
 * 3), but no database, HTTP or model work: started with search attributes, three activities (the last
 * settles the run), a RunStatus upsert as it closes. The floor of the engine's own design.
 */
export async function shapedWorkflow(input: { i: number }): Promise<number> {
  const a = await stepOne(input);
  const b = await stepTwo({ i: a });
  const c = await stepThree({ i: b });
  upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.RunStatus, value: 'completed' }]);
  return c;
}

/**
 * The orders baseline: a parent that runs `children` bareWorkflow children (three no-op activities each, the
 * Temporal floor of one plan-research-report run), keeping at most `concurrency` in flight, and returns when
 * the last one has finished. Nothing else: no claims from a database, no search attributes, no
 * continue-as-new (2,000 children make a history of about 16,000 events, well within Temporal's limits).
 */
export async function bareOrderWorkflow(input: { children: number; concurrency: number }): Promise<number> {
  const parentId = workflowInfo().workflowId;
  let next = 0;
  let done = 0;
  const lane = async () => {
    while (next < input.children) {
      const i = next++;
      await executeChild(bareWorkflow, { workflowId: `${parentId}-${i}`, args: [{ i }] });
      done++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(input.concurrency, input.children) }, lane));
  return done;
}

/**
 * The slow-calls baseline: the Temporal shape of a plan-research-report run whose two model calls each take
 * `ms` (two activities that sleep, then a no-op one), nothing else.
 */
export async function bareSlowWorkflow(input: { ms: number }): Promise<number> {
  await slowCall({ ms: input.ms });
  await slowCall({ ms: input.ms });
  return stepThree({ i: 0 });
}
