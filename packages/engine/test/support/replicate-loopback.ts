import { randomBytes } from 'node:crypto';
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * A loopback HTTP server that speaks Replicate's predictions API as its public reference describes it:
 * Bearer auth on every /v1 path, official-model predictions at /v1/models/{owner}/{name}/predictions and
 * versioned ones at /v1/predictions, predictions that go starting → processing → an end over successive
 * reads, cancel, the default webhook secret, and output files served without auth (as replicate.delivery
 * serves them). Errors are its problem-details bodies. Tests decide each prediction's course, script
 * one-off answers (429, 5xx...) and read back every request.
 */
export interface ScriptedAnswer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ReceivedRequest {
  method: string;
  path: string;
  authorization?: string;
  body: any;
}

export interface OutputFile {
  bytes: Buffer;
  contentType: string;
}

/**
 * How a prediction goes: pending for `pendingReads` reads (or, with `pendingMs`, for that long after it
 * was created, whoever reads it), then ends so. A prediction that ends by time POSTs its signed
 * `completed` webhook, as Replicate does, when it was created with one.
 */
export type Course = ({ pendingReads: number } | { pendingMs: number }) &
  ({ status: 'succeeded'; files: OutputFile[]; outputAsList?: boolean } | { status: 'failed'; error: string } | { status: 'processing' });

export interface Prediction {
  id: string;
  model: string;
  version: string;
  input: Record<string, unknown>;
  logs: string;
  output: string | string[] | null;
  error: string | null;
  status: 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';
  created_at: string;
  started_at?: string;
  completed_at?: string;
  data_removed: boolean;
  urls: { get: string; cancel: string; web: string };
  metrics: Record<string, number>;
  webhook?: string;
  webhook_events_filter?: string[];
}

export interface ReplicateLoopback {
  baseUrl: string;
  token: string;
  /** The account's signing secret, as GET /v1/webhooks/default/secret answers it. */
  webhookSecret: string;
  received: ReceivedRequest[];
  /** Answers the next /v1 requests in order, before anything else (after the auth check). */
  script: ScriptedAnswer[];
  /** Answers the next output file downloads in order, before the file. */
  fileScript: ScriptedAnswer[];
  /** The course of each new prediction, from its model and input. */
  course: (model: string, input: Record<string, unknown>) => Course;
  predictions: Map<string, Prediction>;
  /** Downloads of output files, with the Authorization header they carried (none expected). */
  downloads: Array<{ path: string; authorization?: string }>;
  /** Webhook deliveries POSTed to predictions' webhook URLs, with the status each answer had. */
  delivered: Array<{ predictionId: string; url: string; status: number }>;
  /** The body and Standard Webhooks headers Replicate would POST to the prediction's webhook, signed with the secret. */
  delivery(predictionId: string, secret?: string, at?: Date): { headers: Headers; body: string };
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => resolve(data));
  });

const problem = (status: number, title: string, detail: string, extra: Record<string, unknown> = {}): ScriptedAnswer => ({
  status,
  body: { title, detail, status, ...extra },
});
const UNAUTHENTICATED = problem(401, 'Unauthenticated', 'You did not pass a valid authentication token');
const NOT_FOUND = problem(404, 'Not found', 'The requested resource could not be found.');
/** The top-level fields a prediction request may carry; Replicate refuses any other. */
const REQUEST_FIELDS = new Set(['version', 'input', 'webhook', 'webhook_events_filter', 'stream']);
const EVENTS = new Set(['start', 'output', 'logs', 'completed']);
const KNOWN_MODELS = new Set(['black-forest-labs/flux-schnell', 'black-forest-labs/flux-1.1-pro', 'kwaivgi/kling-v2.5-turbo-pro']);

/** Replicate's prediction ids: 26 lowercase base32-ish characters. */
const predictionId = () =>
  Array.from(randomBytes(26), (b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36])
    .join('')
    .slice(0, 26);

export async function startReplicateLoopback(
  course: ReplicateLoopback['course'],
  token = 'r8_loopbackToken0123456789',
): Promise<ReplicateLoopback> {
  const courses = new Map<string, Course & { reads: number }>();
  const files = new Map<string, OutputFile>();
  let baseUrl = '';
  const state = {
    token,
    webhookSecret: `whsec_${randomBytes(24).toString('base64')}`,
    received: [] as ReceivedRequest[],
    script: [] as ScriptedAnswer[],
    fileScript: [] as ScriptedAnswer[],
    course,
    predictions: new Map<string, Prediction>(),
    downloads: [] as Array<{ path: string; authorization?: string }>,
    delivered: [] as ReplicateLoopback['delivered'],
  };
  const timers = new Set<NodeJS.Timeout>();

  function validate(body: any, needsVersion: boolean): ScriptedAnswer | undefined {
    if (!body || typeof body !== 'object' || Array.isArray(body))
      return problem(400, 'Bad request', 'The request body must be a JSON object');
    const invalid: Array<{ type: string; field: string; description: string }> = [];
    for (const field of Object.keys(body))
      if (!REQUEST_FIELDS.has(field))
        invalid.push({ type: 'additional_property_not_allowed', field: '', description: `Additional property ${field} is not allowed` });
    if (!body.input || typeof body.input !== 'object') invalid.push({ type: 'required', field: '', description: 'input is required' });
    else if (typeof body.input.prompt !== 'string' || !body.input.prompt)
      invalid.push({ type: 'required', field: 'input', description: 'prompt is required' });
    if (needsVersion && typeof body.version !== 'string') invalid.push({ type: 'required', field: '', description: 'version is required' });
    if (body.webhook !== undefined && !/^https?:\/\//.test(String(body.webhook)))
      invalid.push({ type: 'format', field: 'webhook', description: 'Does not match format uri' });
    if (
      body.webhook_events_filter !== undefined &&
      !(Array.isArray(body.webhook_events_filter) && body.webhook_events_filter.every((e: string) => EVENTS.has(e)))
    )
      invalid.push({ type: 'enum', field: 'webhook_events_filter', description: 'must be one of start, output, logs, completed' });
    if (invalid.length === 0) return undefined;
    const detail = invalid.map((i) => `- ${i.field || '(root)'}: ${i.description}`).join('\n');
    return problem(422, 'Input validation failed', detail, { invalid_fields: invalid });
  }

  function create(model: string, version: string, body: any): ScriptedAnswer {
    const id = predictionId();
    const prediction: Prediction = {
      id,
      model,
      version,
      input: body.input,
      logs: '',
      output: null,
      error: null,
      status: 'starting',
      created_at: new Date().toISOString(),
      data_removed: false,
      urls: {
        get: `${baseUrl}/v1/predictions/${id}`,
        cancel: `${baseUrl}/v1/predictions/${id}/cancel`,
        web: `https://replicate.com/p/${id}`,
      },
      metrics: {},
      ...(body.webhook
        ? { webhook: body.webhook, webhook_events_filter: body.webhook_events_filter ?? ['start', 'output', 'logs', 'completed'] }
        : {}),
    };
    state.predictions.set(id, prediction);
    const course = { ...state.course(model, body.input), reads: 0 };
    courses.set(id, course);
    if ('pendingMs' in course && course.status !== 'processing') {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (prediction.status !== 'starting' && prediction.status !== 'processing') return;
        end(prediction, course);
        if (prediction.webhook) void deliver(prediction);
      }, course.pendingMs);
      timers.add(timer);
    }
    return { status: 201, body: prediction };
  }

  async function deliver(prediction: Prediction): Promise<void> {
    const { headers, body } = delivery(prediction.id);
    const url = prediction.webhook as string;
    const status = await fetch(url, { method: 'POST', headers, body }).then(
      (r) => r.status,
      () => 0,
    );
    state.delivered.push({ predictionId: prediction.id, url, status });
  }

  function delivery(id: string, secret = state.webhookSecret, at = new Date()) {
    const prediction = state.predictions.get(id);
    if (!prediction) throw new Error(`no prediction ${id}`);
    const body = JSON.stringify(prediction);
    const messageId = `msg_${randomBytes(12).toString('hex')}`;
    const signature = new Webhook(secret).sign(messageId, at, body);
    const headers = new Headers({
      'content-type': 'application/json',
      'webhook-id': messageId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    });
    return { headers, body };
  }

  /** Each read moves the prediction on: processing while its course says pending, then its end. */
  function advance(prediction: Prediction): void {
    const c = courses.get(prediction.id);
    if (!c || prediction.status === 'succeeded' || prediction.status === 'failed' || prediction.status === 'canceled') return;
    c.reads++;
    prediction.started_at ??= new Date().toISOString();
    if (!('pendingReads' in c) || c.reads <= c.pendingReads || c.status === 'processing') {
      prediction.status = 'processing';
      return;
    }
    end(prediction, c);
  }

  function end(prediction: Prediction, c: Course): void {
    if (c.status === 'processing') return;
    prediction.completed_at = new Date().toISOString();
    prediction.metrics = { predict_time: 1.234, total_time: 1.5 };
    if (c.status === 'failed') {
      prediction.status = 'failed';
      prediction.error = c.error;
      return;
    }
    const urls = c.files.map((file, n) => {
      const ext = file.contentType.split('/')[1];
      const path = `/files/${prediction.id}/out-${n}.${ext}`;
      files.set(path, file);
      return `${baseUrl}${path}`;
    });
    prediction.status = 'succeeded';
    prediction.output = c.outputAsList === false && urls.length === 1 ? urls[0]! : urls;
  }

  function route(method: string, path: string, body: any): ScriptedAnswer {
    const official = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(path);
    if (method === 'POST' && official) {
      const model = `${official[1]}/${official[2]}`;
      if (!KNOWN_MODELS.has(model)) return NOT_FOUND;
      return validate(body, false) ?? create(model, 'hidden', body);
    }
    if (method === 'POST' && path === '/v1/predictions') return validate(body, true) ?? create('community/model', body.version, body);
    const read = /^\/v1\/predictions\/([a-z0-9]+)$/.exec(path);
    if (method === 'GET' && read) {
      const prediction = state.predictions.get(read[1]!);
      if (!prediction) return NOT_FOUND;
      advance(prediction);
      return { body: prediction };
    }
    const cancel = /^\/v1\/predictions\/([a-z0-9]+)\/cancel$/.exec(path);
    if (method === 'POST' && cancel) {
      const prediction = state.predictions.get(cancel[1]!);
      if (!prediction) return NOT_FOUND;
      // An ended prediction stays as it ended; cancelling it is no error.
      if (prediction.status === 'starting' || prediction.status === 'processing') {
        prediction.status = 'canceled';
        prediction.completed_at = new Date().toISOString();
      }
      return { body: prediction };
    }
    if (method === 'GET' && path === '/v1/webhooks/default/secret') return { body: { key: state.webhookSecret } };
    return NOT_FOUND;
  }

  const server: Server = createServer(async (req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    const text = await readBody(req);
    const send = (answer: ScriptedAnswer, contentType = 'application/json') => {
      if (res.destroyed) return;
      res.writeHead(answer.status ?? 200, { 'content-type': contentType, ...answer.headers });
      res.end(Buffer.isBuffer(answer.body) ? answer.body : JSON.stringify(answer.body ?? {}));
    };
    if (path.startsWith('/files/')) {
      state.downloads.push({ path, ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
      const scripted = state.fileScript.shift();
      if (scripted) return send(scripted);
      const file = files.get(path);
      if (!file) return send(NOT_FOUND);
      return send({ body: file.bytes }, file.contentType);
    }
    let body: any;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = Symbol('not json');
    }
    state.received.push({
      method: req.method ?? '',
      path,
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
      body,
    });
    if (req.headers.authorization !== `Bearer ${state.token}`) return send(UNAUTHENTICATED);
    const scripted = state.script.shift();
    if (scripted) return send(scripted);
    if (typeof body === 'symbol') return send(problem(400, 'Bad request', 'The request body is not valid JSON'));
    send(route(req.method ?? '', path, body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return Object.assign(state, {
    baseUrl,
    delivery,
    close: () =>
      new Promise<void>((r) => {
        for (const timer of timers) clearTimeout(timer);
        server.close(() => r());
        server.closeAllConnections();
      }),
  });
}
