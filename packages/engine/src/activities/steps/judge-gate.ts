import { type JudgedGate, type StepFallback, rejectionStop, renderTemplate, verdictReadsAsked } from '@atelier/domain';
import type { ExecuteStepInput } from '../../run-types.js';
import { withFallbacks } from './fallbacks.js';
import { StepFailure, type StepExecution, type ExecutorDeps, invalid } from './shared.js';

/**
 * Judges a gate a classifier judges (isJudgedGate: quality, safety) on the step's output with the bound classifier, in the step's own
 * activity. Returns the verdict's cost; a rejection is a StepFailure carrying the step's cost and the
 * classifier's, so both are billed before the run fails.
 */
export async function judgeGate(
  gate: JudgedGate,
  input: ExecuteStepInput,
  result: StepExecution,
  deps: ExecutorDeps,
  signal: AbortSignal,
): Promise<{ costUsd: number; fallbacks?: StepFallback[] }> {
  // Some verdicts read what was asked as well as what was made (safety); others the output alone (GATE_TYPE_RULES).
  const subject = verdictReadsAsked(gate)
    ? `${JSON.stringify(input.context.intake)}\n${input.step.prompt ? renderTemplate(input.step.prompt, input.context) : ''}\n`
    : '';
  const text = `${subject}${JSON.stringify(result.output)}`;
  const judged = await withFallbacks(
    input,
    'classifier',
    deps,
    signal,
    (model, scoped) => {
      const classifier = scoped.providers.classifier(model.provider);
      if (!classifier) throw invalid(`gate ${gate.id}: provider ${model.provider} has no classifier`);
      return classifier.classify({ model, policy: gate.type, text, seed: `gate:${gate.id}`, signal });
    },
    { spentUsd: result.costUsd, carried: result.fallbacks },
  ).catch((err: unknown) => {
    // A gate that could not be judged (its fallbacks exhausted, or a budget in the way) bills the step's output too.
    if (!(err instanceof StepFailure)) throw err;
    throw new StepFailure(
      err.message,
      err.errorCode,
      err.costUsd + result.costUsd,
      err.provider ?? result.provider,
      err.model ?? result.model,
      err.details,
      err.fallbacks,
    );
  });
  const verdict = { ...judged.result, costUsd: judged.result.costUsd + judged.skippedCostUsd };
  const fallbacks = judged.fallbacks.length > 0 ? judged.fallbacks : undefined;
  deps.metrics?.gateVerdicts.inc({ gate_type: gate.type, verdict: verdict.pass ? 'pass' : 'fail' });
  if (!verdict.pass) {
    const stop = rejectionStop(gate, verdict.verdict, verdict.reasons);
    throw new StepFailure(
      stop.error,
      stop.errorCode,
      result.costUsd + verdict.costUsd,
      result.provider,
      result.model,
      stop.failureDetails,
      fallbacks,
    );
  }
  return { costUsd: verdict.costUsd, ...(fallbacks ? { fallbacks } : {}) };
}
