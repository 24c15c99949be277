import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, get } from 'node:http';
import { createApp, keepAliveMs, startApiServer } from '@atelier/api';
import { connectDb } from '@atelier/db';
import { type Harness, registerUser, startHarness } from '../support/harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ worker: false });
});
afterAll(() => h?.stop());

/** GET `path` through `agent`; says whether the request went over a connection already open. */
function getOver(agent: Agent, url: string): Promise<{ status: number; keepAlive: string | undefined; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = get(url, { agent }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, keepAlive: [res.headers['keep-alive']].flat()[0], reused: req.reusedSocket }),
      );
    });
    req.on('error', reject);
  });
}

describe('the gateway contract', () => {
  it('keeps an idle client connection open past the 5 s Node keeps by default, and says for how long', async () => {
    expect(keepAliveMs({})).toBe(65_000);
    expect(keepAliveMs({ ATELIER_HTTP_KEEP_ALIVE_MS: '90000' })).toBe(90_000);
    expect(keepAliveMs({ ATELIER_HTTP_KEEP_ALIVE_MS: 'soon' })).toBe(65_000);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await getOver(agent, `${h.url}/healthz`);
      expect(first).toMatchObject({ status: 200, keepAlive: 'timeout=65', reused: false });
      await new Promise((r) => setTimeout(r, 5_500));
      expect(await getOver(agent, `${h.url}/healthz`)).toMatchObject({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  });

  it('documents every /v1 route in /openapi.json (OpenAPI 3.1), generated from the route schemas', async () => {
    const spec = await h.request('GET', '/openapi.json');
    expect(spec.status).toBe(200);
    expect(spec.body.openapi).toBe('3.1.0');
    const app = createApp(h.gatewayServices({ publicUrl: h.url }));
    const served = new Set(
      app.routes
        .filter((r) => r.path.startsWith('/v1/') && r.method !== 'ALL')
        .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:([A-Za-z_]+)/g, '{$1}').replace(/\/~([a-z-]+)$/, ':$1')}`),
    );
    const documented = new Set(
      Object.entries(spec.body.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) =>
        Object.keys(ops).map((m) => `${m} ${p}`),
      ),
    );
    expect(served.size).toBeGreaterThan(10);
    expect([...served].filter((r) => !documented.has(r))).toEqual([]);
    expect(spec.body.paths['/v1/runs'].post.security).toEqual([{ bearer: [] }]);
    expect(spec.body.paths['/v1/catalog/workflows'].get.security).toEqual([]);
    expect(spec.body.servers).toEqual([expect.objectContaining({ url: expect.any(String) })]);
    const operations = Object.values(spec.body.paths as Record<string, Record<string, any>>).flatMap((item) => Object.values(item));
    const ids = operations.map((op) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(spec.body.paths['/v1/runs/{run_id}/cancel'].post.operationId).toBe('cancelRun');
    // Custom methods keep the contract's colon form.
    expect(Object.keys(spec.body.paths)).toEqual(
      expect.arrayContaining([
        '/v1/subjects/{subject_id}:erase',
        '/v1/characters/{character_id}:check',
        '/v1/likeness-consents/{consent_id}:revoke',
      ]),
    );
  });

  it('gives each error of the contract its own schema, so a client can tell a budget refusal from a 422', async () => {
    const spec = await h.request('GET', '/openapi.json');
    const refs = (op: any, status: string) => JSON.stringify(op.responses[status].content['application/json'].schema);
    const createRun = spec.body.paths['/v1/runs'].post;
    expect(refs(createRun, '402')).toContain('BudgetRefusal');
    expect(refs(createRun, '400')).toContain('TemplateDeprecated');
    for (const name of ['RequestValidationError', 'IntakeInvalid', 'CharacterNotUsable']) expect(refs(createRun, '422')).toContain(name);
    for (const path of ['/v1/workflows', '/v1/workflows/estimate']) {
      for (const name of ['RequestValidationError', 'WorkflowInvalid']) expect(refs(spec.body.paths[path].post, '422')).toContain(name);
    }
    const patchClient = spec.body.paths['/v1/clients/{client_id}'].patch;
    expect(refs(patchClient, '409')).toContain('EtagMismatch');
    expect(refs(patchClient, '428')).toContain('EtagRequired');
    expect(refs(patchClient, '403')).toContain('AdminRequired');
    const budget = spec.body.components.schemas.BudgetRefusal;
    expect(budget.properties.detail.properties.remainingUsd.type).toBe('number');
  });

  it('names every path parameter one way, snake_case as the contract writes {run_id}', async () => {
    const spec = await h.request('GET', '/openapi.json');
    const names = Object.keys(spec.body.paths as Record<string, unknown>).flatMap((p) => [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!));
    expect(names.length).toBeGreaterThan(20);
    expect([...new Set(names.filter((n) => !/^[a-z]+(_[a-z]+)*$/.test(n)))]).toEqual([]);
  });

  it('serves an API reference page at /docs that works offline', async () => {
    const page = await fetch(`${h.url}/docs`);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('/docs/assets/swagger-ui-bundle.js');
    const bundle = await fetch(`${h.url}/docs/assets/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });

  it('echoes a sane X-Request-Id and makes one up otherwise', async () => {
    const given = await h.request('GET', '/v1/catalog/workflows', { headers: { 'x-request-id': 'trace-123' } });
    expect(given.headers.get('x-request-id')).toBe('trace-123');
    const bogus = await h.request('GET', '/v1/catalog/workflows', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(bogus.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers an unknown route with a 404 string detail', async () => {
    const res = await h.request('GET', '/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(typeof res.body.detail).toBe('string');
  });

  it('serves the public catalog without credentials, prompts and bindings redacted', async () => {
    const list = await h.request('GET', '/v1/catalog/workflows');
    expect(list.status).toBe(200);
    const summary = list.body.items.find((w: any) => w.id === 'plan-research-report');
    expect(summary).toMatchObject({ purpose: expect.any(String), roughDurationSeconds: 30, qaIncluded: true });
    expect(summary.provided.map((f: any) => f.name)).toEqual(['topic', 'depth']);
    const one = await h.request('GET', '/v1/catalog/workflows/plan-research-report');
    expect(one.body.intakeSchema.fields[1]).toMatchObject({ name: 'depth', options: ['brief', 'standard', 'deep'], default: 'standard' });
    const text = JSON.stringify(one.body);
    expect(text).not.toContain('prompt');
    expect(text).not.toContain('local/text-1');
    expect(text).not.toContain('jsonSchema');
    expect((await h.request('GET', '/v1/catalog/workflows/plan-nothing')).status).toBe(404);
  });

  it('lists the model registry to signed-in callers', async () => {
    const user = await registerUser(h);
    expect((await h.request('GET', '/v1/models')).status).toBe(401);
    const models = await h.request('GET', '/v1/models', { token: user.token });
    expect(models.status).toBe(200);
    const text = models.body.items.find((m: any) => m.id === 'local/text-1');
    expect(text).toMatchObject({ provider: 'local', kind: 'text', batch: true, status: 'available' });
    expect(text.pricing).toMatchObject({ per_1k_input_tokens: expect.any(Number), currency: 'USD' });
    expect(models.body.items.map((m: any) => m.kind)).toEqual(
      expect.arrayContaining(['text', 'image', 'video', 'classifier', 'embedding']),
    );
  });

  it('turns a server fault into a 500 that names the request id and hides internals', async () => {
    // A gateway whose database does not exist: every query fails inside the server.
    const missing = new URL(h.databaseUrl);
    missing.pathname = '/atelier_no_such_database';
    const brokenDb = connectDb({ url: missing.toString(), max: 1 });
    const broken = await startApiServer(h.gatewayServices({ db: brokenDb }), 0, '127.0.0.1');
    try {
      const res = await fetch(`${broken.url}/v1/runs`, { headers: { authorization: 'Bearer some-token', 'x-request-id': 'fault-1' } });
      expect(res.status).toBe(500);
      expect(res.headers.get('x-request-id')).toBe('fault-1');
      expect(await res.json()).toEqual({ detail: 'internal error (request fault-1)' });
    } finally {
      await broken.close();
      await brokenDb.destroy();
    }
  });
});
