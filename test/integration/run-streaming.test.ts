import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifyRunDeltas } from '@atelier/db';
import { buildModelRegistry } from '@atelier/domain';
import { type OpenAiLoopback, completion, conformingJson, startOpenAiLoopback } from '../../packages/engine/test/support/openai-loopback';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';

/**
 * Text steps stream: a client on the run's event stream sees `step.output.delta` events for an llm step
 * while it runs, between its start and its end, and what the step stores is what it would store without
 * them: for a plain step the deltas' text concatenated, for a structured one the JSON they spell, parsed.
 * The local model writes its answer over its latency (1.5 s here), as a remote one streams; an OpenAI
 * loopback streams its chunks 40 ms apart.
 */
let h: Harness;
let user: TestUser;
let server: OpenAiLoopback;

const NOTE = 'compose-streamed-note';
const definition = {
  id: NOTE,
  name: 'Streamed note',
  description: 'One llm step without a jsonSchema: its answer is plain text',
  artifactClass: 'knowledge',
  version: '2026.11.01',
  cadence: 'on-demand',
  intakeSchema: { fields: [{ name: 'topic', type: 'string', required: true, description: 'What the note is about' }] },
  runtimeSteps: [{ id: 'step-1', name: 'Write', kind: 'llm', role: 'textGenerator', prompt: 'Write a short note on "{{intake.topic}}".' }],
  gates: [],
  providers: { textGenerator: 'local/text-1' },
  budgetPolicy: {},
  artifactSchema: { artifactClass: 'knowledge', artifactType: 'article', files: ['application/json'], metadata: [] },
  outputShape: [{ artifactClass: 'knowledge', artifactType: 'article' }],
};

beforeAll(async () => {
  server = await startOpenAiLoopback((req) => ({
    ...completion(conformingJson(req.body), { prompt_tokens: 2000, completion_tokens: 1000 }),
    frameDelayMs: 40,
  }));
  h = await startHarness({
    localLatencyMs: 1500,
    sseHeartbeatMs: 1000,
    providers: { openai: { baseUrl: server.baseUrl, apiKey: 'sk-loopback', maxAttempts: 2 } },
    models: buildModelRegistry(['openai']),
  });
  user = await registerUser(h);
  const created = await h.request('POST', '/v1/workflows', { token: user.token, body: { definition } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const published = await h.request('POST', `/v1/workflows/${NOTE}/publish`, {
    token: user.token,
    body: { version: '2026.11.01', visibility: 'internal' },
  });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
});
afterAll(async () => {
  await h?.stop();
  await server?.close();
});

interface SseEvent {
  event: string;
  id?: string;
  data: any;
}

/** Reads the run's SSE stream to its end (or until `stop`), as run-events.test.ts does. */
async function readStream(runId: string, opts: { lastEventId?: string; stop?: (events: SseEvent[]) => boolean } = {}) {
  const controller = new AbortController();
  const res = await fetch(`${h.url}/v1/runs/${runId}/events`, {
    headers: { authorization: `Bearer ${user.token}`, ...(opts.lastEventId ? { 'last-event-id': opts.lastEventId } : {}) },
    signal: controller.signal,
  });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const events: SseEvent[] = [];
  let buffer = '';
  const decoder = new TextDecoder();
  const reader = res.body!.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return events;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        if (block.startsWith(':')) continue;
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
          return events;
        }
      }
    }
  } catch (err) {
    if ((err as Error).name === 'AbortError') return events;
    throw err;
  }
}

const startRun = async (templateId: string, topic: string, providers?: Record<string, string>) => {
  const res = await h.request('POST', '/v1/runs', {
    token: user.token,
    body: { templateId, intake: { topic }, ...(providers ? { providers } : {}) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
};

const storedOutput = async (runId: string, stepIndex: number) =>
  (
    await h.db
      .selectFrom('run_steps')
      .select(['output', 'status'])
      .where('run_id', '=', runId)
      .where('step_index', '=', stepIndex)
      .executeTakeFirstOrThrow()
  ).output as any;

/** The deltas of one step, checked to sit between its start and its end, in order, without ids. */
function deltasOf(events: SseEvent[], stepIndex: number): SseEvent[] {
  const position = (type: string) => events.findIndex((e) => e.event === type && e.data.stepIndex === stepIndex);
  const deltas = events.filter((e) => e.event === 'step.output.delta' && e.data.stepIndex === stepIndex);
  const completed = position('step.completed');
  expect(completed).toBeGreaterThan(0);
  for (const d of deltas) {
    const at = events.indexOf(d);
    expect(at).toBeGreaterThan(position('step.started'));
    expect(at).toBeLessThan(completed);
    expect(d.id).toBeUndefined();
    expect(d.data).toMatchObject({ stepIndex, attempt: 1, answer: 1, text: expect.any(String), at: expect.any(String) });
  }
  expect(deltas.map((d) => d.data.seq)).toEqual(deltas.map((_, i) => i + 1));
  return deltas;
}

describe('a text step streams its output on the run event stream', () => {
  it('sends several deltas before step.completed, and the stored output is their text', async () => {
    const runId = await startRun(NOTE, 'tide pools');
    const events = await readStream(runId);
    expect(events.at(-1)!.data.status).toBe('completed');
    const deltas = deltasOf(events, 0);
    expect(deltas.length).toBeGreaterThanOrEqual(3);
    const streamed = deltas.map((d) => d.data.text).join('');
    const completed = events.find((e) => e.event === 'step.completed')!;
    expect(completed.id).toBeDefined();
    const stored = await storedOutput(runId, 0);
    expect(stored).toEqual({ text: streamed });
    expect(streamed.length).toBeGreaterThan(100);
    // Live only: nothing of them in the run's recorded history.
    const recorded = await h.db.selectFrom('run_events').select('type').where('run_id', '=', runId).execute();
    expect(recorded.map((r) => r.type)).not.toContain('step.output.delta');
  });

  it('streams structured steps too, and stores the validated JSON they spell', async () => {
    const runId = await startRun('plan-research-report', 'coral reefs');
    const events = await readStream(runId);
    expect(events.at(-1)!.data.status).toBe('completed');
    for (const stepIndex of [0, 1]) {
      const deltas = deltasOf(events, stepIndex);
      expect(deltas.length).toBeGreaterThanOrEqual(3);
      expect(JSON.parse(deltas.map((d) => d.data.text).join(''))).toEqual(await storedOutput(runId, stepIndex));
    }
    // The code step writes no text: no deltas.
    expect(events.filter((e) => e.event === 'step.output.delta' && e.data.stepIndex === 2)).toEqual([]);
  });

  it('does not replay deltas to a client resuming with Last-Event-ID: step.completed carries the whole output', async () => {
    const runId = await startRun(NOTE, 'lighthouses');
    const first = await readStream(runId, { stop: (events) => events.some((e) => e.event === 'step.output.delta') });
    expect(first.at(-1)!.event).toBe('step.output.delta');
    const lastId = first.filter((e) => e.id !== undefined).at(-1)!.id!;
    await waitForRun(h, user.token, runId);
    const resumed = await readStream(runId, { lastEventId: lastId });
    expect(resumed.map((e) => e.event)).not.toContain('step.output.delta');
    const completed = resumed.find((e) => e.event === 'step.completed')!;
    expect(completed).toBeDefined();
    expect(completed.data.stepIndex).toBe(0);
    expect((await storedOutput(runId, 0)).text.length).toBeGreaterThan(100);
  });

  it('streams a remote model through its streaming protocol, and stores what the non-streaming call would', async () => {
    const runId = await startRun('plan-research-report', 'remote streams', {
      researcher: 'openai/gpt-4o-mini',
      textGenerator: 'openai/gpt-4o-mini',
    });
    const events = await readStream(runId);
    expect(events.at(-1)!.data.status).toBe('completed');
    const calls = server.received.filter((r) => r.path === '/v1/chat/completions');
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls.every((r) => r.body.stream === true && r.body.stream_options?.include_usage === true)).toBe(true);
    for (const stepIndex of [0, 1]) {
      const deltas = deltasOf(events, stepIndex);
      expect(deltas.length).toBeGreaterThanOrEqual(3);
      const stored = await storedOutput(runId, stepIndex);
      // The loopback's answer to the step's request, as the non-streaming call would get it whole.
      expect(stored).toEqual(JSON.parse(conformingJson(calls[stepIndex]!.body)));
      expect(JSON.parse(deltas.map((d) => d.data.text).join(''))).toEqual(stored);
    }
    const run = (await h.request('GET', `/v1/runs/${runId}`, { token: user.token })).body;
    // 2,000 input and 1,000 output tokens at 0.00015 and 0.0006 USD per 1k: the usage of the stream's last chunk.
    for (const step of run.runSteps.slice(0, 2)) expect(step).toMatchObject({ provider: 'openai', costActualUsd: 0.0009 });
  });

  it("passes a worker's announced deltas to the streams of their run only, in order, without an id, and refuses one NOTIFY could not carry", async () => {
    // Children of an order not started wait as planned: their streams stay open.
    const order = await h.request('POST', '/v1/orders', {
      token: user.token,
      body: { workflowId: NOTE, intakeBase: {}, variationSpec: { resolver: 'list', params: { items: [{ topic: 'a' }, { topic: 'b' }] } } },
    });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const children = (await h.request('GET', `/v1/runs?parentOrderId=${order.body.id}`, { token: user.token })).body.items;
    const [watched, other] = children.map((r: any) => r.id as string);
    const delta = { stepIndex: 0, stepId: 'step-1', attempt: 1, answer: 1, at: new Date().toISOString() };
    const reading = readStream(watched, { stop: (events) => events.filter((e) => e.event === 'step.output.delta').length >= 4 });
    // Announced until the stream has subscribed and hears them: another run's and two of the watched run's in each statement.
    let seq = 0;
    const piece = (n: number) => ({ ...delta, runId: watched, seq: n, text: `piece ${n} "quoted" é\n` });
    const announcing = setInterval(() => {
      seq += 2;
      void notifyRunDeltas(h.db, [{ ...delta, runId: other, seq, text: 'not yours' }, piece(seq - 1), piece(seq)]);
    }, 100);
    const events = await reading.finally(() => clearInterval(announcing));
    const deltas = events.filter((e) => e.event === 'step.output.delta');
    expect(deltas.length).toBeGreaterThanOrEqual(4);
    for (const d of deltas) {
      expect(d.id).toBeUndefined();
      expect(d.data).toEqual(piece(d.data.seq));
    }
    const seqs = deltas.map((d) => d.data.seq as number);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    await expect(notifyRunDeltas(h.db, [{ ...delta, runId: watched, seq: 99, text: '\u0001'.repeat(1500) }])).rejects.toThrow(/limit/);
  });
});
