import { type JudgedGate, rejectionStop, renderTemplate } from '@atelier/domain';
import type { ExecuteStepInput } from '../../run-types';
import { StepFailure, type StepExecution, type ExecutorDeps, boundModel, invalid } from './shared';

/**
 * Judges a quality or safety gate on the step's output with the bound classifier, in the step's own
 * activity. Returns the verdict's cost; a rejection is a StepFailure carrying the step's cost and the
 * classifier's, so both are billed before the run fails.
 */
export async function judgeGate(
  gate: JudgedGate,
  input: ExecuteStepInput,
  result: StepExecution,
  deps: ExecutorDeps,
  signal: AbortSignal,
): Promise<number> {
  const model = boundModel(input.step, 'classifier', input.bindings, deps);
  const classifier = deps.providers.classifier(model.provider);
  if (!classifier) throw invalid(`gate ${gate.id}: provider ${model.provider} has no classifier`);
  // A safety verdict reads what was asked as well as what was made; quality reads the output alone.
  const subject =
    gate.type === 'safety'
      ? `${JSON.stringify(input.context.intake)}\n${input.step.prompt ? renderTemplate(input.step.prompt, input.context) : ''}\n`
      : '';
  const text = `${subject}${JSON.stringify(result.output)}`;
  const verdict = await classifier.classify({ model, policy: gate.type, text, seed: `gate:${gate.id}`, signal });
  deps.metrics?.gateVerdicts.inc({ gate_type: gate.type, verdict: verdict.pass ? 'pass' : 'fail' });
  if (!verdict.pass) {
    const stop = rejectionStop(gate, verdict.verdict, verdict.reasons);
    throw new StepFailure(stop.error, stop.errorCode, result.costUsd + verdict.costUsd, result.provider, result.model, stop.failureDetails);
  }
  return verdict.costUsd;
}
