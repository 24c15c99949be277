import { BATCH_PRICE_FACTOR, type ModelEntry } from '@atelier/domain';
import { postJsonWithRetries } from '../http-call.js';
import { jsonLines } from '../json-lines.js';
import { type BatchItemOutcome, type BatchProvider, PermanentProviderError, type TextRequest, TransientProviderError } from '../types.js';
import { stepCompletion, stepMessage } from './step-calls.js';
import { ANTHROPIC_VERSION, type AnthropicOptions, type Message, requestBody } from './messages.js';

/** A message batch as the Message Batches API answers it (the fields read here). */
interface MessageBatch {
  id?: string;
  processing_status?: 'in_progress' | 'canceling' | 'ended';
  results_url?: string | null;
}

/** One line of a batch's results (JSONL). */
interface ResultLine {
  custom_id?: string;
  result?: {
    type?: 'succeeded' | 'errored' | 'canceled' | 'expired';
    message?: Message;
    error?: { type?: string; error?: { type?: string; message?: string } };
  };
}

const BATCH_TIMEOUT_MS = 120_000;

/**
 * Anthropic's Message Batches: the items go up in one request (`requests: [{custom_id, params}]`, the same
 * Messages bodies the steps send alone), the batch is read until `processing_status: ended`, and its results
 * (JSONL, one line per custom_id) are read back. Answers are priced at the batch rate (half the registry's
 * price). Errored items fail like the same call alone would (invalid requests for good, the rest
 * transiently); canceled and expired ones are transient, so their steps' retries send them again.
 */
export function anthropicBatches(opts: AnthropicOptions): BatchProvider {
  const call = (path: string, extra: { method?: 'GET' | 'POST'; body?: unknown; answer?: 'json' | 'text'; signal?: AbortSignal }) =>
    postJsonWithRetries({
      baseUrl: opts.baseUrl,
      path,
      body: extra.body,
      ...extra,
      timeoutMs: opts.timeoutMs ?? BATCH_TIMEOUT_MS,
      headers: { 'x-api-key': opts.apiKey, 'anthropic-version': ANTHROPIC_VERSION },
      maxAttempts: opts.maxAttempts,
      secrets: [opts.apiKey],
    });

  return {
    async create(_model, items, signal) {
      const requests = items.map((item) => ({ custom_id: item.customId, params: requestBody(stepMessage(opts, item.request).request) }));
      const batch = (await call('/v1/messages/batches', { body: { requests }, signal })) as MessageBatch;
      if (typeof batch.id !== 'string') throw new TransientProviderError('the provider created the batch without naming it');
      return { batchId: batch.id };
    },

    async check(model, batchId, items, signal) {
      const requests = new Map(items.map((item) => [item.customId, item.request]));
      const batch = (await call(`/v1/messages/batches/${encodeURIComponent(batchId)}`, { method: 'GET', signal })) as MessageBatch;
      if (batch.processing_status !== 'ended') return { state: 'pending' };
      const text = (await call(`/v1/messages/batches/${encodeURIComponent(batchId)}/results`, {
        method: 'GET',
        answer: 'text',
        signal,
      })) as string;
      const results = jsonLines<ResultLine>(text)
        .filter((line): line is ResultLine & { custom_id: string } => typeof line.custom_id === 'string')
        .map((line) => ({ customId: line.custom_id, ...outcomeOf(model, line, requests.get(line.custom_id)) }));
      return { state: 'ended', results };
    },

    async cancel(_model, batchId) {
      await call(`/v1/messages/batches/${encodeURIComponent(batchId)}/cancel`, { body: {} });
    },
  };

  function outcomeOf(model: ModelEntry, line: ResultLine, request: TextRequest | undefined): BatchItemOutcome {
    const result = line.result;
    if (result?.type === 'succeeded' && result.message) {
      try {
        // The structured tool is found again from the request's schema: the answer reads as the step asked it.
        const { structured } = stepMessage(opts, request ?? { model, prompt: '', seed: '' });
        return { completion: stepCompletion(model, structured, result.message, undefined, BATCH_PRICE_FACTOR) };
      } catch (err) {
        return { error: err as TransientProviderError };
      }
    }
    const message = result?.error?.error?.message ?? `the batch item ${result?.type ?? 'has no result'}`;
    const kind = result?.error?.error?.type;
    return {
      error:
        result?.type === 'errored' && kind === 'invalid_request_error'
          ? new PermanentProviderError(`${kind}: ${message}`, 400)
          : new TransientProviderError(kind ? `${kind}: ${message}` : message),
    };
  }
}
