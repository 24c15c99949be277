import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BatchesState, answerBatchApi, createBatchesState } from './openai-batches-loopback.js';

/**
 * A loopback HTTP server that speaks the OpenAI API's chat completions and image generations. Tests
 * script its answers per request (status, body, headers, delay) and read back what it received.
 */
export interface ScriptedAnswer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
  raw?: string;
  /** A streamed answer (`stream: true`): the connection is dropped after this many frames, as a cut stream. */
  cutAfterFrames?: number;
  /** A streamed answer: the wait between its frames. */
  frameDelayMs?: number;
}

export interface ReceivedRequest {
  path: string;
  authorization?: string;
  /** The `Idempotency-Key` header, when the request carried one. */
  idempotencyKey?: string;
  body: any;
}

export interface OpenAiLoopback {
  baseUrl: string;
  received: ReceivedRequest[];
  /** Answers the next requests in order; when the script is empty, `fallback` answers. */
  script: ScriptedAnswer[];
  fallback: (req: ReceivedRequest) => ScriptedAnswer;
  /** The Batch API's files and batches (openai-batches-loopback.ts). */
  batches: BatchesState;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => resolve(data));
  });

export async function startOpenAiLoopback(fallback: OpenAiLoopback['fallback']): Promise<OpenAiLoopback> {
  const state: Omit<OpenAiLoopback, 'baseUrl' | 'close'> = { received: [], script: [], fallback, batches: createBatchesState() };
  const server: Server = createServer(async (req, res) => {
    const text = await readBody(req);
    const contentType = req.headers['content-type'] ?? '';
    // A file upload (the Batch API's) is multipart; everything else is JSON.
    const form = contentType.startsWith('multipart/')
      ? await new Response(text, { headers: { 'content-type': contentType } }).formData()
      : undefined;
    const received: ReceivedRequest = {
      path: req.url ?? '',
      authorization: req.headers.authorization,
      ...(typeof req.headers['idempotency-key'] === 'string' ? { idempotencyKey: req.headers['idempotency-key'] } : {}),
      body: form ? null : JSON.parse(text || 'null'),
    };
    state.received.push(received);
    const batchAnswer = await answerBatchApi(
      state.batches,
      req.method ?? 'GET',
      received.path.split('?')[0]!,
      { json: received.body, form },
      (body) => state.fallback({ path: '/v1/chat/completions', body }),
    );
    const answer: ScriptedAnswer = batchAnswer ?? state.script.shift() ?? state.fallback(received);
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    if (res.destroyed) return;
    if (received.body?.stream === true && (answer.status ?? 200) === 200 && answer.raw === undefined) {
      // A successful answer to a streaming request goes as chat.completion.chunk events, as OpenAI streams it.
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...answer.headers });
      const frames = chunkFrames(answer.body as any, received.body.stream_options?.include_usage === true);
      for (const [i, frame] of frames.entries()) {
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
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.raw ?? JSON.stringify(answer.body ?? {}));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  }) as OpenAiLoopback;
}

/** Content in the pieces a model streams: a few characters each, cut anywhere (inside words and JSON). */
export const streamPieces = (content: string, size = 7): string[] => {
  const pieces: string[] = [];
  for (let i = 0; i < content.length; i += size) pieces.push(content.slice(i, i + size));
  return pieces;
};

/**
 * The SSE frames of a chat completion streamed: a first chunk with the role, one chunk a piece of content,
 * a last chunk with the finish reason, with `include_usage` a chunk with no choices and the usage (every
 * other chunk's usage null), then `data: [DONE]`.
 */
export function chunkFrames(body: any, includeUsage: boolean): string[] {
  const choice = body?.choices?.[0];
  const base = {
    id: body?.id ?? 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 1_764_000_000,
    model: body?.model ?? 'gpt-4o-mini',
  };
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ ...base, ...(includeUsage ? { usage: null } : {}), choices, ...extra })}\n\n`;
  const frames = [chunk([{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }])];
  for (const piece of streamPieces(choice?.message?.content ?? ''))
    frames.push(chunk([{ index: 0, delta: { content: piece }, logprobs: null, finish_reason: null }]));
  frames.push(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: choice?.finish_reason ?? 'stop' }]));
  if (includeUsage && body?.usage)
    frames.push(chunk([], { usage: { ...body.usage, total_tokens: body.usage.prompt_tokens + body.usage.completion_tokens } }));
  frames.push('data: [DONE]\n\n');
  return frames;
}

/** A chat completion answer with reported usage. */
export const completion = (content: string, usage = { prompt_tokens: 1000, completion_tokens: 500 }) => ({
  body: {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage,
  },
});

/** The property names of the structured-output schema a chat completion request carries (none without one). */
export const schemaProperties = (body: any): string[] => Object.keys(body?.response_format?.json_schema?.schema?.properties ?? {});

/**
 * JSON that fits the schema a request carries, for the built-in research report's steps: angles, three
 * sections long enough to pass, a source, and a sentence for any other property.
 */
export function conformingJson(body: any): string {
  const value: Record<string, unknown> = {};
  for (const p of schemaProperties(body)) {
    if (p === 'angles') value[p] = ['history', 'today', 'tomorrow'];
    else if (p === 'sections')
      value[p] = ['One', 'Two', 'Three'].map((heading) => ({ heading, body: `${heading}: a body long enough to pass the schema.` }));
    else if (p === 'sources') value[p] = ['https://example.org/source'];
    else value[p] = `A ${p} written by the remote model for this run.`;
  }
  return JSON.stringify(value);
}
