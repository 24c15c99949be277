import { randomBytes } from 'node:crypto';

/**
 * The Batch API part of the OpenAI loopback, as OpenAI's reference describes it: `POST /v1/files`
 * (multipart, `purpose=batch`, a JSONL file of `{custom_id, method, url, body}` lines), `POST /v1/batches`
 * on it, `GET /v1/batches/{id}` going validating → in_progress → completed after `batchMs`, the output file
 * (`{id, custom_id, response: {status_code, request_id, body}, error}` lines) and the error file at
 * `GET /v1/files/{id}/content`, and `POST /v1/batches/{id}/cancel`. Each request line is answered by the
 * loopback's own chat completion answer, as if sent alone.
 */
export interface BatchRecord {
  id: string;
  inputFileId: string;
  lines: Array<{ custom_id: string; method: string; url: string; body: any }>;
  status: 'validating' | 'in_progress' | 'completed' | 'cancelling' | 'cancelled' | 'failed' | 'expired';
  createdAt: number;
  outputFileId?: string;
  errorFileId?: string;
}

export interface BatchesState {
  /** How long a batch runs before it completes (ms). */
  batchMs: number;
  files: Map<string, { purpose: string; content: string }>;
  batches: Map<string, BatchRecord>;
  /** Every request line that went up in a batch, across batches. */
  batchedLines(): number;
}

type Answer = { status?: number; body?: unknown; raw?: string; headers?: Record<string, string>; delayMs?: number };
const openaiError = (status: number, message: string, type = 'invalid_request_error'): Answer => ({
  status,
  body: { error: { message, type, param: null, code: null } },
});

export function createBatchesState(batchMs = 300): BatchesState {
  const state: BatchesState = {
    batchMs,
    files: new Map(),
    batches: new Map(),
    batchedLines: () => [...state.batches.values()].reduce((n, b) => n + b.lines.length, 0),
  };
  return state;
}

/** Answers a Batch API request, or undefined when the path is not the Batch API's. */
export async function answerBatchApi(
  state: BatchesState,
  method: string,
  path: string,
  request: { json?: any; form?: FormData },
  chat: (body: any) => Answer,
): Promise<Answer | undefined> {
  if (method === 'POST' && path === '/v1/files') {
    const form = request.form;
    const file = form?.get('file');
    if (form?.get('purpose') !== 'batch' || !(file instanceof Blob))
      return openaiError(400, "'purpose' must be 'batch' and 'file' a JSONL upload");
    const id = `file-${randomBytes(12).toString('hex')}`;
    const content = await file.text();
    state.files.set(id, { purpose: 'batch', content });
    return {
      body: {
        id,
        object: 'file',
        bytes: content.length,
        created_at: now(),
        filename: (file as File).name ?? 'batch.jsonl',
        purpose: 'batch',
      },
    };
  }
  if (method === 'POST' && path === '/v1/batches') {
    const { input_file_id: inputFileId, endpoint, completion_window: window } = request.json ?? {};
    const file = state.files.get(inputFileId);
    if (!file) return openaiError(404, `No such File object: ${inputFileId}`);
    if (endpoint !== '/v1/chat/completions' || window !== '24h') return openaiError(400, 'endpoint or completion_window not supported');
    const lines = file.content
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l));
    if (lines.some((l) => typeof l.custom_id !== 'string' || l.method !== 'POST' || l.url !== endpoint))
      return openaiError(400, 'every line needs custom_id, method POST and the batch endpoint as url');
    if (new Set(lines.map((l) => l.custom_id)).size !== lines.length) return openaiError(400, 'custom_id values must be unique');
    const batch: BatchRecord = {
      id: `batch_${randomBytes(12).toString('hex')}`,
      inputFileId,
      lines,
      status: 'validating',
      createdAt: Date.now(),
    };
    state.batches.set(batch.id, batch);
    return { body: view(batch) };
  }
  const read = /^\/v1\/batches\/([A-Za-z0-9_]+)$/.exec(path);
  if (method === 'GET' && read) {
    const batch = state.batches.get(read[1]!);
    if (!batch) return openaiError(404, `No batch found with id '${read[1]}'.`);
    advance(state, batch, chat);
    return { body: view(batch) };
  }
  const cancel = /^\/v1\/batches\/([A-Za-z0-9_]+)\/cancel$/.exec(path);
  if (method === 'POST' && cancel) {
    const batch = state.batches.get(cancel[1]!);
    if (!batch) return openaiError(404, `No batch found with id '${cancel[1]}'.`);
    if (batch.status === 'validating' || batch.status === 'in_progress') batch.status = 'cancelled';
    return { body: view(batch) };
  }
  const content = /^\/v1\/files\/([A-Za-z0-9_-]+)\/content$/.exec(path);
  if (method === 'GET' && content) {
    const file = state.files.get(content[1]!);
    if (!file) return openaiError(404, `No such File object: ${content[1]}`);
    return { raw: file.content, headers: { 'content-type': 'application/octet-stream' } };
  }
  if (path === '/v1/files' || path.startsWith('/v1/batches') || path.startsWith('/v1/files/'))
    return openaiError(404, `Invalid URL (${method} ${path})`);
  return undefined;
}

const now = () => Math.floor(Date.now() / 1000);

/** Runs a batch whose time has come: each line answered as the chat endpoint would, sorted into output and error files. */
function advance(state: BatchesState, batch: BatchRecord, chat: (body: any) => Answer): void {
  if (batch.status === 'validating') batch.status = 'in_progress';
  if (batch.status !== 'in_progress' || Date.now() - batch.createdAt < state.batchMs) return;
  const output: string[] = [];
  const errors: string[] = [];
  for (const line of batch.lines) {
    const answer = chat(line.body);
    const status = answer.status ?? 200;
    const record = {
      id: `batch_req_${randomBytes(8).toString('hex')}`,
      custom_id: line.custom_id,
      response: { status_code: status, request_id: randomBytes(8).toString('hex'), body: answer.body },
      error: null,
    };
    (status === 200 ? output : errors).push(JSON.stringify(record));
  }
  const file = (lines: string[]) => {
    if (lines.length === 0) return undefined;
    const id = `file-${randomBytes(12).toString('hex')}`;
    state.files.set(id, { purpose: 'batch_output', content: `${lines.join('\n')}\n` });
    return id;
  };
  batch.outputFileId = file(output);
  batch.errorFileId = file(errors);
  batch.status = 'completed';
}

function view(batch: BatchRecord) {
  const done = batch.status === 'completed';
  return {
    id: batch.id,
    object: 'batch',
    endpoint: '/v1/chat/completions',
    input_file_id: batch.inputFileId,
    completion_window: '24h',
    status: batch.status,
    output_file_id: batch.outputFileId ?? null,
    error_file_id: batch.errorFileId ?? null,
    created_at: Math.floor(batch.createdAt / 1000),
    request_counts: { total: batch.lines.length, completed: done ? batch.lines.length : 0, failed: 0 },
    errors: null,
  };
}
