/**
 * SSE transition-to-client latency (bench/engine.ts): runs of plan-research-report on the local provider
 * with simulated model latency, each watched by a real SSE client (fetch + a stream parser) opened as soon
 * as the run is started. For every event: client receipt minus the event's `at` (the database time its row
 * was written; same machine clock). Every event recorded after the snapshot must arrive, once, in order.
 */
import { randomBytes } from 'node:crypto';
import type { RunEventHub } from '@atelier/api';
import type { Db } from '@atelier/db';
import { type Log, describe, postRun, rawQuery } from './harness';
import { type LatencySummary, runBounded, summarize } from './stats';

export const SSE_TEMPLATE = 'plan-research-report';
const SSE_TARGET_P99_MS = 100;

export interface SseContext {
  baseUrl: string;
  apiKey: string;
  /** The bench's own listener (NOTIFY timing), apart from the gateway's. */
  hub: RunEventHub;
  db: Db;
  log: Log;
  aborted: () => boolean;
  runTimeoutMs: number;
}

interface StreamedEvent {
  seq: number;
  type: string;
  at: number;
  receivedAt: number;
}

/**
 * Reads one run's event stream over real HTTP until the server ends it: the snapshot's id, then every
 * event with the client's receipt time (Date.now(), the clock PostgreSQL's timestamps come from).
 */
export async function readRunStream(
  b: SseContext,
  runId: string,
): Promise<{ snapshotSeq: number; events: StreamedEvent[]; ended: boolean }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), b.runTimeoutMs);
  const events: StreamedEvent[] = [];
  let snapshotSeq = Number.NaN;
  try {
    const res = await fetch(`${b.baseUrl}/v1/runs/${runId}/events`, {
      headers: { authorization: `Bearer ${b.apiKey}` },
      signal: controller.signal,
    });
    if (res.status !== 200 || !res.body) throw new Error(`GET /v1/runs/${runId}/events: ${res.status}`);
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return { snapshotSeq, events, ended: true };
      const receivedAt = Date.now();
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        if (block.startsWith(':')) continue; // heartbeat
        let type = 'message';
        let id: string | undefined;
        let data = '';
        for (const line of block.split('\n')) {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const fieldValue = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') type = fieldValue;
          else if (field === 'id') id = fieldValue;
          else if (field === 'data') data += data ? `\n${fieldValue}` : fieldValue;
        }
        if (type === 'snapshot') snapshotSeq = Number(id);
        else events.push({ seq: Number(id), type, at: Date.parse((JSON.parse(data) as { at: string }).at), receivedAt });
      }
    }
  } catch (err) {
    if (controller.signal.aborted) return { snapshotSeq, events, ended: false };
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

export async function ssePhase(b: SseContext, opts: { runs: number; concurrency: number; localLatencyMs: number }) {
  const n = opts.runs;
  const tag = randomBytes(3).toString('hex');
  const { results } = await runBounded(
    n,
    opts.concurrency,
    async (i) => {
      const runId = await postRun(b.baseUrl, b.apiKey, SSE_TEMPLATE, { topic: `event stream ${tag} ${i}` });
      // When each of the run's NOTIFYs reached this process (the bench's own listener), in commit order.
      const notified: number[] = [];
      const subscribed = b.hub.subscribe(runId, () => notified.push(Date.now()));
      try {
        const stream = await readRunStream(b, runId);
        return { runId, notified, ...stream };
      } finally {
        (await subscribed)();
      }
    },
    b.aborted,
  );
  const streams = results
    .filter((r) => r?.ok)
    .map(
      (r) => (r as { value: { runId: string; notified: number[]; snapshotSeq: number; events: StreamedEvent[]; ended: boolean } }).value,
    );
  const failures = results.filter((r) => r && !r.ok) as Array<{ error: unknown }>;

  const ids = streams.map((s) => s.runId);
  const recordedRows = ids.length
    ? await rawQuery<{ run_id: string; seq: number; at_ms: number }>(
        b.db,
        `select run_id, seq, (extract(epoch from created_at) * 1000)::float8 as at_ms from run_events where run_id = any($1::text[]) order by run_id, seq`,
        [ids],
      )
    : [];
  const statuses = ids.length ? await b.db.selectFrom('runs').select(['id', 'status']).where('id', 'in', ids).execute() : [];

  const latency: number[] = [];
  const byType: Record<string, number[]> = {};
  const notifyLag: number[] = [];
  const delivery: number[] = [];
  let received = 0;
  let recordedAfterSnapshot = 0;
  let recordedTotal = 0;
  let lost = 0;
  let duplicated = 0;
  let outOfOrder = 0;
  let unexpected = 0;
  for (const s of streams) {
    const recorded = recordedRows.filter((r) => r.run_id === s.runId);
    recordedTotal += recorded.length;
    const expected = recorded.filter((r) => r.seq > s.snapshotSeq).map((r) => r.seq);
    recordedAfterSnapshot += expected.length;
    received += s.events.length;
    const got = s.events.map((e) => e.seq);
    const gotSet = new Set(got);
    const expectedSet = new Set(expected);
    lost += expected.filter((q) => !gotSet.has(q)).length;
    duplicated += got.length - gotSet.size;
    unexpected += got.filter((q) => !expectedSet.has(q)).length;
    outOfOrder += got.filter((q, k) => k > 0 && q <= got[k - 1]!).length;
    // The k-th from last notification belongs to the k-th from last event: one run's events commit in seq
    // order (under its row lock), and the listener subscribed after the first ones, so it misses only those.
    const notifiedAt = new Map<number, number>();
    s.notified
      .slice(-recorded.length)
      .reverse()
      .forEach((t, k) => {
        notifiedAt.set(recorded[recorded.length - 1 - k]!.seq, t);
      });
    for (const e of s.events) {
      const ms = e.receivedAt - e.at;
      latency.push(ms);
      (byType[e.type] ??= []).push(ms);
      const n = notifiedAt.get(e.seq);
      if (n !== undefined) {
        notifyLag.push(n - e.at);
        delivery.push(e.receivedAt - n);
      }
    }
  }
  const total = summarize(latency);
  const brief = (l: LatencySummary) => ({ p50Ms: l.p50Ms, p99Ms: l.p99Ms, maxMs: l.maxMs });
  const result = {
    template: SSE_TEMPLATE,
    localLatencyMs: opts.localLatencyMs,
    runs: n,
    concurrency: opts.concurrency,
    streams: streams.length,
    streamsEnded: streams.filter((s) => s.ended).length,
    runsCompleted: statuses.filter((r) => r.status === 'completed').length,
    /** Events received by the clients, and recorded in run_events after each stream's snapshot: these must be equal. */
    received,
    recorded: recordedAfterSnapshot,
    lost,
    duplicated,
    unexpected,
    outOfOrder,
    /** Every event of those runs; the difference from `recorded` was already in the snapshot when the stream opened. */
    recordedTotal,
    inSnapshot: recordedTotal - recordedAfterSnapshot,
    p50Ms: total.p50Ms,
    p90Ms: total.p90Ms,
    p99Ms: total.p99Ms,
    maxMs: total.maxMs,
    targetP99Ms: SSE_TARGET_P99_MS,
    meetsTarget: total.p99Ms <= SSE_TARGET_P99_MS && lost === 0 && received === recordedAfterSnapshot,
    /** Row written -> its NOTIFY seen by a listener in this process (rest of the transaction, commit, delivery). */
    notifyLagMs: brief(summarize(notifyLag)),
    /** NOTIFY seen -> the SSE client has the event (gateway query, SSE write, HTTP, parse). */
    deliveryMs: brief(summarize(delivery)),
    byType: Object.fromEntries(Object.entries(byType).map(([k, v]) => [k, { n: v.length, ...brief(summarize(v)) }])),
    ...(failures[0] ? { failed: failures.length, firstError: describe(failures[0].error) } : {}),
  };
  b.log(
    `sse: ${received}/${recordedAfterSnapshot} events (lost ${lost}, duplicated ${duplicated}) over ${streams.length} streams; ` +
      `receipt - at: p50 ${total.p50Ms} ms, p99 ${total.p99Ms} ms, max ${total.maxMs} ms`,
  );
  return result;
}
