import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP server that speaks the Gemini API as its reference describes it: generateContent
 * (Gemini), predict (Imagen), predictLongRunning and operations (Veo), and the file download a finished
 * operation points at. It checks what Google checks (the `x-goog-api-key` header, the paths, the request
 * fields and values each method accepts) and answers with Google's bodies, errors as google.rpc.Status.
 * Tests script answers per request and read back what it received.
 */
export interface ScriptedAnswer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
  raw?: string;
}

export interface ReceivedRequest {
  method: string;
  /** Path and query, as sent. */
  path: string;
  /** The `x-goog-api-key` header. */
  apiKey?: string;
  idempotencyKey?: string;
  /** Which origin was asked: the API's (`api`) or the storage host a download is redirected to. */
  host: 'api' | 'storage';
  body: any;
}

export interface GoogleLoopback {
  baseUrl: string;
  received: ReceivedRequest[];
  /** Answers the next API requests in order (after the key is checked); when empty, the route answers. */
  script: ScriptedAnswer[];
  /** What generateContent answers when nothing is scripted. */
  text: (req: ReceivedRequest) => ScriptedAnswer;
  /** The image Imagen returns. */
  image: { bytes: Buffer; mimeType: string };
  /** The MP4 a finished Veo operation points at. */
  video: Buffer;
  /** How many checks an operation stays `done: false` for. */
  pendingChecks: number;
  /** Veo operations by name: how often each was checked, whether it was cancelled. */
  operations: Map<string, { checks: number; cancelled: boolean; model: string }>;
  /** predictLongRunning calls accepted (each one is a paid generation at Google). */
  readonly submissions: number;
  close(): Promise<void>;
}

const IMAGEN_RATIOS = new Set(['1:1', '3:4', '4:3', '9:16', '16:9']);
const VEO_RATIOS = new Set(['16:9', '9:16']);
const VEO_DURATIONS = new Set([4, 6, 8]);
const GENERATION_CONFIG = new Set([
  'stopSequences',
  'responseMimeType',
  'responseSchema',
  'responseJsonSchema',
  'candidateCount',
  'maxOutputTokens',
  'temperature',
  'topP',
  'topK',
  'seed',
  'presencePenalty',
  'frequencyPenalty',
  'thinkingConfig',
]);

/** A google.rpc.Status error body, as every Gemini API method returns its errors. */
export const googleError = (code: number, status: string, message: string, details?: unknown[]): ScriptedAnswer => ({
  status: code,
  body: { error: { code, message, status, ...(details ? { details } : {}) } },
});

/** A generateContent answer with usage (thinking tokens reported apart, as 2.5 models do). */
export const geminiAnswer = (
  text: string,
  usage: Record<string, number> | null = { promptTokenCount: 1000, candidatesTokenCount: 400, thoughtsTokenCount: 100 },
  finishReason = 'STOP',
): ScriptedAnswer => ({
  body: {
    candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason, index: 0 }],
    ...(usage ? { usageMetadata: { ...usage, totalTokenCount: Object.values(usage).reduce((a, b) => a + b, 0) } } : {}),
    modelVersion: 'gemini-2.5-flash',
    responseId: 'loopback-response',
  },
});

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => resolve(data));
  });

const invalid = (message: string) => googleError(400, 'INVALID_ARGUMENT', message);
const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkGenerateContent(body: any): ScriptedAnswer | undefined {
  if (!Array.isArray(body?.contents) || body.contents.length === 0)
    return invalid('* GenerateContentRequest.contents: contents is not specified');
  for (const content of body.contents) {
    if (content.role !== undefined && content.role !== 'user' && content.role !== 'model')
      return invalid(`Please use a valid role: user, model.`);
    if (!Array.isArray(content.parts) || content.parts.some((p: unknown) => !isObject(p) || typeof p.text !== 'string'))
      return invalid('* GenerateContentRequest.contents.parts: contents.parts must not be empty.');
  }
  const config = body.generationConfig;
  if (config === undefined) return undefined;
  for (const key of Object.keys(config))
    if (!GENERATION_CONFIG.has(key))
      return invalid(`Invalid JSON payload received. Unknown name "${key}" at 'generation_config': Cannot find field.`);
  if (config.seed !== undefined && (!Number.isInteger(config.seed) || config.seed < -(2 ** 31) || config.seed >= 2 ** 31))
    return invalid(`Invalid value at 'generation_config.seed' (TYPE_INT32), ${JSON.stringify(config.seed)}`);
  if (config.responseJsonSchema !== undefined && config.responseMimeType !== 'application/json')
    return invalid('responseJsonSchema requires responseMimeType to be application/json.');
  return undefined;
}

export async function startGoogleLoopback(opts: { apiKey: string; models: string[] }): Promise<GoogleLoopback> {
  let submissions = 0;
  let port = 0;
  let storagePort = 0;
  const state = {
    received: [] as ReceivedRequest[],
    script: [] as ScriptedAnswer[],
    text: (_req: ReceivedRequest): ScriptedAnswer => geminiAnswer('{"ok":true}'),
    image: { bytes: Buffer.from('89504e470d0a1a0a', 'hex'), mimeType: 'image/png' },
    video: Buffer.alloc(0),
    pendingChecks: 2,
    operations: new Map<string, { checks: number; cancelled: boolean; model: string }>(),
    get submissions() {
      return submissions;
    },
  };

  const model = (name: string): ScriptedAnswer | undefined =>
    opts.models.includes(name)
      ? undefined
      : googleError(404, 'NOT_FOUND', `models/${name} is not found for API version v1beta, or is not supported for this method.`);

  /**
   * A generateContent answer as `streamGenerateContent?alt=sse` sends it: server-sent events, each a
   * GenerateContentResponse carrying the next piece of the text; the last one carries the finish reason and
   * the usage.
   */
  function streamed(answer: any): ScriptedAnswer {
    const candidate = answer?.candidates?.[0];
    const text: string = (candidate?.content?.parts ?? []).map((p: any) => p.text ?? '').join('');
    const size = Math.max(1, Math.ceil(text.length / 3));
    const pieces =
      text.length > 0 ? Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size)) : [''];
    const events = pieces.map((piece, i) => {
      const last = i === pieces.length - 1;
      const chunk = {
        candidates: [
          {
            content: { role: 'model', parts: [{ text: piece }] },
            ...(last && candidate?.finishReason ? { finishReason: candidate.finishReason } : {}),
          },
        ],
        ...(last && answer.usageMetadata ? { usageMetadata: answer.usageMetadata } : {}),
        ...(i === 0 && answer.promptFeedback ? { promptFeedback: answer.promptFeedback } : {}),
      };
      return `data: ${JSON.stringify(chunk)}\r\n\r\n`;
    });
    return { status: 200, headers: { 'content-type': 'text/event-stream' }, raw: events.join('') };
  }

  function route(req: ReceivedRequest): ScriptedAnswer {
    const url = new URL(req.path, 'http://loopback');
    const method = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent|predict|predictLongRunning)$/.exec(url.pathname);
    if (method && req.method === 'POST') {
      const [, name, verb] = method as unknown as [string, string, string];
      const unknown = model(name);
      if (unknown) return unknown;
      if (verb === 'generateContent') return checkGenerateContent(req.body) ?? state.text(req);
      if (verb === 'streamGenerateContent') {
        if (url.searchParams.get('alt') !== 'sse') return invalid('This loopback streams only with alt=sse.');
        const whole = checkGenerateContent(req.body) ?? state.text(req);
        return (whole.status ?? 200) === 200 ? streamed(whole.body as any) : whole;
      }
      const instance = req.body?.instances?.[0];
      const parameters = req.body?.parameters ?? {};
      if (!Array.isArray(req.body?.instances) || typeof instance?.prompt !== 'string' || instance.prompt === '')
        return invalid('A prompt is required in instances[0].prompt.');
      if (verb === 'predict') {
        if (parameters.aspectRatio !== undefined && !IMAGEN_RATIOS.has(parameters.aspectRatio))
          return invalid(`Unsupported aspect ratio: ${parameters.aspectRatio}`);
        const count = parameters.sampleCount ?? 4;
        if (!Number.isInteger(count) || count < 1 || count > 4) return invalid('sampleCount must be between 1 and 4.');
        return {
          body: {
            predictions: Array.from({ length: count }, () => ({
              mimeType: state.image.mimeType,
              bytesBase64Encoded: state.image.bytes.toString('base64'),
            })),
          },
        };
      }
      if (parameters.aspectRatio !== undefined && !VEO_RATIOS.has(parameters.aspectRatio))
        return invalid(`Aspect ratio ${parameters.aspectRatio} is not supported. Supported: 16:9, 9:16.`);
      if (parameters.durationSeconds !== undefined && !VEO_DURATIONS.has(Number(parameters.durationSeconds)))
        return invalid(`The number value for \`durationSeconds\` is out of bound. Please provide a value between 4 and 8, inclusive.`);
      if ('generateAudio' in parameters) return invalid('generateAudio parameter is not supported in Gemini API.');
      submissions++;
      const name2 = `models/${name}/operations/op${submissions}x${Date.now().toString(36)}`;
      state.operations.set(name2, { checks: 0, cancelled: false, model: name });
      return { body: { name: name2 } };
    }
    const operation = /^\/v1beta\/(models\/[^/]+\/operations\/[^/:]+)(:cancel)?$/.exec(url.pathname);
    if (operation) {
      const op = state.operations.get(operation[1]!);
      if (!op) return googleError(404, 'NOT_FOUND', `Operation ${operation[1]} not found.`);
      if (operation[2]) {
        if (req.method !== 'POST') return googleError(404, 'NOT_FOUND', 'Not found.');
        op.cancelled = true;
        return { body: {} };
      }
      if (req.method !== 'GET') return googleError(404, 'NOT_FOUND', 'Not found.');
      op.checks++;
      const name = operation[1];
      if (op.cancelled) return { body: { name, done: true, error: { code: 1, message: 'Operation was cancelled.' } } };
      if (op.checks <= state.pendingChecks) return { body: { name, done: false } };
      const file = name!.split('/').pop();
      return {
        body: {
          name,
          done: true,
          response: {
            '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse',
            generateVideoResponse: {
              generatedSamples: [{ video: { uri: `http://127.0.0.1:${port}/v1beta/files/${file}:download?alt=media` } }],
            },
          },
        },
      };
    }
    const download = /^\/v1beta\/files\/([^/:]+):download$/.exec(url.pathname);
    if (download && req.method === 'GET' && url.searchParams.get('alt') === 'media')
      // As Google does, the API answers a download by redirecting to a signed URL on a storage host.
      return { status: 302, headers: { location: `http://127.0.0.1:${storagePort}/storage/${download[1]}.mp4?sig=loopback` } };
    return googleError(404, 'NOT_FOUND', `The requested URL ${url.pathname} was not found on this server.`);
  }

  const listener = (host: ReceivedRequest['host']) => async (req: IncomingMessage, res: ServerResponse) => {
    const text = await readBody(req);
    const received: ReceivedRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '',
      host,
      ...(typeof req.headers['x-goog-api-key'] === 'string' ? { apiKey: req.headers['x-goog-api-key'] } : {}),
      ...(typeof req.headers['idempotency-key'] === 'string' ? { idempotencyKey: req.headers['idempotency-key'] } : {}),
      body: text ? JSON.parse(text) : null,
    };
    state.received.push(received);
    if (host === 'storage') return send(res, { status: 200, headers: { 'content-type': 'video/mp4' }, raw: '' }, state.video);
    const answer = authProblem(received) ?? state.script.shift() ?? route(received);
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    send(res, answer);
  };
  const server: Server = createServer(listener('api'));
  // Another port is another origin: where the API redirects downloads, as Google redirects to its storage.
  const storage: Server = createServer(listener('storage'));

  function authProblem(req: ReceivedRequest): ScriptedAnswer | undefined {
    if (req.apiKey === undefined)
      return googleError(
        403,
        'PERMISSION_DENIED',
        "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
      );
    if (req.apiKey !== opts.apiKey)
      return googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' },
      ]);
    return undefined;
  }

  function send(res: ServerResponse, answer: ScriptedAnswer, bytes?: Buffer) {
    if (res.destroyed) return;
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json; charset=UTF-8', ...answer.headers });
    res.end(bytes ?? answer.raw ?? JSON.stringify(answer.body ?? {}));
  }

  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => storage.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  storagePort = (storage.address() as AddressInfo).port;
  return Object.assign(state, {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      Promise.all(
        [server, storage].map(
          (s) =>
            new Promise<void>((r) => {
              s.close(() => r());
              s.closeAllConnections();
            }),
        ),
      ).then(() => undefined),
  }) as GoogleLoopback;
}
