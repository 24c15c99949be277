import { type ModelEntry, roundUsd, textCallCost } from '@atelier/domain';
import { PermanentProviderError, type TextCompletion, type TextRequest } from '../types.js';
import {
  type AnthropicOptions,
  type Message,
  type MessageRequest,
  type ToolDefinition,
  refused,
  textOf,
  toolInput,
  usageOf,
} from './messages.js';

/** The Messages API's required max_tokens for a step's answer, unless the options say otherwise. */
const DEFAULT_MAX_TOKENS = 8_192;

/**
 * A tool's input_schema must be an object schema; a step whose output is another shape (an array, a
 * string) is asked for `{ value }` and given the value back.
 */
function stepOutputTool(schema: Record<string, unknown>): { tool: ToolDefinition; unwrap: (input: Record<string, unknown>) => unknown } {
  const isObject = schema.type === 'object';
  return {
    tool: {
      name: 'step_output',
      description: "Record the step's output. Its input is the complete answer to the request, fitting this schema.",
      input_schema: isObject ? schema : { type: 'object', properties: { value: schema }, required: ['value'] },
    },
    unwrap: (input) => (isObject ? input : input.value),
  };
}

/** A step's text call as a Messages request: a forced `step_output` tool when the step has a jsonSchema. */
export function stepMessage(opts: AnthropicOptions, req: TextRequest) {
  const structured = req.jsonSchema ? stepOutputTool(req.jsonSchema) : undefined;
  const request: MessageRequest = {
    model: req.model,
    prompt: req.prompt,
    maxTokens: opts.maxTokens ?? DEFAULT_MAX_TOKENS,
    tool: structured?.tool,
    signal: req.signal,
    idempotencyKey: req.idempotencyKey,
  };
  return { request, structured };
}

/** What a step's message answered, priced from its usage (times `priceFactor`: the batch discount). */
export function stepCompletion(
  model: ModelEntry,
  structured: ReturnType<typeof stepOutputTool> | undefined,
  message: Message,
  sent: unknown,
  priceFactor = 1,
): TextCompletion {
  if (refused(message)) throw new PermanentProviderError('the model declined the request (stop_reason: refusal)');
  const text = structured ? JSON.stringify(structured.unwrap(toolInput(message, structured.tool.name))) : textOf(message);
  const { inputTokens, outputTokens } = usageOf(message, sent, text);
  return { text, inputTokens, outputTokens, costUsd: roundUsd(textCallCost(model, inputTokens, outputTokens) * priceFactor) };
}
