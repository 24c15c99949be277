import { type KeyObject, createHash, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP server that speaks fal.ai's queue API as its reference describes it: submit
 * `POST /{endpoint id}` (`?fal_webhook=`), `GET /{owner}/{alias}/requests/{id}/status`, the result at
 * `GET /{owner}/{alias}/requests/{id}`, `PUT .../cancel`, all under `Authorization: Key <key>`; request URLs
 * name the app without the endpoint's sub-path, as fal's do. Errors are fal's bodies: `{detail: "..."}`
 * (with `error_type` for request errors) and `{detail: [{loc, msg, type}]}` for input validation. It also
 * serves the finished media (as fal's CDN, no key) and a JWKS, and signs webhook deliveries the way fal does.
 */
export interface ScriptedAnswer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
}

export interface ReceivedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization?: string;
  body: any;
}

/** What a submitted request ends in. */
export type Finished =
  | { kind: 'image'; bytes: Buffer; width: number; height: number; contentType?: string; nsfw?: boolean }
  | { kind: 'video'; bytes: Buffer }
  | { kind: 'error'; status: number; body: unknown };

export interface QueuedRequest {
  id: string;
  endpoint: string;
  app: string;
  input: any;
  webhook?: string;
  checks: number;
  cancelled: boolean;
}

export interface FalLoopback {
  queueUrl: string;
  jwksUrl: string;
  received: ReceivedRequest[];
  /** Answers the next queue API requests in order (media and JWKS excluded), before the queue itself. */
  script: ScriptedAnswer[];
  /** Status checks a request answers IN_QUEUE, then IN_PROGRESS, before COMPLETED. */
  pendingChecks: number;
  /** What a request ends in, asked for when its result is (may render its media then). */
  finish: (request: QueuedRequest) => Finished | Promise<Finished>;
  requests: Map<string, QueuedRequest>;
  /** The key fal signs webhooks with; its public half is in the JWKS. */
  signingKey: KeyObject;
  /** Headers of a delivery of `body` signed as fal signs it (timestamp in seconds, now unless given). */
  signDelivery(body: string, requestId: string, opts?: { timestamp?: number; key?: KeyObject; userId?: string }): Headers;
  /** fal's webhook body for a finished request. */
  deliveryBody(requestId: string): Promise<string>;
  close(): Promise<void>;
}

const FLUX_SIZES = ['square_hd', 'square', 'portrait_4_3', 'portrait_16_9', 'landscape_4_3', 'landscape_16_9'];
const KLING_DURATIONS: Record<string, string[]> = {
  'fal-ai/kling-video/v2.5-turbo/pro/text-to-video': ['5', '10'],
  'fal-ai/kling-video/v3/turbo/pro/text-to-video': ['3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '15'],
};

type Problem = { loc: string[]; msg: string; type: string };

/** The input checks fal's FLUX and Kling endpoints make, answered as their 422 validation errors. */
function inputProblems(endpoint: string, input: any): Problem[] {
  const problems: Problem[] = [];
  const at = (field: string, msg: string, type: string) => problems.push({ loc: ['body', field], msg, type });
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return [{ loc: ['body'], msg: 'value is not a valid dict', type: 'type_error.dict' }];
  if (typeof input.prompt !== 'string' || !input.prompt) at('prompt', 'field required', 'value_error.missing');
  if (endpoint.startsWith('fal-ai/flux')) {
    const size = input.image_size;
    const custom = typeof size === 'object' && size !== null && Number.isInteger(size.width) && Number.isInteger(size.height);
    if (size !== undefined && !custom && !FLUX_SIZES.includes(size)) at('image_size', 'value is not a valid image size', 'value_error');
    if (input.num_images !== undefined && !(Number.isInteger(input.num_images) && input.num_images >= 1 && input.num_images <= 4))
      at('num_images', 'ensure this value is between 1 and 4', 'value_error.number');
    if (input.seed !== undefined && !Number.isInteger(input.seed)) at('seed', 'value is not a valid integer', 'type_error.integer');
    if (input.output_format !== undefined && !['jpeg', 'png'].includes(input.output_format))
      at('output_format', "unexpected value; permitted: 'jpeg', 'png'", 'value_error.const');
  }
  const durations = KLING_DURATIONS[endpoint];
  if (durations) {
    if (input.duration !== undefined && !durations.includes(input.duration))
      at('duration', `unexpected value; permitted: ${durations.map((d) => `'${d}'`).join(', ')}`, 'value_error.const');
    if (input.aspect_ratio !== undefined && !['16:9', '9:16', '1:1'].includes(input.aspect_ratio))
      at('aspect_ratio', "unexpected value; permitted: '16:9', '9:16', '1:1'", 'value_error.const');
  }
  return problems;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => resolve(data));
  });

export async function startFalLoopback(opts: { key: string; finish: FalLoopback['finish'] }): Promise<FalLoopback> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const media = new Map<string, { bytes: Buffer; contentType: string }>();
  let base = '';

  const outputOf = (request: QueuedRequest, finished: Exclude<Finished, { kind: 'error' }>) => {
    const name = `${request.id}.${finished.kind === 'video' ? 'mp4' : 'png'}`;
    const contentType = finished.kind === 'video' ? 'video/mp4' : (finished.contentType ?? 'image/png');
    media.set(name, { bytes: finished.bytes, contentType });
    const file = { url: `${base}/files/${name}`, content_type: contentType, file_name: name, file_size: finished.bytes.length };
    if (finished.kind === 'video') return { video: file };
    return {
      images: [{ ...file, width: finished.width, height: finished.height }],
      timings: { inference: 0.42 },
      seed: request.input.seed ?? 1,
      has_nsfw_concepts: [finished.nsfw === true],
      prompt: request.input.prompt,
    };
  };

  const state = {
    received: [] as ReceivedRequest[],
    script: [] as ScriptedAnswer[],
    pendingChecks: 1,
    finish: opts.finish,
    requests: new Map<string, QueuedRequest>(),
  };

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  const queue = async (req: IncomingMessage, res: ServerResponse, url: URL, received: ReceivedRequest) => {
    if (received.authorization !== `Key ${opts.key}`)
      return send(res, 401, { detail: 'Authentication is required to access this application.', error_type: 'authentication_error' });
    const match = /^\/([^/]+\/[^/]+)\/requests\/([^/]+)(\/status|\/cancel)?$/.exec(url.pathname);
    if (!match) {
      if (req.method !== 'POST') return send(res, 405, { detail: 'Method Not Allowed' });
      const endpoint = url.pathname.slice(1);
      const problems = inputProblems(endpoint, received.body);
      if (problems.length) return send(res, 422, { detail: problems });
      const id = randomUUID();
      const app = endpoint.split('/').slice(0, 2).join('/');
      const webhook = url.searchParams.get('fal_webhook') ?? undefined;
      state.requests.set(id, { id, endpoint, app, input: received.body, webhook, checks: 0, cancelled: false });
      const at = `${base}/${app}/requests/${id}`;
      return send(res, 200, {
        request_id: id,
        response_url: at,
        status_url: `${at}/status`,
        cancel_url: `${at}/cancel`,
        queue_position: 0,
      });
    }
    const [, app, id, action] = match;
    const request = state.requests.get(id!);
    // Requests are found under the app they were submitted to, never under an endpoint's sub-path.
    if (!request || request.app !== app) return send(res, 404, { detail: 'Request not found' });
    const done = request.checks > state.pendingChecks;
    if (action === '/status' && req.method === 'GET') {
      request.checks++;
      if (request.checks <= state.pendingChecks)
        return send(res, 202, {
          status: request.checks === 1 ? 'IN_QUEUE' : 'IN_PROGRESS',
          ...(request.checks === 1 ? { queue_position: 0 } : {}),
          response_url: `${base}/${app}/requests/${id}`,
        });
      return send(res, 200, { status: 'COMPLETED', response_url: `${base}/${app}/requests/${id}`, metrics: { inference_time: 0.42 } });
    }
    if (action === '/cancel' && req.method === 'PUT') {
      if (done) return send(res, 400, { status: 'ALREADY_COMPLETED' });
      request.cancelled = true;
      return send(res, 202, { status: 'CANCELLATION_REQUESTED' });
    }
    if (!action && req.method === 'GET') {
      if (!done) return send(res, 400, { detail: 'Request is still in progress' });
      if (request.cancelled) return send(res, 499, { detail: 'Request was cancelled by the client', error_type: 'client_cancelled' });
      const finished = await state.finish(request);
      if (finished.kind === 'error') return send(res, finished.status, finished.body);
      return send(res, 200, outputOf(request, finished));
    }
    return send(res, 405, { detail: 'Method Not Allowed' });
  };

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://loopback');
    const text = await readBody(req);
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      return send(res, 422, { detail: [{ loc: ['body'], msg: 'Invalid JSON', type: 'value_error.jsondecode' }] });
    }
    if (url.pathname === '/.well-known/jwks.json')
      return send(res, 200, { keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'loopback-1', use: 'sig', alg: 'EdDSA' }] });
    const file = /^\/files\/([^/]+)$/.exec(url.pathname);
    if (file) {
      state.received.push({
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        authorization: req.headers.authorization,
        body,
      });
      const found = media.get(file[1]!);
      if (!found) return send(res, 404, { detail: 'Not Found' });
      res.writeHead(200, { 'content-type': found.contentType, 'content-length': String(found.bytes.length) });
      return res.end(found.bytes);
    }
    const received: ReceivedRequest = {
      method: req.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      authorization: req.headers.authorization,
      body,
    };
    state.received.push(received);
    const scripted = state.script.shift();
    if (scripted) {
      if (scripted.delayMs) await new Promise((r) => setTimeout(r, scripted.delayMs));
      return send(res, scripted.status ?? 200, scripted.body ?? {}, scripted.headers);
    }
    return queue(req, res, url, received);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return Object.assign(state, {
    queueUrl: base,
    jwksUrl: `${base}/.well-known/jwks.json`,
    signingKey: privateKey,
    signDelivery(body: string, requestId: string, o: { timestamp?: number; key?: KeyObject; userId?: string } = {}) {
      const timestamp = String(o.timestamp ?? Math.floor(Date.now() / 1000));
      const userId = o.userId ?? 'loopback-user';
      const message = [requestId, userId, timestamp, createHash('sha256').update(body).digest('hex')].join('\n');
      return new Headers({
        'content-type': 'application/json',
        'x-fal-webhook-request-id': requestId,
        'x-fal-webhook-user-id': userId,
        'x-fal-webhook-timestamp': timestamp,
        'x-fal-webhook-signature': sign(null, Buffer.from(message), o.key ?? privateKey).toString('hex'),
      });
    },
    async deliveryBody(requestId: string) {
      const request = state.requests.get(requestId);
      const finished = request ? await state.finish(request) : undefined;
      if (!request || !finished || finished.kind === 'error')
        return JSON.stringify({
          request_id: requestId,
          gateway_request_id: requestId,
          status: 'ERROR',
          error: 'Invalid status code: 422',
          payload: finished?.kind === 'error' ? finished.body : null,
        });
      return JSON.stringify({ request_id: requestId, gateway_request_id: requestId, status: 'OK', payload: outputOf(request, finished) });
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  }) as FalLoopback;
}
