import { withFallbacks } from './fallbacks.js';
import { type StepExecutor, completeText, stepPrompt } from './shared.js';

/** An llm step: renders its prompt over the run context and asks the bound model (or its fallbacks); jsonSchema enforced; its answer streamed. */
export const executeLlm: StepExecutor = async (input, deps, signal) => {
  const { step, context } = input;
  const prompt = stepPrompt(step, context);
  const batch = input.executionMode === 'batch';
  // A batch interface answers later and whole: nothing to stream.
  const onDelta = batch ? undefined : deps.onTextDelta;
  const { result, model, fallbacks, skippedCostUsd } = await withFallbacks(input, step.role, deps, signal, (model, scoped) =>
    completeText(step, model, prompt, step.jsonSchema, scoped, signal, step.id, batch, onDelta),
  );
  return {
    output: result.value,
    provider: model.provider,
    model: model.id,
    costUsd: result.costUsd + skippedCostUsd,
    ...(fallbacks.length > 0 ? { fallbacks } : {}),
  };
};
