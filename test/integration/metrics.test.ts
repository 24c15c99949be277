import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, registerUser, startHarness, startProbedWorker, stopProcess, waitForRun } from '../support/harness';
import { notesWorkflow } from '../support/workflows';

/**
 * Prometheus metrics as an operator scrapes them: the gateway's /metrics and a real `atelier worker`
 * process's /metrics (its probe port), read before and after a known set of runs.
 */

let h: Harness;
let user: TestUser;
let worker: ChildProcess;
let workerUrl: string;

type Samples = Array<{ name: string; labels: Record<string, string>; value: number }>;

/** The text exposition format, sample lines only. */
function parse(text: string): Samples {
  const samples: Samples = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!.replace(/\\(.)/g, '$1');
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

/** The sum of the samples named `name` whose labels include `labels`. */
function value(samples: Samples, name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

async function scrape(url: string, token?: string): Promise<{ text: string; samples: Samples; type: string | null }> {
  const res = await fetch(`${url}/metrics`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  expect(res.status).toBe(200);
  const text = await res.text();
  return { text, samples: parse(text), type: res.headers.get('content-type') };
}

async function eventually<T>(fn: () => Promise<T>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

beforeAll(async () => {
  h = await startHarness({ worker: false });
  user = await registerUser(h);
  ({ child: worker, url: workerUrl } = await startProbedWorker(h, 0));
}, 180_000);
afterAll(async () => {
  await stopProcess(worker);
  await h?.stop();
});

describe('metrics', () => {
  it('count runs, steps, gate verdicts, refusals and requests by exactly what happened, on the gateway and the worker', async () => {
    const gatewayBefore = await scrape(h.url, h.metricsToken);
    const workerBefore = await scrape(workerUrl);

    const start = (templateId: string, intake: Record<string, unknown>, token = user.token) =>
      h.request('POST', '/v1/runs', { token, body: { templateId, intake } });
    const created = [
      await start('plan-research-report', { topic: 'metrics one' }),
      await start('plan-research-report', { topic: 'metrics two' }),
      await start('generate-illustration', { subject: 'a rifle on a table' }),
    ];
    for (const c of created) expect(c.status).toBe(201);

    // A workspace whose budget allows nothing: its run is refused before anything is recorded.
    const broke = await registerUser(h);
    const budget = await h.request('POST', '/v1/budgets', {
      token: broke.token,
      body: { workspaceId: broke.workspaceId, scope: 'workspace', period: 'month', limitUsd: 0, enforcementMode: 'hard_stop' },
    });
    expect(budget.status).toBe(201);
    const refused = await start('plan-research-report', { topic: 'no money' }, broke.token);
    expect(refused.status).toBe(402);

    const settled = await Promise.all(created.map((c) => waitForRun(h, user.token, c.body.id, undefined, 120_000)));
    expect(settled.map((r) => r.status)).toEqual(['completed', 'completed', 'failed']);
    expect(settled[2]).toMatchObject({ errorCode: 'gate_rejected' });

    // Gateway.
    const gateway = await scrape(h.url, h.metricsToken);
    expect(gateway.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const g = (name: string, labels: Record<string, string> = {}) =>
      value(gateway.samples, name, labels) - value(gatewayBefore.samples, name, labels);
    expect(g('atelier_runs_created_total')).toBe(3);
    expect(g('atelier_runs_created_total', { template: 'plan-research-report' })).toBe(2);
    expect(g('atelier_runs_created_total', { template: 'generate-illustration' })).toBe(1);
    expect(g('atelier_budget_refusals_total')).toBe(1);
    expect(g('atelier_budget_refusals_total', { reason: 'hard_stop', scope: 'workspace' })).toBe(1);
    expect(g('atelier_http_requests_total', { route: '/v1/runs', method: 'POST', status: '201' })).toBe(3);
    expect(g('atelier_http_requests_total', { route: '/v1/runs', method: 'POST', status: '402' })).toBe(1);
    expect(g('atelier_http_requests_total', { route: '/v1/budgets', method: 'POST', status: '201' })).toBe(1);
    expect(g('atelier_http_request_duration_seconds_count', { route: '/v1/runs', method: 'POST' })).toBe(4);
    // Routes are templates: the polling of each run is counted under /v1/runs/:run_id, no id is a label.
    expect(g('atelier_http_requests_total', { route: '/v1/runs/:run_id', method: 'GET', status: '200' })).toBeGreaterThanOrEqual(3);
    expect(gateway.text).not.toMatch(/route="[^"]*run-[0-9a-f]{8}/);
    expect(value(gateway.samples, 'atelier_db_pool_max_connections', {})).toBe(10);
    expect(gateway.samples.some((s) => s.name === 'atelier_db_pool_connections' && s.labels.state === 'max')).toBe(false);
    // Node's and the process's own metrics, as every Node service exports them.
    expect(value(gateway.samples, 'process_cpu_seconds_total', {})).toBeGreaterThan(0);
    expect(value(gateway.samples, 'nodejs_heap_size_used_bytes', {})).toBeGreaterThan(0);
    expect(value(gateway.samples, 'atelier_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    expect(value(gateway.samples, 'atelier_runs_in_flight')).toBe(0);
    expect(
      gateway.samples
        .filter((s) => s.name === 'atelier_runs_in_flight')
        .map((s) => s.labels.status)
        .sort(),
    ).toEqual(['pending', 'queued', 'running']);
    expect(
      gateway.samples
        .filter((s) => s.name === 'atelier_orders')
        .map((s) => s.labels.status)
        .sort(),
    ).toEqual(['attention', 'cancelled', 'completed', 'failed', 'planned', 'running']);
    expect(gateway.samples.find((s) => s.name === 'atelier_order_children_in_flight')?.value).toBe(0);
    // Not an API route: /metrics stays out of the published document.
    const doc = await h.request('GET', '/openapi.json');
    expect(Object.keys(doc.body.paths)).not.toContain('/metrics');

    // Worker: the run's settlement is counted right after it is written, so read until it shows.
    const workerAfter = await eventually(async () => {
      const scraped = await scrape(workerUrl);
      const settledNow = value(scraped.samples, 'atelier_runs_settled_total') - value(workerBefore.samples, 'atelier_runs_settled_total');
      if (settledNow < 3) throw new Error(`worker counted ${settledNow} settled runs so far`);
      return scraped;
    });
    const w = (name: string, labels: Record<string, string> = {}) =>
      value(workerAfter.samples, name, labels) - value(workerBefore.samples, name, labels);
    expect(w('atelier_runs_settled_total')).toBe(3);
    expect(w('atelier_runs_settled_total', { template: 'plan-research-report', status: 'completed' })).toBe(2);
    expect(w('atelier_runs_settled_total', { template: 'generate-illustration', status: 'failed' })).toBe(1);
    // plan-research-report: llm, llm, code; the illustration's first (llm) step fails at its safety gate.
    expect(w('atelier_step_duration_seconds_count', { kind: 'llm' })).toBe(5);
    expect(w('atelier_step_duration_seconds_count', { kind: 'llm', status: 'failed' })).toBe(1);
    expect(w('atelier_step_duration_seconds_count', { kind: 'code' })).toBe(2);
    expect(w('atelier_step_duration_seconds_count', { kind: 'image' })).toBe(0);
    expect(w('atelier_step_duration_seconds_count', { kind: 'llm', provider: 'local', model: 'local/text-1' })).toBeGreaterThanOrEqual(4);
    expect(w('atelier_step_cost_usd_total', { kind: 'llm', provider: 'local' })).toBeGreaterThan(0);
    expect(w('atelier_step_cost_usd_total', { kind: 'code' })).toBe(0);
    expect(w('atelier_gate_verdicts_total', { gate_type: 'safety', verdict: 'fail' })).toBe(1);
    expect(w('atelier_gate_verdicts_total', { gate_type: 'safety', verdict: 'pass' })).toBe(0);
    expect(w('atelier_gate_verdicts_total', { gate_type: 'budget' })).toBe(0);
    expect(value(workerAfter.samples, 'atelier_db_pool_max_connections', {})).toBe(10);
    expect(value(workerAfter.samples, 'process_resident_memory_bytes', {})).toBeGreaterThan(0);
    // The `local` provider needs no connection: none open, none in flight.
    expect(workerAfter.text).toContain('atelier_provider_requests_in_flight{protocol="h2"} 0');
    expect(workerAfter.text).toContain('atelier_provider_connections{protocol="http/1.1"} 0');
    // Declared for the webhook delivery activity, with no deliveries yet.
    expect(workerAfter.text).toContain('# TYPE atelier_webhook_deliveries_total counter');
    // The Temporal SDK's own worker metrics, from its local endpoint, on the same scrape.
    expect(workerAfter.text).not.toMatch(/the Temporal SDK metrics endpoint/);
    expect(workerAfter.samples.some((s) => s.name.startsWith('temporal_'))).toBe(true);
    expect(workerAfter.samples.some((s) => s.name.startsWith('temporal_worker_task_slots_available'))).toBe(true);
    // `atelier worker` watches for nondeterminism errors (test/integration/nondeterminism.test.ts): none met here.
    expect(workerAfter.text).toContain('# TYPE atelier_workflow_nondeterminism_total counter');
    const ready = await fetch(`${workerUrl}/readyz`).then((r) => r.json());
    expect(ready).toMatchObject({ ready: true, nondeterminism: { recent: false, count: 0, total: 0, windowMinutes: 15 } });
  }, 180_000);

  it("serve the gateway's metrics only to a scrape with the operator's token", async () => {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: 'Bearer wrong' },
      { authorization: `Bearer ${h.metricsToken}x` },
      { authorization: h.metricsToken },
    ]) {
      const res = await fetch(`${h.url}/metrics`, { headers });
      expect(res.status, JSON.stringify(headers)).toBe(404);
      expect(await res.text()).not.toContain('atelier_');
    }
    expect((await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${h.metricsToken}` } })).status).toBe(200);
  });

  it('never make a workflow id a tenant chose into a label: authored workflows count as "authored"', async () => {
    const gatewayBefore = await scrape(h.url, h.metricsToken);
    const workerBefore = await scrape(workerUrl);
    const id = `plan-secret-${Date.now().toString(36)}`;
    const definition = notesWorkflow(id, { name: 'A private plan', description: 'Notes nobody else should know of' });
    expect((await h.request('POST', '/v1/workflows', { token: user.token, body: { definition } })).status).toBe(201);
    const published = await h.request('POST', `/v1/workflows/${id}/publish`, {
      token: user.token,
      body: { version: '2026.11.01', visibility: 'internal' },
    });
    expect(published.status).toBe(200);
    const created = await h.request('POST', '/v1/runs', { token: user.token, body: { templateId: id, intake: { topic: 'bees' } } });
    expect(created.status).toBe(201);
    expect((await waitForRun(h, user.token, created.body.id, undefined, 120_000)).status).toBe('completed');
    const gateway = await scrape(h.url, h.metricsToken);
    expect(
      value(gateway.samples, 'atelier_runs_created_total', { template: 'authored' }) -
        value(gatewayBefore.samples, 'atelier_runs_created_total', { template: 'authored' }),
    ).toBe(1);
    const workerAfter = await eventually(async () => {
      const scraped = await scrape(workerUrl);
      const counted =
        value(scraped.samples, 'atelier_runs_settled_total', { template: 'authored', status: 'completed' }) -
        value(workerBefore.samples, 'atelier_runs_settled_total', { template: 'authored', status: 'completed' });
      if (counted < 1) throw new Error('the authored run is not counted yet');
      return scraped;
    });
    expect(gateway.text).not.toContain('plan-secret');
    expect(workerAfter.text).not.toContain('plan-secret');
  }, 180_000);
});
