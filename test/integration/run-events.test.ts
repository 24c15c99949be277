import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, registerUser, repeatUntil, startHarness, waitForRun } from '../support/harness';

let h: Harness;
let user: TestUser;

beforeAll(async () => {
  h = await startHarness({ localLatencyMs: 250, sseHeartbeatMs: 150 });
  user = await registerUser(h);
});
afterAll(() => h?.stop());

interface SseEvent {
  event: string;
  id?: string;
  data: any;
}

/** Reads a real SSE response: events, and comment lines (heartbeats), until the stream ends or `stop` says so. */
async function readStream(runId: string, opts: { lastEventId?: string; stop?: (events: SseEvent[]) => boolean } = {}) {
  const controller = new AbortController();
  const res = await fetch(`${h.url}/v1/runs/${runId}/events`, {
    headers: { authorization: `Bearer ${user.token}`, ...(opts.lastEventId ? { 'last-event-id': opts.lastEventId } : {}) },
    signal: controller.signal,
  });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const events: SseEvent[] = [];
  let comments = 0;
  let buffer = '';
  const decoder = new TextDecoder();
  const reader = res.body!.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return { events, comments, ended: true };
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        if (block.startsWith(':')) {
          comments++;
          continue;
        }
        const e: SseEvent = { event: 'message', data: null };
        for (const line of block.split('\n')) {
          const [field, ...rest] = line.split(':');
          const value = rest.join(':').replace(/^ /, '');
          if (field === 'event') e.event = value;
          if (field === 'id') e.id = value;
          if (field === 'data') e.data = JSON.parse(value);
        }
        events.push(e);
        if (opts.stop?.(events)) {
          controller.abort();
          return { events, comments, ended: false };
        }
      }
    }
  } catch (err) {
    if ((err as Error).name === 'AbortError') return { events, comments, ended: false };
    throw err;
  }
}

const startRun = async (topic: string) =>
  (await h.request('POST', '/v1/runs', { token: user.token, body: { templateId: 'plan-research-report', intake: { topic } } })).body
    .id as string;

describe('the run event stream', () => {
  it('sends a snapshot, then every transition with increasing ids, heartbeats while idle, and ends after the terminal event', async () => {
    const runId = await startRun('streams');
    const { events, comments, ended } = await readStream(runId);
    expect(ended).toBe(true);
    expect(events[0]!.event).toBe('snapshot');
    expect(events[0]!.data.id).toBe(runId);
    // Recorded events; a text step's live output (step.output.delta, no id) is run-streaming.test.ts's.
    const rest = events.slice(1).filter((e) => e.event !== 'step.output.delta');
    const types = rest.map((e) => e.event);
    expect(types).toEqual(expect.arrayContaining(['step.started', 'step.completed', 'artifact.created']));
    expect(types.at(-1)).toBe('run.status');
    expect(rest.at(-1)!.data).toMatchObject({ runId, status: 'completed' });
    expect(types.filter((t) => t === 'step.completed')).toHaveLength(3);
    const ids = [events[0]!, ...rest].map((e) => Number(e.id));
    for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1]!);
    expect(comments).toBeGreaterThan(0);
  });

  it('numbers each snapshot with the last event it reflects, whenever in the run it is taken', async () => {
    const runId = await startRun('snapshots in flight');
    const snapshots: SseEvent[] = [];
    for (;;) {
      const { events } = await readStream(runId, { stop: (events) => events.length === 1 });
      snapshots.push(events[0]!);
      if (['completed', 'failed', 'cancelled'].includes(events[0]!.data.status)) break;
    }
    expect(snapshots.length).toBeGreaterThan(2);
    const recorded = await h.db
      .selectFrom('run_events')
      .select(['seq', 'type', 'data'])
      .where('run_id', '=', runId)
      .orderBy('seq')
      .execute();
    for (const snapshot of snapshots) {
      const upTo = recorded.filter((e) => e.seq <= Number(snapshot.id));
      const statuses = upTo.filter((e) => e.type === 'run.status').map((e) => (e.data as { status: string }).status);
      const settled = upTo.filter((e) => e.type === 'step.completed').length;
      expect({ status: snapshot.data.status, settled }).toEqual({
        status: statuses.at(-1),
        settled: snapshot.data.runSteps.filter((step: { status: string }) => step.status === 'completed').length,
      });
    }
  });

  it('resumes after Last-Event-ID with nothing lost and nothing repeated', async () => {
    const runId = await startRun('resumption');
    const first = await readStream(runId, { stop: (events) => events.some((e) => e.event === 'step.completed') });
    expect(first.ended).toBe(false);
    const lastId = first.events.at(-1)!.id!;
    const second = await readStream(runId, { lastEventId: lastId });
    expect(second.ended).toBe(true);
    expect(second.events[0]!.event).toBe('snapshot');
    expect(second.events[0]!.id).toBeUndefined();
    const received = [...first.events.slice(1), ...second.events.slice(1)]
      .filter((e) => e.event !== 'step.output.delta')
      .map((e) => Number(e.id));
    const recorded = await h.db.selectFrom('run_events').select('seq').where('run_id', '=', runId).orderBy('seq').execute();
    const afterSnapshot = recorded.map((r) => r.seq).filter((s) => s > Number(first.events[0]!.id));
    expect(received).toEqual(afterSnapshot);
  });

  it('ends right after the snapshot for a run that already ended, and replays what a late reconnect missed', async () => {
    const runId = await startRun('already over');
    await waitForRun(h, user.token, runId);
    const done = await readStream(runId);
    expect(done.ended).toBe(true);
    expect(done.events.map((e) => e.event)).toEqual(['snapshot']);
    expect(done.events[0]!.data.status).toBe('completed');
    const late = await readStream(runId, { lastEventId: '1' });
    expect(late.events[0]!.event).toBe('snapshot');
    expect(late.events.slice(1).map((e) => Number(e.id))[0]).toBe(2);
    expect(late.events.at(-1)!.data.status).toBe('completed');
  });

  it('answers 204 to a reconnect after the end that has seen the last event, so an EventSource stops', async () => {
    const runId = await startRun('caught up');
    const all = await readStream(runId);
    const last = all.events.at(-1)!.id!;
    const res = await fetch(`${h.url}/v1/runs/${runId}/events`, {
      headers: { authorization: `Bearer ${user.token}`, 'last-event-id': last },
    });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(h.events.subscriberCount).toBe(0);
    const earlier = await fetch(`${h.url}/v1/runs/${runId}/events`, {
      headers: { authorization: `Bearer ${user.token}`, 'last-event-id': String(Number(last) - 1) },
    });
    expect(earlier.status).toBe(200);
    await earlier.body?.cancel();
  });

  it('names each step in its events: id, name and kind', async () => {
    const runId = await startRun('named steps');
    const { events } = await readStream(runId);
    const steps = events.filter((e) => e.event.startsWith('step.') && e.event !== 'step.output.delta');
    expect(steps.length).toBeGreaterThan(0);
    for (const e of steps)
      expect(e.data).toMatchObject({
        stepIndex: expect.any(Number),
        stepId: expect.any(String),
        name: expect.any(String),
        kind: expect.any(String),
      });
  });

  it('feeds every stream of the process from one database listener', async () => {
    const runs = await Promise.all([startRun('a'), startRun('b'), startRun('c')]);
    const streams = runs.map((id) => readStream(id));
    // Each stream subscribes once its request reaches the gateway: a moment, longer on a busy machine.
    expect(
      await repeatUntil(
        async () => h.events.subscriberCount,
        (n) => n >= 3,
        5_000,
      ),
    ).toBe(3);
    const listeners = await h.db
      .selectFrom('pg_stat_activity' as never)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('query' as never, 'like', 'LISTEN%' as never)
      .where('datname' as never, '=', new URL(h.databaseUrl).pathname.slice(1) as never)
      .executeTakeFirstOrThrow();
    expect(Number(listeners.n)).toBe(1);
    const results = await Promise.all(streams);
    expect(results.every((r) => r.ended && r.events.at(-1)!.data.status === 'completed')).toBe(true);
    expect(h.events.subscriberCount).toBe(0);
  });

  it('keeps strangers out', async () => {
    const runId = await startRun('private');
    const other = await registerUser(h, 'Stranger');
    const res = await fetch(`${h.url}/v1/runs/${runId}/events`, { headers: { authorization: `Bearer ${other.token}` } });
    expect(res.status).toBe(404);
    expect((await fetch(`${h.url}/v1/runs/${runId}/events`)).status).toBe(401);
    const missing = await fetch(`${h.url}/v1/runs/run-0000000000000000/events`, { headers: { authorization: `Bearer ${user.token}` } });
    expect(missing.status).toBe(404);
    // The stream subscribes before it reads the run: a refused request leaves no subscription behind.
    expect(h.events.subscriberCount).toBe(0);
  });
});
