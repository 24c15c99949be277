import { type ModelEntry, roundUsd, textCallCost } from '@atelier/domain';
import { type TextCompletion, type TextRequest, TransientProviderError } from '../types.js';

/** The model name the API knows: the registry id without its `openai/` prefix. */
export const apiModel = (id: string) => id.replace(/^openai\//, '');

/** A chat completions request body for one text call: structured outputs when the step has a jsonSchema. */
export function chatRequestBody(req: Pick<TextRequest, 'model' | 'prompt' | 'jsonSchema'>): Record<string, unknown> {
  return {
    model: apiModel(req.model.id),
    messages: [{ role: 'user', content: req.prompt }],
    ...(req.jsonSchema
      ? { response_format: { type: 'json_schema', json_schema: { name: 'step_output', schema: req.jsonSchema, strict: false } } }
      : {}),
  };
}

export interface ChatCompletionBody {
  choices?: Array<{ message?: { content?: string } }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
}

/** What a chat completion answered, priced from its usage (times `priceFactor`: the batch discount). */
export function chatCompletionOf(model: ModelEntry, answer: ChatCompletionBody, priceFactor = 1): TextCompletion {
  const text = answer.choices?.[0]?.message?.content;
  if (typeof text !== 'string') throw new TransientProviderError('the provider answered without a message');
  const inputTokens = answer.usage?.prompt_tokens ?? 0;
  const outputTokens = answer.usage?.completion_tokens ?? 0;
  // No usage (some compatible servers leave it out): the call was still paid for, at a cost not known.
  if (answer.usage?.prompt_tokens === undefined && answer.usage?.completion_tokens === undefined)
    return { text, inputTokens, outputTokens, costUsd: 0, unpriced: true };
  return { text, inputTokens, outputTokens, costUsd: roundUsd(textCallCost(model, inputTokens, outputTokens) * priceFactor) };
}
