import { BATCH_PRICE_FACTOR, type ModelEntry } from '@atelier/domain';
import { postJsonWithRetries } from '../http-call.js';
import { jsonLines } from '../json-lines.js';
import {
  type BatchItemOutcome,
  type BatchItemResult,
  type BatchProvider,
  PermanentProviderError,
  TransientProviderError,
} from '../types.js';
import { type ChatCompletionBody, chatCompletionOf, chatRequestBody } from './chat.js';
import { type OpenAiOptions, openaiCall } from './http.js';

/** A batch object as the Batch API answers it (the fields read here). */
interface Batch {
  id?: string;
  status?: 'validating' | 'failed' | 'in_progress' | 'finalizing' | 'completed' | 'expired' | 'cancelling' | 'cancelled';
  output_file_id?: string | null;
  error_file_id?: string | null;
  errors?: { data?: Array<{ message?: string }> } | null;
}

/** One line of a batch's output or error file. */
interface OutputLine {
  custom_id?: string;
  response?: { status_code?: number; body?: unknown } | null;
  error?: { code?: string; message?: string } | null;
}

const ENDED = new Set(['completed', 'expired', 'cancelled', 'failed']);
const CHAT = '/v1/chat/completions';

/**
 * OpenAI's Batch API: the items go up as one JSONL file (`purpose=batch`), a batch is created on it for
 * chat completions within the 24 h window, and once it ended its output and error files are read back,
 * each line by `custom_id`. Answers are priced at the batch rate (half the registry's price). Items the
 * batch did not answer (expired, cancelled) come back transient, so their steps' retries send them again.
 */
export function openaiBatches(opts: OpenAiOptions): BatchProvider {
  const call = (
    path: string,
    extra: { method?: 'GET' | 'POST'; body?: unknown; form?: FormData; answer?: 'json' | 'text'; signal?: AbortSignal },
  ) => postJsonWithRetries(openaiCall(opts, path, { body: undefined, ...extra, timeoutMs: opts.textTimeoutMs ?? 60_000 }));

  return {
    async create(model, items, signal) {
      const jsonl = items
        .map((item) => JSON.stringify({ custom_id: item.customId, method: 'POST', url: CHAT, body: chatRequestBody(item.request) }))
        .join('\n');
      const form = new FormData();
      form.append('purpose', 'batch');
      form.append('file', new Blob([`${jsonl}\n`], { type: 'application/jsonl' }), `atelier-${apiModelOf(model)}.jsonl`);
      const file = (await call('/files', { form, signal })) as { id?: string };
      if (typeof file.id !== 'string') throw new TransientProviderError('the provider stored the batch file without naming it');
      const batch = (await call('/batches', {
        signal,
        body: { input_file_id: file.id, endpoint: CHAT, completion_window: '24h', metadata: { source: 'atelier' } },
      })) as Batch;
      if (typeof batch.id !== 'string') throw new TransientProviderError('the provider created the batch without naming it');
      return { batchId: batch.id };
    },

    async check(model, batchId) {
      const batch = (await call(`/batches/${encodeURIComponent(batchId)}`, { method: 'GET' })) as Batch;
      if (!batch.status || !ENDED.has(batch.status)) return { state: 'pending' };
      const lines = [
        ...(batch.output_file_id ? await fileLines(batch.output_file_id) : []),
        ...(batch.error_file_id ? await fileLines(batch.error_file_id) : []),
      ];
      const results: BatchItemResult[] = [];
      for (const line of lines) {
        if (typeof line.custom_id !== 'string') continue;
        results.push({ customId: line.custom_id, ...resultOf(model, line) });
      }
      if (batch.status === 'failed' && results.length === 0) {
        // A batch refused as a whole (validation): every item fails the same way; none was charged.
        const reason = batch.errors?.data?.map((e) => e.message).join('; ') || 'the batch failed validation';
        return { state: 'ended', results: [], failure: new PermanentProviderError(`the provider refused the batch: ${reason}`) };
      }
      return { state: 'ended', results };
    },

    async cancel(_model, batchId) {
      await call(`/batches/${encodeURIComponent(batchId)}/cancel`, { body: {} });
    },
  };

  async function fileLines(fileId: string): Promise<OutputLine[]> {
    const text = (await call(`/files/${encodeURIComponent(fileId)}/content`, { method: 'GET', answer: 'text' })) as string;
    return jsonLines<OutputLine>(text);
  }
}

const apiModelOf = (model: ModelEntry) => model.id.replace(/^openai\//, '').replace(/[^A-Za-z0-9._-]/g, '_');

function resultOf(model: ModelEntry, line: OutputLine): BatchItemOutcome {
  const status = line.response?.status_code;
  if (status === 200) {
    try {
      return { completion: chatCompletionOf(model, line.response?.body as ChatCompletionBody, BATCH_PRICE_FACTOR) };
    } catch (err) {
      return { error: err as TransientProviderError };
    }
  }
  const message = line.error?.message ?? (line.response?.body as { error?: { message?: string } } | undefined)?.error?.message;
  const text = `${status ?? line.error?.code ?? 'no answer'}: ${message ?? 'the batch did not answer this request'}`;
  // 4xx refusals would fail again; 5xx, expiry and cancellation may not.
  return {
    error:
      status && status >= 400 && status < 500 && status !== 429
        ? new PermanentProviderError(text, status)
        : new TransientProviderError(text, status),
  };
}
