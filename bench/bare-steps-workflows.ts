/**
 * The per-step baseline of bench/engine.ts, bundled on its own (bundleWorkflowCode({ workflowsPath })):
 * one no-op activity per step, in sequence, and nothing else. The activity options are the engine's
 * executeStep options, so a step differs from an Atelier step only by what Atelier itself does.
 * Deterministic: imports only the workflow SDK and types.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { BareStepActivities } from './bare-steps-activities';

// The same activity options as the engine's executeStep proxy.
const { noopStep } = proxyActivities<BareStepActivities>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '15 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
});

/** `steps` no-op activities in sequence, each fed the previous one's result (as a run feeds its steps). */
export async function bareStepsWorkflow(input: { i: number; steps: number }): Promise<number> {
  let value = input.i;
  for (let step = 0; step < input.steps; step++) value = await noopStep({ step, value });
  return value;
}
