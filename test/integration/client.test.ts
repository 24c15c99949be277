import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AtelierClient, type RunEvent, createAtelierClient, isBudgetRefusal, verifyWebhook } from '@atelier/client';
import { TERMINAL_RUN_STATUSES as ENGINE_TERMINAL } from '@atelier/domain';
import { formatWebhookSecret, generateWebhookKey, signedWebhookHeaders } from '@atelier/engine/webhooks/signing';
import { type Harness, type TestUser, createApiKey, registerUser, startHarness } from '../support/harness';

/** @atelier/client as a user's program uses it, against a real gateway, worker, Temporal and PostgreSQL. */
let h: Harness;
let user: TestUser;
let client: AtelierClient;
let dir: string;

beforeAll(async () => {
  h = await startHarness();
  user = await registerUser(h);
  client = createAtelierClient({ baseUrl: h.url, apiKey: await createApiKey(h, user) });
  dir = await mkdtemp(path.join(tmpdir(), 'atelier-client-'));
});
afterAll(async () => {
  await h?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('@atelier/client against the real stack', () => {
  it('creates a run, waits for it over the event stream, and downloads its artifact files', async () => {
    const { data: created, error } = await client.POST('/v1/runs', {
      body: { templateId: 'generate-illustration', intake: { subject: 'a lighthouse on a cliff' } },
    });
    expect(error).toBeUndefined();
    if (!created) throw new Error('no run');
    expect(created.status).toBe('pending');

    const events: RunEvent[] = [];
    const run = await client.waitForRun(created.id, { timeoutMs: 90_000, onEvent: (e) => events.push(e) });
    expect(run.status).toBe('completed');
    expect(run.artifactId).toBeTruthy();
    expect(events[0]?.event).toBe('snapshot');
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['step.completed', 'run.status', 'artifact.created']));

    const downloaded = await client.downloadArtifactFiles(run.artifactId!, dir);
    expect(downloaded.artifact).toMatchObject({ id: run.artifactId, runId: run.id, artifactClass: 'visual' });
    expect(JSON.parse(await readFile(downloaded.metadataPath, 'utf8')).id).toBe(run.artifactId);
    expect(downloaded.files.map((f) => f.field)).toContain('url');
    const image = await readFile(downloaded.files[0]!.path);
    expect(image.subarray(8, 12).toString('ascii')).toBe('WEBP');
    expect(image.length).toBe(downloaded.files[0]!.bytes);
  });

  it('resolves waitForRun for a run already over, and falls back to polling when the stream is refused', async () => {
    const { data: created } = await client.POST('/v1/runs', {
      body: { templateId: 'plan-research-report', intake: { topic: 'tides', depth: 'brief' } },
    });
    const first = await client.waitForRun(created!.id, { timeoutMs: 60_000 });
    expect(first.status).toBe('completed');
    expect((await client.waitForRun(created!.id)).status).toBe('completed');

    // A proxy that breaks every event stream: the helper must still finish by polling GET /v1/runs/{id}.
    const noStream = createAtelierClient({
      baseUrl: h.url,
      apiKey: await createApiKey(h, user),
      fetch: async (input, init) => {
        const url = input instanceof Request ? input.url : String(input);
        if (url.endsWith('/events')) throw new TypeError('fetch failed (stream blocked)');
        return fetch(input, init);
      },
    });
    const { data: second } = await noStream.POST('/v1/runs', {
      body: { templateId: 'plan-research-report', intake: { topic: 'moons', depth: 'brief' } },
    });
    const polled: RunEvent[] = [];
    const done = await noStream.waitForRun(second!.id, { timeoutMs: 60_000, pollIntervalMs: 200, onEvent: (e) => polled.push(e) });
    expect(done.status).toBe('completed');
  });

  it('rejects waitForRun with the API error for a run that does not exist', async () => {
    await expect(client.waitForRun('run-00000000', { timeoutMs: 10_000 })).rejects.toMatchObject({ name: 'AtelierApiError', status: 404 });
  });

  it('types a budget refusal: a 402 narrows to the budget_exceeded detail with remainingUsd a number', async () => {
    const other = await registerUser(h, 'Budgeted');
    const budgeted = createAtelierClient({ baseUrl: h.url, apiKey: await createApiKey(h, other) });
    const budget = await budgeted.POST('/v1/budgets', {
      body: { workspaceId: other.workspaceId, scope: 'workspace', period: 'month', limitUsd: 0, enforcementMode: 'hard_stop' },
    });
    expect(budget.response.status, JSON.stringify(budget.error)).toBe(201);

    const { data, error, response } = await budgeted.POST('/v1/runs', {
      body: { templateId: 'plan-research-report', intake: { topic: 'refused' } },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(402);
    // Narrowing on the code alone reaches the budget refusal's typed fields.
    const body = error!.detail;
    if (typeof body !== 'object' || Array.isArray(body) || body.code !== 'budget_exceeded')
      throw new Error(`expected a budget refusal, got ${JSON.stringify(error)}`);
    expect(isBudgetRefusal(error)).toBe(true);
    const detail = body;
    // These annotations are the point: a wrong type in /openapi.json fails `tsc`.
    const code: 'budget_exceeded' = detail.code;
    const remaining: number = detail.remainingUsd;
    const limit: number = detail.limitUsd;
    const estimate: number = detail.runEstimateUsd;
    const budgetId: string | null = detail.budgetId;
    expect({ code, remaining, limit, budgetId }).toEqual({ code: 'budget_exceeded', remaining: 0, limit: 0, budgetId: budget.data!.id });
    expect(detail.reason).toBe('hard_stop');
    expect(estimate).toBeGreaterThan(0);
  });

  it('follows an order until it settles', async () => {
    const { data: order, error } = await client.POST('/v1/orders', {
      body: {
        workflowId: 'plan-research-report',
        intakeBase: { depth: 'brief' },
        variationSpec: { resolver: 'list', params: { items: [{ topic: 'owls' }, { topic: 'larks' }] } },
      },
    });
    expect(error).toBeUndefined();
    const started = await client.POST('/v1/orders/{order_id}/start', { params: { path: { order_id: order!.id } } });
    expect(started.response.status).toBe(200);
    const seen: string[] = [];
    const settled = await client.followOrder(order!.id, { pollIntervalMs: 200, timeoutMs: 90_000, onProgress: (o) => seen.push(o.status) });
    expect(settled.status).toBe('completed');
    expect(settled.counts.succeeded).toBe(2);
    expect(seen.at(-1)).toBe('completed');
  });

  it('verifies webhooks the engine signs, and knows the engine terminal statuses', async () => {
    const key = generateWebhookKey();
    const body = JSON.stringify({ type: 'document.published', slug: 'hello' });
    expect(verifyWebhook(formatWebhookSecret(key), signedWebhookHeaders(key, 'msg_abc', body), body)).toEqual(JSON.parse(body));
    expect(() => verifyWebhook(formatWebhookSecret(generateWebhookKey()), signedWebhookHeaders(key, 'msg_abc', body), body)).toThrow(
      'no matching signature',
    );
    const { TERMINAL_RUN_STATUSES } = await import('@atelier/client');
    expect([...TERMINAL_RUN_STATUSES].sort()).toEqual([...ENGINE_TERMINAL].sort());
  });
});
