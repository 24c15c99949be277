import { createHash } from 'node:crypto';
import {
  type Db,
  addProviderBatchItem,
  claimProviderBatchCheck,
  failStaleProviderBatch,
  getProviderBatchItem,
  providerBatchItems,
  recordProviderBatchEnded,
  recordProviderBatchSent,
  removeProviderBatchItem,
  sealProviderBatch,
  serveProviderBatchItem,
} from '@atelier/db';
import type { ModelEntry } from '@atelier/domain';
import { ProviderJobPending } from './job-pending.js';
import {
  type BatchItem,
  type BatchItemOutcome,
  type BatchProvider,
  PermanentProviderError,
  type TextCompletion,
  type TextRequest,
  TransientProviderError,
} from './types.js';

/** How calls are gathered into batches and how often a batch is asked about (ProviderJobSettings). */
export interface BatchSettings {
  /**
   * Tells the runs waiting for calls of a batch that it ended (as a provider's webhook would), so they need
   * not look often; the step activity signals them through the worker's Temporal client.
   */
  announce?: (ended: Array<{ runId: string; jobId: string }>) => Promise<void>;
  /** How long a model's open batch collects calls before it is sent (30 s unless set). */
  batchCollectMs?: number;
  /** How often the fleet asks a provider about one batch (30 s unless set). */
  batchCheckMs?: number;
}

const DEFAULTS = { collectMs: 30_000, checkMs: 30_000, maxItems: 10_000, staleSendMs: 10 * 60_000 };

type StoredOutcome = { completion: TextCompletion } | { error: { message: string; permanent: boolean; status?: number } };

/** What a batch item keeps of its request: enough to send it in any process, long after. */
interface StoredRequest {
  model: ModelEntry;
  prompt: string;
  jsonSchema?: Record<string, unknown>;
  seed: string;
}

/**
 * One text call through its provider's batch interface, as a step sees it: the call joins its model's open
 * batch and the step waits (ProviderJobPending, no worker held); whichever of the waiting steps looks after
 * the collect window sends the batch, and after that, at most once per check interval across the fleet,
 * asks the provider about it. When the batch ended every call's answer is stored with its item, so each
 * step finds its own, priced at the batch rate. A call the batch failed is handed to its step as an error
 * (and forgotten, so the step's retry sends it in a later batch).
 */
export async function completeInBatch(
  batches: BatchProvider,
  req: TextRequest,
  opts: { db: Db; runId: string; checkAfterMs?: number } & BatchSettings,
): Promise<TextCompletion> {
  const callKey = req.idempotencyKey;
  if (!callKey) throw new Error('a batch call is found again by its call key: keyedProviders must name the call');
  const { db } = opts;
  // The step that sent the batch or last asked about it looks again when the batch may be asked about next;
  // the others look at the worker's cadence (else the workflow's growing schedule) and are told when it ends.
  const pending = (leads = false) => {
    const checkAfterMs = leads ? (opts.batchCheckMs ?? DEFAULTS.checkMs) : opts.checkAfterMs;
    return new ProviderJobPending({ provider: req.model.provider, jobId: jobIdOf(callKey), ...(checkAfterMs ? { checkAfterMs } : {}) });
  };
  let item = await getProviderBatchItem(db, callKey);
  if (!item) {
    const request: StoredRequest = {
      model: req.model,
      prompt: req.prompt,
      seed: req.seed,
      ...(req.jsonSchema ? { jsonSchema: req.jsonSchema } : {}),
    };
    await addProviderBatchItem(db, { callKey, provider: req.model.provider, model: req.model.id, runId: opts.runId, request });
    // The first look comes when the batch is due to be sent: whoever looks then sends it.
    throw new ProviderJobPending({ provider: req.model.provider, jobId: jobIdOf(callKey), checkAfterMs: collectMsOf(opts) + 100 });
  }
  let leads = false;
  if (!item.outcome) {
    leads = await moveBatchOn(batches, item.batch_row.id, item.batch_row.status, req.model, opts);
    item = await getProviderBatchItem(db, callKey);
  }
  const outcome = item?.outcome as StoredOutcome | null | undefined;
  if (!outcome) throw pending(leads);
  if ('completion' in outcome)
    return (await serveProviderBatchItem(db, callKey)) ? outcome.completion : { ...outcome.completion, recorded: true };
  await removeProviderBatchItem(db, callKey);
  throw outcome.error.permanent
    ? new PermanentProviderError(outcome.error.message, outcome.error.status)
    : new TransientProviderError(outcome.error.message, outcome.error.status);
}

const jobIdOf = (callKey: string) => `batch:${callKey}`;
const collectMsOf = (opts: BatchSettings) => opts.batchCollectMs ?? DEFAULTS.collectMs;

/** Records how the batch ended and tells the runs waiting for its calls. */
async function ended(
  db: Db,
  id: string,
  opts: BatchSettings,
  outcomes: Array<{ callKey: string; outcome: unknown }>,
  unanswered: StoredOutcome,
  failure?: string,
): Promise<void> {
  const calls = await recordProviderBatchEnded(db, id, outcomes, unanswered, failure);
  await opts.announce?.(calls.map((c) => ({ runId: c.run_id, jobId: jobIdOf(c.call_key) }))).catch(() => undefined);
}

/**
 * Sends the batch when it is time, or asks the provider about it when it is this caller's turn. True when
 * this caller did either: it leads the batch for now, looking again at the check interval.
 */
async function moveBatchOn(
  batches: BatchProvider,
  id: string,
  status: string,
  model: ModelEntry,
  opts: { db: Db } & BatchSettings,
): Promise<boolean> {
  const { db } = opts;
  if (status === 'open') {
    const items = await sealProviderBatch(db, id, { collectMs: collectMsOf(opts), maxItems: DEFAULTS.maxItems });
    if (!items) return false;
    try {
      const { batchId } = await batches.create(model, batchItemsOf(items));
      await recordProviderBatchSent(db, id, batchId);
    } catch (err) {
      // Nothing was sent (or the provider refused it all): every call fails the way the refusal did.
      await ended(db, id, opts, [], stored(err), (err as Error).message);
    }
    return true;
  }
  if (status === 'sending') {
    if (await failStaleProviderBatch(db, id, DEFAULTS.staleSendMs))
      await ended(db, id, opts, [], stored(new TransientProviderError('the batch was lost while it was being sent')), 'lost while sending');
    return false;
  }
  if (status !== 'sent') return false;
  const batchId = await claimProviderBatchCheck(db, id, opts.batchCheckMs ?? DEFAULTS.checkMs);
  if (!batchId) return false;
  const items = batchItemsOf(await providerBatchItems(db, id));
  const progress = await batches.check(model, batchId, items);
  if (progress.state === 'pending') return true;
  const keys = new Map(items.map((item) => [item.customId, item.callKey]));
  const unanswered = progress.failure ?? new TransientProviderError('the batch ended without answering this call (expired or cancelled)');
  await ended(
    db,
    id,
    opts,
    progress.results.flatMap((r) => (keys.has(r.customId) ? [{ callKey: keys.get(r.customId) as string, outcome: stored(r) }] : [])),
    stored(unanswered),
    progress.failure?.message,
  );
  return true;
}

/**
 * A batch's calls as the provider is sent them: each named by its call key's SHA-256 (call keys are longer
 * than Anthropic's 64-character custom ids allow, and use `:`), and carrying the request as it was stored.
 */
function batchItemsOf(items: Array<{ call_key: string; request: unknown }>): Array<BatchItem & { callKey: string }> {
  return items.map((i) => ({
    callKey: i.call_key,
    customId: createHash('sha256').update(i.call_key).digest('hex'),
    request: i.request as StoredRequest,
  }));
}

function stored(outcome: BatchItemOutcome | unknown): StoredOutcome {
  if (outcome && typeof outcome === 'object' && 'completion' in outcome)
    return { completion: (outcome as { completion: TextCompletion }).completion };
  const err = outcome && typeof outcome === 'object' && 'error' in outcome ? (outcome as { error: unknown }).error : outcome;
  const status = (err as { status?: number }).status;
  return {
    error: {
      message: err instanceof Error ? err.message : String(err),
      permanent: err instanceof PermanentProviderError,
      ...(typeof status === 'number' ? { status } : {}),
    },
  };
}
