import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setOrderStatus } from '@atelier/db';
import { type Harness, type TestUser, registerUser, startHarness, waitForOrder, waitForRun } from '../support/harness';

/**
 * Event webhooks for integrators end to end: a real gateway, worker and Temporal, real runs and orders, and
 * loopback HTTP receivers standing in for integrators. Every delivery is verified with the `standardwebhooks`
 * package, never the project's own signing code. Each test works in a workspace of its own, so the events of
 * one test's runs never reach another test's endpoints.
 */
let h: Harness;
const servers: Server[] = [];

interface Received {
  at: number;
  headers: IncomingHttpHeaders;
  raw: string;
  json: { type: string; timestamp: string; data: Record<string, any> };
}

/** A loopback receiver answering each request with the next scripted status (the last one repeats). */
async function receiver(script: number[] = [200]) {
  const received: Received[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    received.push({ at: Date.now(), headers: req.headers, raw, json: JSON.parse(raw) });
    res.writeHead(script[Math.min(received.length - 1, script.length - 1)]!, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks/atelier`, received };
}

const as = (user: TestUser) => ({
  get: (path: string) => h.request('GET', path, { token: user.token }),
  post: (path: string, body?: unknown) => h.request('POST', path, { token: user.token, body: body ?? {} }),
  patch: (path: string, body: unknown) => h.request('PATCH', path, { token: user.token, body }),
  delete: (path: string) => h.request('DELETE', path, { token: user.token }),
});

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const headersOf = (r: Received) => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
});
const verifyWith = (secret: string, r: Received) => new Webhook(secret).verify(r.raw, headersOf(r));

interface Endpoint {
  id: string;
  secret: string;
  [k: string]: unknown;
}

async function createEndpoint(user: TestUser, url: string, events: string[], extra: Record<string, unknown> = {}): Promise<Endpoint> {
  const res = await as(user).post('/v1/webhook-endpoints', { workspaceId: user.workspaceId, url, events, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function finishedRun(user: TestUser, templateId: string, intake: Record<string, unknown>) {
  const created = await as(user).post('/v1/runs', { templateId, intake });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return waitForRun(h, user.token, created.body.id, undefined, 90_000);
}

const completedRun = (user: TestUser, topic = 'urban beekeeping') => finishedRun(user, 'plan-research-report', { topic });
const failedRun = (user: TestUser) => finishedRun(user, 'generate-product-shot', { product: 'a hunting rifle with ammunition' });
const reviewRun = (user: TestUser) => finishedRun(user, 'generate-product-shot', { product: 'a ceramic teapot' });

const settle = (ms = 1_500) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  h = await startHarness({
    webhookRetry: { initialIntervalMs: 200, backoffCoefficient: 2, maximumIntervalMs: 400, maximumAttempts: 5, attemptTimeoutMs: 10_000 },
  });
});

afterAll(async () => {
  for (const s of servers) s.close();
  await h?.stop();
});

describe('webhook endpoints', () => {
  it('shows the secret once on create and rotate, never in get, list or patch, and stores it only sealed', async () => {
    const owner = await registerUser(h, 'Owner');
    const { url } = await receiver();
    const created = await createEndpoint(owner, url, ['run.completed', 'run.completed', 'order.attention'], { description: 'CRM sync' });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created).toMatchObject({
      id: expect.stringMatching(/^ep-[0-9a-f]{16}$/),
      workspaceId: owner.workspaceId,
      url,
      description: 'CRM sync',
      events: ['run.completed', 'order.attention'],
      enabled: true,
      deliveryHealth: { status: 'unknown', lastAttemptAt: null, lastStatusCode: null, consecutiveFailures: 0 },
    });

    const got = await as(owner).get(`/v1/webhook-endpoints/${created.id}`);
    const list = await as(owner).get('/v1/webhook-endpoints');
    const patched = await as(owner).patch(`/v1/webhook-endpoints/${created.id}`, {
      events: ['*'],
      description: null,
      enabled: false,
    });
    expect([got.status, list.status, patched.status]).toEqual([200, 200, 200]);
    expect(list.body).toMatchObject({ total: 1, items: [{ id: created.id }] });
    expect(patched.body).toMatchObject({ events: ['*'], description: null, enabled: false, url });
    for (const body of [got.body, list.body, patched.body]) {
      expect(JSON.stringify(body)).not.toContain('"secret"');
      expect(JSON.stringify(body)).not.toContain(created.secret.slice(6, 20));
    }
    const row = await h.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.secret_sealed).not.toContain(created.secret.slice(6, 20));

    const rotated = await as(owner).post(`/v1/webhook-endpoints/${created.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.secret);
    expect(Date.parse(rotated.body.secretRotatedAt)).toBeGreaterThanOrEqual(Date.parse(String(created.secretRotatedAt)));

    const bad = await as(owner).post('/v1/webhook-endpoints', { url, events: ['run.started'] });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.detail)).toContain('events');
    expect((await as(owner).post('/v1/webhook-endpoints', { url: 'ftp://example.com/x', events: ['*'] })).status).toBe(422);

    expect((await as(owner).delete(`/v1/webhook-endpoints/${created.id}`)).status).toBe(204);
    expect((await as(owner).get(`/v1/webhook-endpoints/${created.id}`)).status).toBe(404);
    expect((await as(owner).delete(`/v1/webhook-endpoints/${created.id}`)).status).toBe(404);
  });

  it("lets members read and refuses them changes (403 admin_required); another workspace's user gets 404 everywhere", async () => {
    const owner = await registerUser(h, 'Owner');
    const member = await registerUser(h, 'Member');
    const stranger = await registerUser(h, 'Stranger');
    expect((await as(owner).post(`/v1/workspaces/${owner.workspaceId}/members`, { email: member.email, role: 'member' })).status).toBe(201);
    const { url } = await receiver();
    const ep = await createEndpoint(owner, url, ['run.completed']);
    const path = `/v1/webhook-endpoints/${ep.id}`;

    expect((await as(member).get(path)).status).toBe(200);
    expect((await as(member).get(`${path}/deliveries`)).status).toBe(200);
    expect((await as(member).get(`/v1/webhook-endpoints?workspaceId=${owner.workspaceId}`)).body.total).toBe(1);
    const refusals = [
      await as(member).post('/v1/webhook-endpoints', { workspaceId: owner.workspaceId, url, events: ['*'] }),
      await as(member).patch(path, { enabled: false }),
      await as(member).post(`${path}/rotate-secret`),
      await as(member).post(`${path}/test`),
      await as(member).delete(path),
    ];
    for (const r of refusals) {
      expect(r.status, JSON.stringify(r.body)).toBe(403);
      expect(r.body.detail.code).toBe('admin_required');
    }

    const outside = [
      await as(stranger).get(path),
      await as(stranger).get(`${path}/deliveries`),
      await as(stranger).patch(path, { url: 'http://127.0.0.1:9/theirs' }),
      await as(stranger).post(`${path}/rotate-secret`),
      await as(stranger).post(`${path}/test`),
      await as(stranger).delete(path),
      await as(stranger).get(`/v1/webhook-endpoints?workspaceId=${owner.workspaceId}`),
      await as(stranger).post('/v1/webhook-endpoints', { workspaceId: owner.workspaceId, url, events: ['*'] }),
    ];
    for (const r of outside) expect(r.status, JSON.stringify(r.body)).toBe(404);
    expect((await as(stranger).get('/v1/webhook-endpoints')).body).toEqual({ items: [], total: 0 });
    // Nothing the stranger tried changed the endpoint.
    expect((await as(owner).get(path)).body).toMatchObject({ url, enabled: true });
  });

  it('delivers a verifiable run.completed for a real run to the endpoint that subscribed to it, and nothing it did not subscribe to', async () => {
    const owner = await registerUser(h, 'Integrator');
    const onCompleted = await receiver();
    const onFailed = await receiver();
    const onEverything = await receiver();
    const completedEp = await createEndpoint(owner, onCompleted.url, ['run.completed']);
    const failedEp = await createEndpoint(owner, onFailed.url, ['run.failed']);
    const allEp = await createEndpoint(owner, onEverything.url, ['*']);

    const run = await completedRun(owner);
    expect(run.status).toBe('completed');
    const got = await until('the run.completed delivery', () => onCompleted.received[0]);
    const payload = verifyWith(completedEp.secret, got) as Received['json'];
    expect(payload).toEqual({
      type: 'run.completed',
      timestamp: expect.any(String),
      data: expect.objectContaining({
        object: 'run',
        id: run.id,
        status: 'completed',
        workspaceId: owner.workspaceId,
        templateId: 'plan-research-report',
        artifactId: run.artifactId,
        errorCode: null,
        url: `/v1/runs/${run.id}`,
      }),
    });
    expect(got.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(got.headers['content-type']).toBe('application/json');
    expect(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    // The link in the payload reads the full run with the integrator's own credentials.
    expect((await as(owner).get(payload.data.url)).body).toMatchObject({ id: run.id, status: 'completed' });
    // Another endpoint's secret does not verify it.
    expect(() => verifyWith(failedEp.secret, got)).toThrow(WebhookVerificationError);

    const failed = await failedRun(owner);
    expect(failed.status).toBe('failed');
    const failure = await until('the run.failed delivery', () => onFailed.received[0]);
    expect(verifyWith(failedEp.secret, failure)).toMatchObject({
      type: 'run.failed',
      data: { id: failed.id, status: 'failed', errorCode: 'gate_rejected', error: expect.stringContaining('Safety') },
    });

    const review = await reviewRun(owner);
    expect(review.status).toBe('review');
    await until('three events at the * endpoint', () => (onEverything.received.length >= 3 ? true : undefined));
    await settle();
    expect(onEverything.received.map((r) => [r.json.type, r.json.data.id]).sort()).toEqual(
      [
        ['run.completed', run.id],
        ['run.failed', failed.id],
        ['run.review', review.id],
      ].sort(),
    );
    for (const r of onEverything.received) verifyWith(allEp.secret, r);
    expect(onEverything.received.find((r) => r.json.type === 'run.review')!.json.data.reviewGate).toMatchObject({ id: expect.any(String) });

    // Approving the run in the review queue completes it, and that is announced like any completion.
    const decided = await as(owner).post(`/v1/queue/${review.id}/decision`, {
      decision: 'approve',
      gateId: review.reviewGate.id,
      patch: { usage: 'web' },
    });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    const approved = await until('run.completed for the approved run', () =>
      onCompleted.received.find((r) => r.json.data.id === review.id),
    );
    expect(verifyWith(completedEp.secret, approved)).toMatchObject({ type: 'run.completed', data: { id: review.id, status: 'completed' } });
    onCompleted.received.splice(onCompleted.received.indexOf(approved), 1);
    await until('the approval at the * endpoint', () => (onEverything.received.length >= 4 ? true : undefined));

    // Each endpoint got only what it subscribed to: one event each, never the others'.
    expect(onCompleted.received.map((r) => r.json.type)).toEqual(['run.completed']);
    expect(onFailed.received.map((r) => r.json.type)).toEqual(['run.failed']);
    // One message per (event, endpoint): the same event at two endpoints has two webhook-ids.
    const atAll = onEverything.received.find((r) => r.json.data.id === run.id)!;
    expect(atAll.headers['webhook-id']).not.toBe(got.headers['webhook-id']);
  });

  it('retries a receiver that answers 500 until it recovers, with the same webhook-id and body, and lists every attempt', async () => {
    const owner = await registerUser(h, 'Flaky');
    const flaky = await receiver([500, 500, 200]);
    const ep = await createEndpoint(owner, flaky.url, ['run.completed']);
    const run = await completedRun(owner, 'tidal energy');
    const attempts = await until('three attempts', () => (flaky.received.length >= 3 ? flaky.received : undefined));
    const ids = new Set(attempts.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
    for (const r of attempts) {
      expect(r.raw).toBe(attempts[0]!.raw);
      expect(verifyWith(ep.secret, r)).toMatchObject({ type: 'run.completed', data: { id: run.id } });
    }
    // Each attempt is signed afresh (its own timestamp or at least its own signature input).
    expect(Number(attempts[2]!.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(Number(attempts[0]!.headers['webhook-timestamp']));

    const deliveries = await until('the message delivered', async () => {
      const d = await as(owner).get(`/v1/webhook-endpoints/${ep.id}/deliveries`);
      return d.body.items[0]?.status === 'delivered' ? d.body : undefined;
    });
    expect(deliveries.total).toBe(1);
    const [message] = deliveries.items;
    expect(message).toMatchObject({
      messageId: [...ids][0],
      type: 'run.completed',
      status: 'delivered',
      attemptCount: 3,
      lastError: null,
      settledAt: expect.any(String),
      payload: { type: 'run.completed', data: { id: run.id } },
    });
    expect(
      message.attempts.map((a: { attempt: number; statusCode: number; outcome: string }) => [a.attempt, a.statusCode, a.outcome]),
    ).toEqual([
      [1, 500, 'retrying'],
      [2, 500, 'retrying'],
      [3, 200, 'delivered'],
    ]);
    expect(message.attempts[0].error).toContain('500');
    const health = (await as(owner).get(`/v1/webhook-endpoints/${ep.id}`)).body.deliveryHealth;
    expect(health).toMatchObject({ status: 'healthy', lastStatusCode: 200, consecutiveFailures: 0 });
    await settle(800);
    expect(flaky.received).toHaveLength(3);

    // Filtering by status.
    expect((await as(owner).get(`/v1/webhook-endpoints/${ep.id}/deliveries?status=failed`)).body).toEqual({ items: [], total: 0 });
  });

  it('reports a receiver that keeps failing as failing, and the message as failed once its attempts are spent', async () => {
    const owner = await registerUser(h, 'Down');
    const down = await receiver([503]);
    const ep = await createEndpoint(owner, down.url, ['run.completed']);
    await completedRun(owner, 'moss');
    const d = await until('five attempts, the last final', async () => {
      const res = await as(owner).get(`/v1/webhook-endpoints/${ep.id}/deliveries?status=failed`);
      return res.body.total === 1 ? res.body : undefined;
    });
    expect(d.items[0].attempts.map((a: { outcome: string }) => a.outcome)).toEqual([
      'retrying',
      'retrying',
      'retrying',
      'retrying',
      'failed',
    ]);
    expect(d.items[0].lastError).toContain('503');
    expect((await as(owner).get(`/v1/webhook-endpoints/${ep.id}`)).body.deliveryHealth).toMatchObject({
      status: 'failing',
      lastStatusCode: 503,
      consecutiveFailures: 5,
    });
  });

  it('sends a test event through the engine, signed like any other, listed under deliveries', async () => {
    const owner = await registerUser(h, 'Tester');
    const consumer = await receiver();
    const ep = await createEndpoint(owner, consumer.url, ['order.completed']);
    const sent = await as(owner).post(`/v1/webhook-endpoints/${ep.id}/test`);
    expect(sent.status).toBe(202);
    expect(sent.body).toEqual({ messageId: expect.stringMatching(/^msg_[0-9a-f]{32}$/), type: 'endpoint.test', status: 'pending' });
    const got = await until('the test delivery', () => consumer.received[0]);
    expect(got.headers['webhook-id']).toBe(sent.body.messageId);
    expect(verifyWith(ep.secret, got)).toEqual({
      type: 'endpoint.test',
      timestamp: expect.any(String),
      data: { object: 'webhook_endpoint', id: ep.id, workspaceId: owner.workspaceId, url: `/v1/webhook-endpoints/${ep.id}` },
    });
    const d = await until('the test delivered', async () => {
      const res = await as(owner).get(`/v1/webhook-endpoints/${ep.id}/deliveries`);
      return res.body.items[0]?.status === 'delivered' ? res.body : undefined;
    });
    expect(d.items[0]).toMatchObject({
      messageId: sent.body.messageId,
      type: 'endpoint.test',
      attempts: [{ attempt: 1, statusCode: 200 }],
    });
    expect((await as(owner).get(`/v1/webhook-endpoints/${ep.id}`)).body.deliveryHealth.status).toBe('healthy');
  });

  it('signs with the new secret at once after rotation: the old one no longer verifies new sends', async () => {
    const owner = await registerUser(h, 'Rotator');
    const consumer = await receiver();
    const ep = await createEndpoint(owner, consumer.url, ['run.completed']);
    await as(owner).post(`/v1/webhook-endpoints/${ep.id}/test`);
    const before = await until('the first test', () => consumer.received[0]);
    expect(verifyWith(ep.secret, before)).toMatchObject({ type: 'endpoint.test' });

    const rotated = await as(owner).post(`/v1/webhook-endpoints/${ep.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    await as(owner).post(`/v1/webhook-endpoints/${ep.id}/test`);
    const run = await completedRun(owner, 'lichens');
    const after = await until('two sends after rotation', () => (consumer.received.length >= 3 ? consumer.received.slice(1) : undefined));
    expect(after.map((r) => r.json.type).sort()).toEqual(['endpoint.test', 'run.completed']);
    for (const r of after) {
      expect(verifyWith(rotated.body.secret, r)).toBeTruthy();
      expect(() => verifyWith(ep.secret, r)).toThrow(WebhookVerificationError);
    }
    expect(after.find((r) => r.json.type === 'run.completed')!.json.data.id).toBe(run.id);
  });

  it('sends a disabled endpoint no events, and sends them again once it is enabled', async () => {
    const owner = await registerUser(h, 'Switcher');
    const off = await receiver();
    const control = await receiver();
    const ep = await createEndpoint(owner, off.url, ['run.completed']);
    await createEndpoint(owner, control.url, ['run.completed']);
    expect((await as(owner).patch(`/v1/webhook-endpoints/${ep.id}`, { enabled: false })).body.enabled).toBe(false);

    const unseen = await completedRun(owner, 'ferns');
    await until('the control endpoint got the run', () => control.received.find((r) => r.json.data.id === unseen.id));
    await settle();
    expect(off.received).toEqual([]);
    expect((await as(owner).get(`/v1/webhook-endpoints/${ep.id}/deliveries`)).body.total).toBe(0);

    expect((await as(owner).patch(`/v1/webhook-endpoints/${ep.id}`, { enabled: true })).body.enabled).toBe(true);
    const seen = await completedRun(owner, 'mosses');
    const got = await until('the run after re-enabling', () => off.received[0]);
    expect(got.json.data.id).toBe(seen.id);
    await settle();
    expect(off.received).toHaveLength(1);
  });

  it('announces a real order completing, and records one message for an order status set twice', async () => {
    const owner = await registerUser(h, 'Orders');
    const consumer = await receiver();
    const ep = await createEndpoint(owner, consumer.url, ['order.completed', 'order.attention']);
    const planned = await as(owner).post('/v1/orders', {
      workflowId: 'plan-research-report',
      intakeBase: { depth: 'brief' },
      variationSpec: { resolver: 'list', params: { items: [{ topic: 'owls' }, { topic: 'larks' }] } },
    });
    expect(planned.status, JSON.stringify(planned.body)).toBe(201);
    expect((await as(owner).post(`/v1/orders/${planned.body.id}/start`)).status).toBe(200);
    const order = await waitForOrder(h, owner.token, planned.body.id);
    expect(order.status).toBe('completed');
    const got = await until('the order.completed delivery', () => consumer.received[0]);
    expect(verifyWith(ep.secret, got)).toMatchObject({
      type: 'order.completed',
      data: { object: 'order', id: order.id, status: 'completed', targetCount: 2, url: `/v1/orders/${order.id}` },
    });

    // The same status written twice (a settling activity retried after its commit) is one event, one message.
    const other = await as(owner).post('/v1/orders', {
      workflowId: 'plan-research-report',
      variationSpec: { resolver: 'list', params: { items: [{ topic: 'wrens' }] } },
    });
    await setOrderStatus(h.db, other.body.id, 'attention');
    await setOrderStatus(h.db, other.body.id, 'attention');
    const attention = await until('the order.attention delivery', () => consumer.received.find((r) => r.json.type === 'order.attention'));
    expect(attention.json.data).toMatchObject({ id: other.body.id, status: 'attention' });
    await settle();
    expect(consumer.received.filter((r) => r.json.type === 'order.attention')).toHaveLength(1);
    const messages = await h.db
      .selectFrom('webhook_messages')
      .select(['id', 'event_type'])
      .where('target_id', '=', ep.id)
      .where('event_type', '=', 'order.attention')
      .execute();
    expect(messages).toEqual([{ id: attention.headers['webhook-id'], event_type: 'order.attention' }]);
  });
});
