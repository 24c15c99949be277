import { renderTemplate } from '@atelier/domain';
import { type StepExecutor, boundModel, completeText } from './shared';

/** An llm step: renders its prompt over the run context and asks the bound model; jsonSchema enforced; its answer streamed. */
export const executeLlm: StepExecutor = async (input, deps, signal) => {
  const { step, context } = input;
  const model = boundModel(step, step.role, input.bindings, deps);
  const prompt = renderTemplate(step.prompt ?? '{{intake}}', context);
  const batch = input.executionMode === 'batch';
  // A batch interface answers later and whole: nothing to stream.
  const onDelta = batch ? undefined : deps.onTextDelta;
  const { value, costUsd } = await completeText(step, model, prompt, step.jsonSchema, deps, signal, step.id, batch, onDelta);
  return { output: value, provider: model.provider, model: model.id, costUsd };
};
