import { randomBytes } from 'node:crypto';
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type MessageBatchesState, answerMessageBatches, createMessageBatchesState } from './anthropic-batches-loopback.js';
import { conformingValue } from './conforming-value.js';

/**
 * A loopback HTTP server that speaks Anthropic's Messages API (`POST /v1/messages`, version 2023-06-01).
 * It refuses what Anthropic refuses before any scripted answer (wrong path or method, a missing or wrong
 * `x-api-key`, a missing `anthropic-version`, a malformed body, an unknown model) with Anthropic's error
 * body; otherwise tests script its answers per request and read back what it received.
 */
export interface ScriptedAnswer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
  raw?: string;
  /** A streamed answer (`stream: true`): the connection is dropped after this many events, as a cut stream. */
  cutAfterFrames?: number;
  /** A streamed answer: the wait between its events. */
  frameDelayMs?: number;
}

export interface ReceivedRequest {
  method: string;
  path: string;
  apiKey?: string;
  version?: string;
  contentType?: string;
  authorization?: string;
  idempotencyKey?: string;
  body: any;
}

export interface AnthropicLoopback {
  /** Without `/v1`, as ANTHROPIC_BASE_URL is given. */
  baseUrl: string;
  received: ReceivedRequest[];
  script: ScriptedAnswer[];
  fallback: (req: ReceivedRequest) => ScriptedAnswer;
  /** Message Batches (anthropic-batches-loopback.ts). */
  batches: MessageBatchesState;
  close(): Promise<void>;
}

/** The Claude models this stand-in serves; others get Anthropic's 404 for an unknown model. */
const MODELS = new Set([
  'claude-opus-4-7',
  'claude-opus-4-6',
  'claude-opus-4-5',
  'claude-opus-4-5-20251101',
  'claude-opus-4-1',
  'claude-opus-4-1-20250805',
  'claude-sonnet-4-6',
  'claude-sonnet-4-5',
  'claude-sonnet-4-5-20250929',
  'claude-haiku-4-5',
  'claude-haiku-4-5-20251001',
]);

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const requestId = () => `req_${randomBytes(12).toString('hex')}`;

/** Anthropic's error body: `{ type: 'error', error: { type, message }, request_id }`. */
export const apiError = (status: number, type: string, message: string, headers: Record<string, string> = {}): ScriptedAnswer => ({
  status,
  headers,
  body: { type: 'error', error: { type, message }, request_id: requestId() },
});

type Usage = { input_tokens: number; output_tokens: number };

const messageBody = (model: string, content: unknown[], stopReason: string, usage: Usage | null) => ({
  id: `msg_${randomBytes(12).toString('hex')}`,
  type: 'message',
  role: 'assistant',
  model,
  content,
  stop_reason: stopReason,
  stop_sequence: null,
  ...(usage ? { usage: { cache_creation_input_tokens: 0, cache_read_input_tokens: 0, service_tier: 'standard', ...usage } } : {}),
});

/** Text in the pieces a model streams: a few characters each, cut anywhere. */
const pieces = (text: string, size = 7): string[] => {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
};

/** An event of a streamed message, as Anthropic writes it: `event:` its type, `data:` its JSON. */
export const sseEvent = (data: { type: string } & Record<string, unknown>) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * A message as Anthropic streams it: `message_start` (the message without content, its usage so far), for
 * each block `content_block_start`, its `text_delta`s or `input_json_delta`s, `content_block_stop` (a `ping`
 * after the first start), then `message_delta` with the stop reason and the cumulative output tokens, and
 * `message_stop`.
 */
export function messageEvents(message: any): string[] {
  const usage = message.usage;
  const events = [
    sseEvent({
      type: 'message_start',
      message: {
        ...message,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        ...(usage ? { usage: { ...usage, output_tokens: 1 } } : {}),
      },
    }),
  ];
  for (const [index, block] of (message.content ?? []).entries()) {
    const start = block.type === 'tool_use' ? { ...block, input: {} } : block.type === 'text' ? { type: 'text', text: '' } : block;
    events.push(sseEvent({ type: 'content_block_start', index, content_block: start }));
    if (index === 0) events.push(sseEvent({ type: 'ping' }));
    if (block.type === 'text')
      for (const text of pieces(block.text))
        events.push(sseEvent({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } }));
    if (block.type === 'tool_use')
      for (const partial_json of pieces(JSON.stringify(block.input)))
        events.push(sseEvent({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } }));
    events.push(sseEvent({ type: 'content_block_stop', index }));
  }
  events.push(
    sseEvent({
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      ...(usage ? { usage: { output_tokens: usage.output_tokens } } : {}),
    }),
  );
  events.push(sseEvent({ type: 'message_stop' }));
  return events;
}

/** A text answer (`stop_reason: end_turn`); `usage: null` leaves usage out, as a stripping proxy would. */
export const textMessage = (
  text: string,
  usage: Usage | null = { input_tokens: 1000, output_tokens: 500 },
  model = 'claude-haiku-4-5',
) => ({
  body: messageBody(model, [{ type: 'text', text }], 'end_turn', usage),
});

/** A forced tool call (`stop_reason: tool_use`), as Anthropic answers a request with `tool_choice: { type: 'tool' }`. */
export const toolUseMessage = (
  name: string,
  input: unknown,
  usage: Usage | null = { input_tokens: 1000, output_tokens: 500 },
  model = 'claude-haiku-4-5',
) => ({
  body: messageBody(model, [{ type: 'tool_use', id: `toolu_${randomBytes(12).toString('hex')}`, name, input }], 'tool_use', usage),
});

/** An answer cut at max_tokens, its tool call's input incomplete. */
export const cutMessage = (model = 'claude-haiku-4-5') => ({
  body: messageBody(model, [{ type: 'tool_use', id: 'toolu_cut', name: 'step_output', input: {} }], 'max_tokens', {
    input_tokens: 1000,
    output_tokens: 8192,
  }),
});

/** The forced tool's input schema a request carries (undefined without one). */
export const forcedSchema = (body: any): any => body?.tools?.find((t: any) => t.name === body?.tool_choice?.name)?.input_schema;

/** Answers a forced tool call with input fitting its schema, and a plain request with text. */
export const conformingAnswer = (req: ReceivedRequest, usage?: Usage) => {
  const schema = forcedSchema(req.body);
  return schema
    ? toolUseMessage(req.body.tool_choice.name, conformingValue(schema), usage, req.body.model)
    : textMessage('A remote answer.', usage, req.body.model);
};

/** What Anthropic checks before it looks at a request's content; undefined when the request passes. */
function refusal(req: ReceivedRequest, apiKey: string): ScriptedAnswer | undefined {
  if (req.method !== 'POST' || req.path !== '/v1/messages') return apiError(404, 'not_found_error', 'Not Found');
  if (!req.apiKey) return apiError(401, 'authentication_error', 'x-api-key header is required');
  if (req.apiKey !== apiKey) return apiError(401, 'authentication_error', 'invalid x-api-key');
  if (!req.version) return apiError(400, 'invalid_request_error', 'anthropic-version: header is required');
  if (req.version !== '2023-06-01') return apiError(400, 'invalid_request_error', `anthropic-version: invalid version ${req.version}`);
  if (!req.contentType?.startsWith('application/json'))
    return apiError(400, 'invalid_request_error', 'Unsupported content type, expected application/json');
  const body = req.body;
  if (body === null || typeof body !== 'object') return apiError(400, 'invalid_request_error', 'There was an issue with the request body');
  if (typeof body.model !== 'string') return apiError(400, 'invalid_request_error', 'model: Field required');
  if (!Number.isInteger(body.max_tokens) || body.max_tokens < 1)
    return apiError(400, 'invalid_request_error', 'max_tokens: Field required');
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return apiError(400, 'invalid_request_error', 'messages: at least one message is required');
  for (const [i, m] of body.messages.entries()) {
    if (m?.role !== 'user' && m?.role !== 'assistant')
      return apiError(400, 'invalid_request_error', `messages.${i}.role: Input should be 'user' or 'assistant'`);
    if (typeof m.content !== 'string' && !Array.isArray(m.content))
      return apiError(400, 'invalid_request_error', `messages.${i}.content: Input should be a valid list`);
  }
  if (body.messages[0].role !== 'user') return apiError(400, 'invalid_request_error', 'messages: first message must use the "user" role');
  for (const [i, tool] of (body.tools ?? []).entries()) {
    if (typeof tool?.name !== 'string' || !TOOL_NAME.test(tool.name))
      return apiError(400, 'invalid_request_error', `tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`);
    if (tool.input_schema?.type !== 'object')
      return apiError(400, 'invalid_request_error', `tools.${i}.custom.input_schema.type: Input should be 'object'`);
  }
  if (body.tool_choice?.type === 'tool' && !(body.tools ?? []).some((t: any) => t.name === body.tool_choice.name))
    return apiError(400, 'invalid_request_error', `Tool '${body.tool_choice.name}' not found in provided tools`);
  if (!MODELS.has(body.model)) return apiError(404, 'not_found_error', `model: ${body.model}`);
  return undefined;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => resolve(data));
  });

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
};

export async function startAnthropicLoopback(
  fallback: AnthropicLoopback['fallback'] = conformingAnswer,
  apiKey = 'sk-ant-loopback',
): Promise<AnthropicLoopback> {
  const state: Omit<AnthropicLoopback, 'baseUrl' | 'close'> = { received: [], script: [], fallback, batches: createMessageBatchesState() };
  const server: Server = createServer(async (req, res) => {
    const text = await readBody(req);
    let body: unknown = null;
    try {
      body = JSON.parse(text || 'null');
    } catch {
      body = undefined;
    }
    const received: ReceivedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      apiKey: header(req, 'x-api-key'),
      version: header(req, 'anthropic-version'),
      contentType: header(req, 'content-type'),
      authorization: header(req, 'authorization'),
      idempotencyKey: header(req, 'idempotency-key'),
      body,
    };
    state.received.push(received);
    const path = received.path.split('?')[0]!;
    // Message Batches: authenticated as every call is; each request's params answered as if sent alone.
    const batchAnswer = path.startsWith('/v1/messages/batches')
      ? (refusal(
          {
            ...received,
            method: 'POST',
            path: '/v1/messages',
            contentType: 'application/json',
            body: { model: 'claude-haiku-4-5', max_tokens: 1, messages: [{ role: 'user', content: 'x' }] },
          },
          apiKey,
        ) ??
        answerMessageBatches(state.batches, received.method, path, received.body, (params) => {
          const alone = { ...received, method: 'POST', path: '/v1/messages', contentType: 'application/json', body: params };
          return refusal(alone, apiKey) ?? state.fallback(alone);
        }))
      : undefined;
    const answer: ScriptedAnswer = batchAnswer ?? refusal(received, apiKey) ?? state.script.shift() ?? state.fallback(received);
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    if (res.destroyed) return;
    if ((received.body as any)?.stream === true && (answer.status ?? 200) === 200 && answer.raw === undefined) {
      // A successful answer to a streaming request goes as Anthropic streams a message: typed SSE events.
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'request-id': requestId(), ...answer.headers });
      for (const [i, frame] of messageEvents(answer.body as any).entries()) {
        if (answer.cutAfterFrames !== undefined && i >= answer.cutAfterFrames) {
          res.destroy();
          return;
        }
        if (answer.frameDelayMs) await new Promise((r) => setTimeout(r, answer.frameDelayMs));
        if (res.destroyed) return;
        res.write(frame);
      }
      res.end();
      return;
    }
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', 'request-id': requestId(), ...answer.headers });
    res.end(answer.raw ?? JSON.stringify(answer.body ?? {}));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  }) as AnthropicLoopback;
}
