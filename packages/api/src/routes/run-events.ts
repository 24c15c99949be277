import { OpenAPIHono, z } from '@hono/zod-openapi';
import { RunIdParam } from '@atelier/contracts/runs';
import { type AnnouncedRunEvent, type RunOutputDelta, STEP_OUTPUT_DELTA, runEventsAfter } from '@atelier/db';
import { isTerminalRunStatus } from '@atelier/domain';
import { validationHook } from '../errors.js';
import { runSnapshot, visibleRun } from '../runs/visible-run.js';
import type { AppEnv } from '../services.js';
import { callerOf } from '../http/caller.js';
import { EVENT_STREAM_HEADERS, EventStream } from '../http/event-stream.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('runs');

const DEFAULT_HEARTBEAT_MS = 15_000;
/** Live deltas a stream holds for a slow client before it drops the next ones. */
const MAX_QUEUED_DELTAS = 256;

function resumePoint(header: string | undefined, query: string | undefined): number | undefined {
  const raw = header ?? query;
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

/**
 * GET /v1/runs/{run_id}/events (decisions §6): a `snapshot` of the run first, then every recorded
 * transition as it happens, each with the run's increasing event id. `Last-Event-ID` resumes after that
 * id with nothing lost or repeated (the snapshot then carries no id, so the client's position stays put).
 * A comment heartbeat keeps proxies from closing an idle stream; the stream ends after the terminal event.
 * Text steps' output comes live as `step.output.delta` events between their start and their end: announced
 * by the worker (notifyRunDeltas), never recorded, so they have no id and a reconnect does not replay them.
 */
export const runEventRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook }).openapi(
  operation(
    'GET /v1/runs/{run_id}/events',
    {
      params: RunIdParam,
      query: z.object({
        lastEventId: z.string().max(20).optional().describe('Same as the Last-Event-ID header, for clients that cannot set headers'),
      }),
    },
    {
      200: {
        description:
          'An event stream: snapshot, run.status, step.started, step.completed, step.failed, step.skipped, artifact.created, each with its id; and step.output.delta, without an id',
        content: {
          'text/event-stream': {
            schema: z
              .string()
              .describe(
                "Recorded events carry an `id` increasing per run (Last-Event-ID resumes after it). `step.output.delta` is live only: a piece of a text step's output as the model writes it, `{ runId, stepIndex, stepId, attempt, answer, seq, text, at }`, sent at most every 200 ms per step (up to 1000 characters a piece), never recorded and never replayed, without an id. Pieces of one attempt and answer concatenate in seq order to the answer so far; a new attempt or answer starts over (the earlier one was discarded). A step that ends within its first 200 ms sends none. `step.completed` always carries the whole output, as stored, whatever deltas a client saw or missed.",
              ),
          },
        },
      },
      204: {
        description: 'The run has ended and Last-Event-ID is its last event: nothing more will come (an EventSource stops reconnecting)',
      },
    },
  ),
  async (c) => {
    const { db, events, sseHeartbeatMs } = c.get('services');
    const runId = c.req.valid('param').run_id;
    const resumeFrom = resumePoint(c.req.header('last-event-id'), c.req.valid('query').lastEventId);
    const heartbeatMs = sseHeartbeatMs ?? DEFAULT_HEARTBEAT_MS;
    let wake: (() => void) | undefined;
    // What woke the stream, in the order it came: a recorded event as announced (sent from the announcement
    // when it carries its data and is the next one), recorded events to read, or a live delta to pass on.
    // A delta is written in its place, so a step's pieces come after its start and before its end.
    const queue: Array<AnnouncedRunEvent | RunOutputDelta | 'read'> = [];
    let queuedDeltas = 0;
    // Subscribe before the run is read, so a transition committed after the read still wakes the stream.
    const unsubscribe = await events.subscribe(
      runId,
      (event) => {
        if (event?.data !== undefined) queue.push(event);
        else if (queue.at(-1) !== 'read') queue.push('read');
        wake?.();
      },
      (delta) => {
        // A client reading slower than the model writes loses pieces (seq shows the gap), never the step's end.
        if (queuedDeltas >= MAX_QUEUED_DELTAS) return;
        queuedDeltas++;
        queue.push(delta);
        wake?.();
      },
    );
    let streaming = false;
    try {
      const { run } = await visibleRun(callerOf(c), runId);
      // A reconnect after the end that has seen everything (the run's row carries the number of its last event,
      // written by the statement that recorded it): 204 tells an EventSource to stop reconnecting. Every event
      // after this row is announced to the subscription above.
      if (resumeFrom !== undefined && isTerminalRunStatus(run.status) && resumeFrom >= run.event_seq) return c.body(null, 204);
      // A reconnect first reads what it missed.
      if (resumeFrom !== undefined) queue.unshift('read');
      const stream = new EventStream();
      stream.onAbort(() => wake?.());
      streaming = true;
      const follow = async () => {
        // The snapshot may be newer than the row read above; it reflects exactly the events up to its own number.
        const { shown: snapshot, eventSeq: snapshotSeq } = await runSnapshot(db, run);
        let lastSent = resumeFrom ?? snapshotSeq;
        // Steps whose end was sent (or was in the snapshot): a delta of theirs that comes late is dropped.
        const ended = new Set<number>();
        snapshot.runSteps.forEach((step, index) => {
          if (step.status !== 'pending') ended.add(index);
        });
        stream.event({
          event: 'snapshot',
          data: JSON.stringify(snapshot),
          ...(resumeFrom === undefined ? { id: String(snapshotSeq) } : {}),
        });
        if (isTerminalRunStatus(snapshot.status) && lastSent >= snapshotSeq) return;

        // Adds one recorded event to the stream; true once the run has ended (the stream then ends).
        const send = (e: { seq: number; type: string; data: { status?: string; stepIndex?: number }; at: string }) => {
          stream.event({ event: e.type, id: String(e.seq), data: JSON.stringify({ runId: run.id, ...e.data, at: e.at }) });
          lastSent = e.seq;
          const { status, stepIndex } = e.data;
          if (typeof stepIndex === 'number') {
            if (e.type === 'step.started') ended.delete(stepIndex);
            else if (e.type.startsWith('step.')) ended.add(stepIndex);
          }
          return e.type === 'run.status' && !!status && isTerminalRunStatus(status);
        };
        const read = async () => {
          for (const e of await runEventsAfter(db, run.id, lastSent)) {
            if (send({ seq: e.seq, type: e.type, data: e.data as object, at: e.created_at.toISOString() })) return true;
          }
          return false;
        };

        // Everything queued is added to the stream before it is flushed: events announced together go out together.
        while (!stream.aborted) {
          const next = queue.shift();
          if (next === 'read') {
            if (await read()) return;
            continue;
          }
          if (next && 'data' in next && next.data !== undefined) {
            // Announcements of one run come in the order its events were numbered; one already sent (by a
            // read) is skipped, and a gap (an event announced without its data) is filled by a read.
            if (next.seq <= lastSent) continue;
            const done =
              next.seq === lastSent + 1
                ? send({ seq: next.seq, type: next.type ?? '', data: JSON.parse(next.data), at: new Date(next.at ?? 0).toISOString() })
                : await read();
            if (done) return;
            continue;
          }
          if (next && 'text' in next) {
            queuedDeltas--;
            if (!ended.has(next.stepIndex)) {
              const { runId, stepIndex, stepId, attempt, answer, seq, text, at } = next;
              // No id: a delta is not recorded, so Last-Event-ID stays at the last recorded event.
              stream.event({
                event: STEP_OUTPUT_DELTA,
                data: JSON.stringify({ runId, stepIndex, stepId, attempt, answer, seq, text, at }),
              });
            }
            continue;
          }
          await stream.flush();
          if (queue.length > 0) continue;
          const beat = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(true), heartbeatMs);
            wake = () => {
              clearTimeout(timer);
              resolve(false);
            };
          });
          wake = undefined;
          if (beat) stream.comment('heartbeat');
        }
      };
      follow()
        .catch((err: unknown) => c.get('logger').error({ err, runId }, 'a run event stream ended on an error'))
        .finally(() => {
          unsubscribe();
          void stream.close();
        });
      return c.body(stream.body, 200, EVENT_STREAM_HEADERS);
    } finally {
      if (!streaming) unsubscribe();
    }
  },
);
