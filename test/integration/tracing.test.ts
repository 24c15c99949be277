import type { ChildProcess } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import { buildModelRegistry } from '@atelier/domain';
import { bundleRunWorkflows } from '@atelier/engine/worker';
import { startTracing, tracingActive } from '@atelier/engine/tracing';
import { type OpenAiLoopback, completion, startOpenAiLoopback } from '../../packages/engine/test/support/openai-loopback';
import { type Harness, registerUser, spawnAtelierWorker, startHarness, waitForRun } from '../support/harness';

/**
 * Traces (docs/operations.md, Traces): one run requested through the gateway arrives at a real OTLP/HTTP
 * receiver on loopback as one trace, connected end to end — the gateway request, the dispatcher's
 * delivery from the outbox, the workflow start, the workflow, every activity, and under them the
 * database queries, storage writes and provider HTTP calls — with the run's ids as attributes.
 */

interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  service: string;
  attributes: Record<string, unknown>;
}

interface OtlpReceiver {
  endpoint: string;
  spans: ReceivedSpan[];
  requests: number;
  close(): Promise<void>;
}

type AnyValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
  kvlistValue?: { values?: Array<{ key: string; value: AnyValue }> };
};
const anyValue = (v: AnyValue | undefined): unknown => {
  if (!v) return undefined;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(anyValue);
  if (v.kvlistValue) return Object.fromEntries((v.kvlistValue.values ?? []).map((kv) => [kv.key, anyValue(kv.value)]));
  return undefined;
};
const attributesOf = (list: Array<{ key: string; value: AnyValue }> = []) =>
  Object.fromEntries(list.map((a) => [a.key, anyValue(a.value)]));

/** A plain node:http OTLP/HTTP receiver decoding the JSON encoding of ExportTraceServiceRequest. */
async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const received: OtlpReceiver = { endpoint: '', spans: [], requests: 0, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    let data = '';
    req.on('data', (chunk) => (data += chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !String(req.headers['content-type']).includes('json')) {
        res.writeHead(415).end();
        return;
      }
      received.requests += 1;
      const body = JSON.parse(data);
      for (const rs of body.resourceSpans ?? []) {
        const service = String(attributesOf(rs.resource?.attributes)['service.name']);
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? [])
            received.spans.push({
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId || undefined,
              name: s.name,
              kind: s.kind,
              service,
              attributes: attributesOf(s.attributes),
            });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  received.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  received.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return received;
}

/** Answers the prompt writer's structured-output request with a conforming prompt. */
const promptAnswer = () => completion(JSON.stringify({ prompt: 'A lighthouse on a cliff at dusk, flat shapes, warm palette.' }));

// generate-illustration: prompt (llm, openai), draw (image, local) and remove background (tool) in executeStep
// activities, and shape (code), a quick step, in the executeQuickStep local activity (run shape 7).
const STEPS = 3;

let receiver: OtlpReceiver;
let openai: OpenAiLoopback;
const TRACING_ENV = () => ({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '100' });

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  openai = await startOpenAiLoopback(promptAnswer);
});
afterAll(async () => {
  await receiver?.close();
  await openai?.close();
});

function setTracingEnv(on: boolean) {
  for (const [key, value] of Object.entries(TRACING_ENV())) {
    if (on) process.env[key] = value;
    else delete process.env[key];
  }
}

async function startOneRun(h: Harness): Promise<{ runId: string; workspaceId: string }> {
  const user = await registerUser(h);
  const created = await h.request('POST', '/v1/runs', {
    token: user.token,
    body: {
      templateId: 'generate-illustration',
      intake: { subject: 'a lighthouse on a cliff' },
      providers: { promptWriter: 'openai/gpt-4o-mini' },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  // A spawned worker bundles its workflows (with the tracing interceptors) before it polls: minutes on a loaded machine.
  const run = await waitForRun(h, user.token, created.body.id, undefined, 180_000);
  expect(run.status, JSON.stringify({ error: run.error, errorCode: run.errorCode, failureDetails: run.failureDetails })).toBe('completed');
  return { runId: run.id, workspaceId: user.workspaceId };
}

/** Waits until the run's trace holds its workflow span and every step's activity span, then returns it. */
async function traceOf(runId: string): Promise<ReceivedSpan[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const root = receiver.spans.find((s) => s.name === 'POST /v1/runs' && s.attributes['atelier.run_id'] === runId);
    const spans = root ? receiver.spans.filter((s) => s.traceId === root.traceId) : [];
    const stepSpans = spans.filter((s) => s.name === 'RunActivity:executeStep');
    const done =
      spans.some((s) => s.name === 'RunWorkflow:runWorkflow') &&
      spans.some((s) => s.name === 'RunActivity:executeQuickStep') &&
      new Set(stepSpans.map((s) => s.attributes.temporalActivityId)).size >= STEPS;
    if (done) return spans;
    if (Date.now() > deadline)
      throw new Error(
        `the trace of ${runId} did not arrive whole; received: ${[...new Set(spans.map((s) => s.name))].join(', ') || 'nothing'}`,
      );
    await new Promise((r) => setTimeout(r, 200));
  }
}

function expectConnectedRunTrace(spans: ReceivedSpan[], run: { runId: string; workspaceId: string }) {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const one = (name: string) => {
    const found = spans.filter((s) => s.name === name);
    expect(found, `spans named ${name}`).toHaveLength(1);
    return found[0]!;
  };
  const ids = { 'atelier.run_id': run.runId, 'atelier.workspace_id': run.workspaceId, 'atelier.template_id': 'generate-illustration' };

  // The gateway request is the root, named by its route, naming the run it created.
  const request = one('POST /v1/runs');
  expect(request.parentSpanId).toBeUndefined();
  expect(request.kind).toBe(2); // SERVER
  expect(request.attributes).toMatchObject({
    'http.route': '/v1/runs',
    'http.request.method': 'POST',
    'http.response.status_code': 201,
    ...ids,
  });

  // Every span of the trace reaches the request through its parents: nothing dangles.
  for (const span of spans) {
    let at: ReceivedSpan | undefined = span;
    const seen = new Set<string>();
    while (at?.parentSpanId && !seen.has(at.spanId)) {
      seen.add(at.spanId);
      const parent = byId.get(at.parentSpanId);
      expect(parent, `the parent of ${at.name} (${at.parentSpanId}) is in the trace`).toBeDefined();
      at = parent;
    }
    expect(at?.spanId, `${span.name} leads to the request span`).toBe(request.spanId);
  }

  // The request's own work, including the statement that recorded the run and its engine command.
  const requestQueries = spans.filter((s) => s.parentSpanId === request.spanId && s.attributes['db.system'] === 'postgresql');
  expect(requestQueries.some((s) => /insert into "?engine_commands"?/i.test(String(s.attributes['db.statement'])))).toBe(true);

  // The dispatcher delivered the outbox row later, in the request's trace (its stored traceparent).
  const dispatch = one('dispatch start_run');
  expect(dispatch.parentSpanId).toBe(request.spanId);
  expect(dispatch.attributes).toMatchObject({ 'atelier.engine_command.kind': 'start_run', ...ids });
  const start = one('StartWorkflow:runWorkflow');
  expect(start.parentSpanId).toBe(dispatch.spanId);
  expect(start.attributes).toMatchObject({ temporalWorkflowId: run.runId, ...ids });
  const workflow = one('RunWorkflow:runWorkflow');
  expect(workflow.parentSpanId).toBe(start.spanId);
  expect(workflow.attributes).toMatchObject(ids);

  // Each step ran as an activity scheduled by the workflow, named with the run's ids.
  const scheduled = spans.filter((s) => s.name === 'StartActivity:executeStep');
  const executed = spans.filter((s) => s.name === 'RunActivity:executeStep');
  expect(new Set(executed.map((s) => s.attributes.temporalActivityId)).size).toBe(STEPS);
  for (const s of scheduled) expect(s.parentSpanId).toBe(workflow.spanId);
  for (const s of executed) {
    expect(scheduled.map((p) => p.spanId)).toContain(s.parentSpanId);
    expect(s.attributes).toMatchObject(ids);
  }
  // A step's attempt is a span of its own under its activity's (step-attempt.ts): the activity's span ends when
  // the slot is handed back, while a step waiting on its provider goes on detached from it.
  const detachedAttempts = spans.filter((s) => s.name === 'StepAttempt:executeStep');
  expect(detachedAttempts.length).toBe(STEPS);
  for (const s of detachedAttempts) {
    expect(executed.map((p) => p.spanId)).toContain(s.parentSpanId);
    expect(s.attributes).toMatchObject(ids);
  }
  // The quick step ran in a local activity the workflow started, with no attempt of its own to detach.
  const quickStart = one('StartActivity:executeQuickStep');
  expect(quickStart.parentSpanId).toBe(workflow.spanId);
  const quick = one('RunActivity:executeQuickStep');
  expect(quick.parentSpanId).toBe(quickStart.spanId);
  expect(quick.attributes).toMatchObject(ids);
  // One worker ran every step, so the quick step found the outputs it reads where the other steps kept them:
  // nothing is read back from run_steps.
  expect(spans.filter((s) => s.name === 'SELECT run_steps').map((s) => s.attributes['db.statement'])).toEqual([]);
  const underSteps = (s: ReceivedSpan) => detachedAttempts.some((step) => step.spanId === s.parentSpanId);

  // Under the steps: the provider's HTTP call, storage writes and database queries.
  const provider = spans.filter((s) => s.name === 'POST /chat/completions');
  expect(provider.length).toBeGreaterThanOrEqual(1);
  for (const call of provider) {
    expect(underSteps(call)).toBe(true);
    expect(call.kind).toBe(3); // CLIENT
    expect(call.attributes).toMatchObject({ 'http.request.method': 'POST', 'gen_ai.request.model': 'gpt-4o-mini', ...ids });
  }
  const writes = spans.filter((s) => s.name === 'storage.put');
  expect(writes.length).toBeGreaterThanOrEqual(1);
  expect(writes.every(underSteps)).toBe(true);
  expect(writes.some((s) => String(s.attributes['atelier.storage.key']).endsWith('.webp'))).toBe(true);
  expect(spans.filter((s) => s.attributes['db.system'] === 'postgresql' && underSteps(s)).length).toBeGreaterThan(0);
}

describe('traces of a run', () => {
  let h: Harness | undefined;
  let worker: ChildProcess | undefined;
  afterEach(async () => {
    if (worker && worker.exitCode === null) {
      const exited = new Promise((r) => worker!.once('exit', r));
      worker.kill('SIGTERM');
      await exited;
    }
    worker = undefined;
    await h?.stop();
    h = undefined;
    setTracingEnv(false);
  });

  it('arrive as one connected trace with the gateway and the worker in one process', async () => {
    setTracingEnv(true);
    h = await startHarness({
      providers: { openai: { baseUrl: openai.baseUrl, apiKey: 'sk-loopback', maxAttempts: 2 } },
      models: buildModelRegistry(['openai']),
    });
    expect(tracingActive()).toBe(true);
    const run = await startOneRun(h);
    expectConnectedRunTrace(await traceOf(run.runId), run);
    // A run recorded with tracing on replays on a worker without it (turning tracing off breaks nothing in flight).
    const history = await h.temporal.workflow.getHandle(run.runId).fetchHistory();
    await Worker.runReplayHistory({ workflowBundle: { code: await readFile(inject('workflowBundlePath'), 'utf8') } }, history, run.runId);
    // Stopping the stack shuts the process's tracing down: nothing stays registered.
    await h.stop();
    h = undefined;
    expect(tracingActive()).toBe(false);
  }, 180_000);

  it('arrive as one connected trace from a gateway and a separate `atelier worker` process', async () => {
    setTracingEnv(true);
    h = await startHarness({ worker: false, models: buildModelRegistry(['openai']) });
    worker = spawnAtelierWorker(h, 0, { ...TRACING_ENV(), OPENAI_BASE_URL: openai.baseUrl, OPENAI_API_KEY: 'sk-loopback' });
    const run = await startOneRun(h);
    const spans = await traceOf(run.runId);
    expectConnectedRunTrace(spans, run);
    // Each process reports under its own service name.
    const service = (name: string) => spans.find((s) => s.name === name)?.service;
    expect(service('POST /v1/runs')).toBe('atelier-gateway');
    expect(service('StartWorkflow:runWorkflow')).toBe('atelier-gateway');
    expect(service('RunWorkflow:runWorkflow')).toBe('atelier-worker');
    expect(service('RunActivity:executeStep')).toBe('atelier-worker');
  }, 300_000);
});

describe('tracing off', () => {
  it('starts nothing without OTEL_EXPORTER_OTLP_ENDPOINT', async () => {
    let exporters = 0;
    const tracing = await startTracing({
      serviceName: 'atelier-test',
      env: {},
      createExporter: () => {
        exporters += 1;
        throw new Error('no exporter should be created');
      },
    });
    expect(tracing.enabled).toBe(false);
    expect(exporters).toBe(0);
    expect(tracingActive()).toBe(false);
    expect(tracing.workerOptions()).toEqual({});
    await tracing.shutdown();
  });
});

describe('the tracing workflow interceptors', () => {
  it('replay every committed history (turning tracing on does not break runs in flight)', async () => {
    const dir = path.join(PROJECT_ROOT, 'test', 'histories');
    const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
    const histories = await Promise.all(
      files.map(async (f) => ({ workflowId: f, history: historyFromJSON(JSON.parse(await readFile(path.join(dir, f), 'utf8'))) })),
    );
    const bundle = await bundleRunWorkflows({ tracing: true });
    expect(bundle.tracing).toBe(true);
    const sinks = { exporter: { export: { fn: () => undefined } } };
    for await (const result of Worker.runReplayHistories({ workflowBundle: { code: bundle.code }, sinks }, histories)) {
      expect(result.error, `${result.workflowId} does not replay with tracing: ${result.error}`).toBeUndefined();
    }
  }, 120_000);
});
