import type { ModelEntry } from '@atelier/domain';
import { postJsonWithRetries, postStreamWithRetries } from '../http-call.js';
import { TransientProviderError } from '../types.js';

export interface AnthropicOptions {
  /** Without `/v1`, as Anthropic's own clients take ANTHROPIC_BASE_URL. */
  baseUrl: string;
  apiKey: string;
  timeoutMs?: number;
  /** The Messages API's required `max_tokens` for steps; classifier verdicts are short and ask for less. */
  maxTokens?: number;
  /** Attempts per call for 5xx (529 overloaded included), timeouts and network errors; 429s are the capacity layer's. */
  maxAttempts?: number;
}

/** The Messages API version this adapter speaks; Anthropic refuses a request without one. */
export const ANTHROPIC_VERSION = '2023-06-01';

/**
 * Non-streaming calls hold the connection until the whole answer is written: at the default max_tokens
 * that can take minutes on the larger models, so the bound is wider than openai's 60 s.
 */
const DEFAULT_TIMEOUT_MS = 300_000;

/**
 * The registry id without its `anthropic/` prefix, and without a `:use` suffix: one API model can be
 * registered under two kinds (`anthropic/claude-haiku-4-5` text, `anthropic/claude-haiku-4-5:classifier`),
 * and Claude model names never contain a colon.
 */
export const apiModel = (model: ModelEntry) => model.id.replace(/^anthropic\//, '').replace(/:[a-z-]+$/, '');

export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export interface MessageRequest {
  model: ModelEntry;
  prompt: string;
  maxTokens: number;
  /** Forced: the model must answer by calling it, which is how Anthropic gives output that fits a schema. */
  tool?: ToolDefinition;
  signal?: AbortSignal;
  idempotencyKey?: string;
}

type ContentBlock = { type: string; text?: unknown; name?: unknown; input?: unknown };

export interface Message {
  content?: ContentBlock[];
  stop_reason?: string | null;
  usage?: {
    input_tokens?: number;
    output_tokens?: number;
    cache_creation_input_tokens?: number | null;
    cache_read_input_tokens?: number | null;
  };
}

/** The Messages API body of a request (a batch's `params` too). */
export const requestBody = (req: MessageRequest) => ({
  model: apiModel(req.model),
  max_tokens: req.maxTokens,
  messages: [{ role: 'user', content: req.prompt }],
  ...(req.tool ? { tools: [req.tool], tool_choice: { type: 'tool', name: req.tool.name } } : {}),
});

const messagesCall = (opts: AnthropicOptions, req: MessageRequest, body: unknown) => ({
  baseUrl: opts.baseUrl,
  path: '/v1/messages',
  body,
  timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  signal: req.signal,
  // Anthropic's API does not document idempotency keys; a gateway or proxy in front of it may honour one.
  idempotencyKey: req.idempotencyKey,
  headers: { 'x-api-key': opts.apiKey, 'anthropic-version': ANTHROPIC_VERSION },
  maxAttempts: opts.maxAttempts,
  secrets: [opts.apiKey],
});

export async function createMessage(opts: AnthropicOptions, req: MessageRequest): Promise<{ message: Message; sent: unknown }> {
  const body = requestBody(req);
  const message = (await postJsonWithRetries(messagesCall(opts, req, body))) as Message;
  return { message, sent: body };
}

interface StreamEvent {
  type?: string;
  message?: Message;
  index?: number;
  content_block?: ContentBlock;
  delta?: { type?: string; text?: unknown; partial_json?: unknown; stop_reason?: string | null };
  usage?: Message['usage'];
  error?: { type?: string; message?: string };
}

/**
 * A message streamed (`stream: true`): the text of its text blocks, or the JSON of its tool call's input,
 * handed to `onDelta` piece by piece, and the events put together into the message the non-streaming call
 * answers: its content blocks (a tool call's input parsed from its pieces), stop reason, and usage (that of
 * `message_start`, updated by `message_delta`'s cumulative counts). A stream that ends before
 * `message_stop`, or in an `error` event (overloaded part-way), is transient.
 */
export async function streamMessage(
  opts: AnthropicOptions,
  req: MessageRequest,
  onDelta: (text: string) => void,
): Promise<{ message: Message; sent: unknown }> {
  const body = requestBody(req);
  let message: Message | undefined;
  const json = new Map<number, string>();
  let done = false;
  const whole = await postStreamWithRetries(messagesCall(opts, req, { ...body, stream: true }), (sse) => {
    if (done) return;
    let event: StreamEvent;
    try {
      event = JSON.parse(sse.data) as StreamEvent;
    } catch {
      throw new TransientProviderError('the provider streamed an event that is not JSON');
    }
    const type = event.type ?? sse.event;
    if (type === 'error')
      throw new TransientProviderError(
        `the stream ended in an error: ${event.error?.type ?? 'error'}: ${event.error?.message ?? ''}`.slice(0, 300),
      );
    if (type === 'message_start') {
      message = { ...event.message, content: [] };
      return;
    }
    if (!message) return;
    const content = message.content!;
    const index = event.index ?? 0;
    if (type === 'content_block_start' && event.content_block) {
      content[index] = { ...event.content_block };
      if (event.content_block.type === 'tool_use') json.set(index, '');
    } else if (type === 'content_block_delta' && content[index]) {
      const block = content[index];
      if (event.delta?.type === 'text_delta' && typeof event.delta.text === 'string') {
        block.text = `${typeof block.text === 'string' ? block.text : ''}${event.delta.text}`;
        onDelta(event.delta.text);
      } else if (event.delta?.type === 'input_json_delta' && typeof event.delta.partial_json === 'string') {
        json.set(index, (json.get(index) ?? '') + event.delta.partial_json);
        if (event.delta.partial_json) onDelta(event.delta.partial_json);
      }
    } else if (type === 'content_block_stop' && json.has(index) && content[index]) {
      const text = json.get(index)!;
      try {
        content[index].input = text ? JSON.parse(text) : {};
      } catch {
        // Cut off (max_tokens): toolInput says so, as for an incomplete input the non-streaming call returns.
        content[index].input = undefined;
      }
    } else if (type === 'message_delta') {
      if (event.delta && 'stop_reason' in event.delta) message.stop_reason = event.delta.stop_reason;
      if (event.usage) message.usage = { ...message.usage, ...event.usage };
    } else if (type === 'message_stop') done = true;
  });
  if (whole !== undefined) return { message: whole as Message, sent: body };
  if (!done || !message) throw new TransientProviderError('the stream was cut before it ended (message_stop)');
  message.content = message.content!.filter((b) => b !== undefined);
  return { message, sent: body };
}

/** Claude declined to answer (its safety classifiers stopped it): asking again would end the same way. */
export const refused = (message: Message) => message.stop_reason === 'refusal';

/** The text blocks of an answer, joined; a transient failure when there are none. */
export function textOf(message: Message): string {
  const texts = (message.content ?? []).filter((b) => b.type === 'text' && typeof b.text === 'string').map((b) => b.text as string);
  if (texts.length === 0) throw new TransientProviderError('the provider answered without text');
  return texts.join('');
}

/**
 * The input of the forced tool call. An answer cut at max_tokens may carry a tool call whose input is
 * incomplete, so it is never taken for a result: transient, like any answer without the call.
 */
export function toolInput(message: Message, name: string): Record<string, unknown> {
  if (message.stop_reason === 'max_tokens')
    throw new TransientProviderError(`the answer reached max_tokens before the ${name} tool call was complete`);
  const call = (message.content ?? []).find((b) => b.type === 'tool_use' && b.name === name);
  if (!call || typeof call.input !== 'object' || call.input === null || Array.isArray(call.input))
    throw new TransientProviderError(`the provider answered without the ${name} tool call`);
  return call.input as Record<string, unknown>;
}

/** Roughly four characters a token: the usual rule of thumb for English text and JSON. */
const estimateTokens = (text: string) => Math.ceil(text.length / 4);

/**
 * Tokens to price. Anthropic reports usage on every message; cache reads and writes are counted apart from
 * `input_tokens` and are added to them at the base input price (this adapter asks for no prompt caching, so
 * they are there only when something in front of the API adds it). An answer without usage (a proxy that
 * drops it) is still not free: its tokens are estimated from the request sent and the output received.
 */
export function usageOf(message: Message, sent: unknown, output: string): { inputTokens: number; outputTokens: number } {
  const u = message.usage;
  const reportedInput =
    typeof u?.input_tokens === 'number'
      ? u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0)
      : undefined;
  return {
    inputTokens: reportedInput ?? estimateTokens(JSON.stringify(sent)),
    outputTokens: typeof u?.output_tokens === 'number' ? u.output_tokens : estimateTokens(output),
  };
}
