import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from './connect.js';

export type ProviderBatchStatus = 'open' | 'sending' | 'sent' | 'ended' | 'failed';

export interface ProviderBatchRow {
  id: string;
  provider: string;
  model: string;
  status: ProviderBatchStatus;
  batch_id: string | null;
  opened_at: Date;
  sent_at: Date | null;
  failure: string | null;
}

export interface ProviderBatchItemRow {
  call_key: string;
  batch: string;
  run_id: string;
  request: unknown;
  outcome: unknown;
}

/**
 * Adds one call to its model's open batch, opening one when none is: one statement, so a call never lands
 * in a batch being sealed (sealing takes the open batch's row lock, which this statement holds too). A call
 * already added stays where it is.
 */
export async function addProviderBatchItem(
  db: Db,
  item: { callKey: string; provider: string; model: string; runId: string; request: unknown },
): Promise<void> {
  await sql`
    WITH open AS (
      INSERT INTO provider_batches (id, provider, model, status)
      VALUES (${`pb-${randomUUID()}`}, ${item.provider}, ${item.model}, 'open')
      ON CONFLICT (provider, model) WHERE status = 'open' DO UPDATE SET status = 'open'
      RETURNING id)
    INSERT INTO provider_batch_items (call_key, batch, run_id, request)
    SELECT ${item.callKey}, open.id, ${item.runId}, ${JSON.stringify(item.request)}::jsonb FROM open
    ON CONFLICT (call_key) DO NOTHING`.execute(db);
}

export async function getProviderBatchItem(
  db: Db,
  callKey: string,
): Promise<(ProviderBatchItemRow & { batch_row: ProviderBatchRow }) | undefined> {
  const { rows } = await sql<ProviderBatchItemRow & { batch_row: ProviderBatchRow }>`
    SELECT i.*, to_jsonb(b) AS batch_row
    FROM provider_batch_items i JOIN provider_batches b ON b.id = i.batch
    WHERE i.call_key = ${callKey}`.execute(db);
  return rows[0];
}

/** An item whose error was handed to its step: a later attempt of the step adds the call anew. */
export async function removeProviderBatchItem(db: Db, callKey: string): Promise<void> {
  await sql`DELETE FROM provider_batch_items WHERE call_key = ${callKey}`.execute(db);
}

/**
 * Seals an open batch once it has collected for `collectMs` or holds `maxItems`, for the caller to send:
 * answers its items, or undefined when it is not time yet or someone else sealed it.
 */
export async function sealProviderBatch(
  db: Db,
  batchId: string,
  limits: { collectMs: number; maxItems: number },
): Promise<Array<{ call_key: string; request: unknown }> | undefined> {
  const { rows } = await sql<{ id: string }>`
    UPDATE provider_batches SET status = 'sending'
    WHERE id = ${batchId} AND status = 'open'
      AND (opened_at <= now() - make_interval(secs => ${limits.collectMs / 1000})
        OR (SELECT count(*) FROM provider_batch_items WHERE batch = ${batchId}) >= ${limits.maxItems})
    RETURNING id`.execute(db);
  if (rows.length === 0) return undefined;
  return providerBatchItems(db, batchId);
}

export async function recordProviderBatchSent(db: Db, id: string, batchId: string): Promise<void> {
  await sql`UPDATE provider_batches SET status = 'sent', batch_id = ${batchId}, sent_at = now() WHERE id = ${id}`.execute(db);
}

/**
 * Takes the right to ask the provider about a sent batch, at most once per `intervalMs` across the fleet
 * (however many of its calls' steps look at once). Answers the provider's batch id when it is this caller's turn.
 */
export async function claimProviderBatchCheck(db: Db, id: string, intervalMs: number): Promise<string | undefined> {
  const { rows } = await sql<{ batch_id: string }>`
    UPDATE provider_batches SET checked_at = now()
    WHERE id = ${id} AND status = 'sent' AND checked_at <= now() - make_interval(secs => ${intervalMs / 1000})
    RETURNING batch_id`.execute(db);
  return rows[0]?.batch_id;
}

/**
 * The batch ended (or could not be sent): each item gets its outcome, and the items it does not name get
 * `unanswered`. One transaction, so a reader sees the batch ended with all its outcomes or still running.
 * Answers the batch's calls and their runs, to be told.
 */
export async function recordProviderBatchEnded(
  db: Db,
  id: string,
  outcomes: Array<{ callKey: string; outcome: unknown }>,
  unanswered: unknown,
  failure?: string,
): Promise<Array<{ call_key: string; run_id: string }>> {
  return db.transaction().execute(async (tx) => {
    if (outcomes.length > 0)
      await sql`
        UPDATE provider_batch_items i SET outcome = o.outcome
        FROM unnest(${outcomes.map((o) => o.callKey)}::text[], ${outcomes.map((o) => JSON.stringify(o.outcome))}::jsonb[]) AS o(call_key, outcome)
        WHERE i.call_key = o.call_key AND i.batch = ${id}`.execute(tx);
    await sql`UPDATE provider_batch_items SET outcome = ${JSON.stringify(unanswered)}::jsonb WHERE batch = ${id} AND outcome IS NULL`.execute(
      tx,
    );
    await sql`
      UPDATE provider_batches SET status = ${failure ? 'failed' : 'ended'}, ended_at = now(), failure = ${failure ?? null}
      WHERE id = ${id}`.execute(tx);
    const { rows } = await sql<{
      call_key: string;
      run_id: string;
    }>`SELECT call_key, run_id FROM provider_batch_items WHERE batch = ${id}`.execute(tx);
    return rows;
  });
}

/** A batch left `sending` longer than `staleMs` (its sender died): failed, so its calls are sent again. */
export async function failStaleProviderBatch(db: Db, id: string, staleMs: number): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    UPDATE provider_batches SET status = 'failed', ended_at = now(), failure = 'its sender stopped before the provider confirmed it'
    WHERE id = ${id} AND status = 'sending' AND opened_at <= now() - make_interval(secs => ${staleMs / 1000})
    RETURNING id`.execute(db);
  return rows.length > 0;
}

/** Marks an item's answer handed to its step: true the first time only (then its spend is recorded). */
export async function serveProviderBatchItem(db: Db, callKey: string): Promise<boolean> {
  const { rows } =
    await sql`UPDATE provider_batch_items SET served = true WHERE call_key = ${callKey} AND NOT served RETURNING call_key`.execute(db);
  return rows.length > 0;
}

/** A batch's calls, in the order they were added. */
export async function providerBatchItems(db: Db, batchId: string): Promise<Array<{ call_key: string; request: unknown }>> {
  const { rows } = await sql<{ call_key: string; request: unknown }>`
    SELECT call_key, request FROM provider_batch_items WHERE batch = ${batchId} ORDER BY added_at, call_key`.execute(db);
  return rows;
}
