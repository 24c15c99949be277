import { randomBytes } from 'node:crypto';

/**
 * The Message Batches part of the Anthropic loopback, as Anthropic's reference describes it:
 * `POST /v1/messages/batches` with `requests: [{custom_id, params}]` (custom ids of 1–64 `[a-zA-Z0-9_-]`,
 * unique), `GET /v1/messages/batches/{id}` going `in_progress` → `ended` after `batchMs`, its results as
 * JSONL at `GET /v1/messages/batches/{id}/results` (`{custom_id, result: {type: succeeded, message} |
 * {type: errored, error}}`), and cancel. Each request's params are answered as `POST /v1/messages` would
 * answer them alone (refusals become `errored` results).
 */
export interface MessageBatchRecord {
  id: string;
  requests: Array<{ custom_id: string; params: any }>;
  status: 'in_progress' | 'canceling' | 'ended';
  createdAt: number;
  results?: string;
}

export interface MessageBatchesState {
  batchMs: number;
  batches: Map<string, MessageBatchRecord>;
}

type Answer = { status?: number; body?: unknown; raw?: string; headers?: Record<string, string> };
const CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;
const invalid = (message: string): Answer => ({ status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message } } });
const notFound = (): Answer => ({ status: 404, body: { type: 'error', error: { type: 'not_found_error', message: 'Not Found' } } });

export const createMessageBatchesState = (batchMs = 300): MessageBatchesState => ({ batchMs, batches: new Map() });

/** Answers a Message Batches request (auth already checked), or undefined when the path is not theirs. */
export function answerMessageBatches(
  state: MessageBatchesState,
  method: string,
  path: string,
  body: any,
  /** The answer `POST /v1/messages` gives `params` alone: a refusal (4xx) or a message. */
  answerAlone: (params: any) => Answer,
): Answer | undefined {
  if (!path.startsWith('/v1/messages/batches')) return undefined;
  if (method === 'POST' && path === '/v1/messages/batches') {
    const requests = body?.requests;
    if (!Array.isArray(requests) || requests.length === 0) return invalid('requests: at least one request is required');
    for (const [i, r] of requests.entries()) {
      if (typeof r?.custom_id !== 'string' || !CUSTOM_ID.test(r.custom_id))
        return invalid(`requests.${i}.custom_id: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`);
      if (!r.params || typeof r.params !== 'object') return invalid(`requests.${i}.params: Field required`);
    }
    if (new Set(requests.map((r: any) => r.custom_id)).size !== requests.length)
      return invalid('requests: custom_id values must be unique');
    const batch: MessageBatchRecord = {
      id: `msgbatch_${randomBytes(12).toString('hex')}`,
      requests,
      status: 'in_progress',
      createdAt: Date.now(),
    };
    state.batches.set(batch.id, batch);
    return { body: view(batch) };
  }
  const match = /^\/v1\/messages\/batches\/([A-Za-z0-9_]+)(\/results|\/cancel)?$/.exec(path);
  const batch = match ? state.batches.get(match[1]!) : undefined;
  if (!match || !batch) return notFound();
  if (method === 'POST' && match[2] === '/cancel') {
    if (batch.status === 'in_progress') batch.status = 'canceling';
    return { body: view(batch) };
  }
  if (method !== 'GET') return notFound();
  advance(state, batch, answerAlone);
  if (match[2] === '/results') {
    if (batch.status !== 'ended') return invalid(`Batch ${batch.id} has not ended`);
    return { raw: batch.results ?? '', headers: { 'content-type': 'application/binary' } };
  }
  return { body: view(batch) };
}

function advance(state: MessageBatchesState, batch: MessageBatchRecord, answerAlone: (params: any) => Answer): void {
  if (batch.status === 'ended') return;
  const canceled = batch.status === 'canceling';
  if (!canceled && Date.now() - batch.createdAt < state.batchMs) return;
  batch.results = batch.requests
    .map(({ custom_id, params }) => {
      if (canceled) return JSON.stringify({ custom_id, result: { type: 'canceled' } });
      const answer = answerAlone(params);
      if ((answer.status ?? 200) === 200) return JSON.stringify({ custom_id, result: { type: 'succeeded', message: answer.body } });
      return JSON.stringify({ custom_id, result: { type: 'errored', error: answer.body } });
    })
    .join('\n')
    .concat('\n');
  batch.status = 'ended';
}

function view(batch: MessageBatchRecord) {
  const ended = batch.status === 'ended';
  return {
    id: batch.id,
    type: 'message_batch',
    processing_status: batch.status,
    request_counts: {
      processing: ended ? 0 : batch.requests.length,
      succeeded: ended ? batch.requests.length : 0,
      errored: 0,
      canceled: 0,
      expired: 0,
    },
    created_at: new Date(batch.createdAt).toISOString(),
    ended_at: ended ? new Date().toISOString() : null,
    results_url: ended ? `/v1/messages/batches/${batch.id}/results` : null,
  };
}
