import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRevalidateConsumer } from '../../examples/revalidate-consumer/server.mjs';
import { type Harness, type TestUser, registerUser, startHarness } from '../support/harness';

/**
 * Publications end to end: a real gateway, worker and Temporal, and real loopback HTTP receivers standing
 * in for consumer sites. Signatures are checked with the `standardwebhooks` package (never the project's
 * own signing code), and the example consumer (examples/revalidate-consumer) runs in-process.
 */
let h: Harness;
let owner: TestUser;
let member: TestUser;
let stranger: TestUser;
const servers: Server[] = [];

interface Received {
  at: number;
  headers: IncomingHttpHeaders;
  raw: string;
}

/** A loopback consumer answering each request with the next scripted answer (the last one repeats). */
async function receiver(
  script: Array<
    { status: number; headers?: Record<string, string> } | ((url: string) => { status: number; headers?: Record<string, string> })
  >,
) {
  const received: Received[] = [];
  let url = '';
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    received.push({ at: Date.now(), headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
    const step = script[Math.min(received.length - 1, script.length - 1)]!;
    const { status, headers } = typeof step === 'function' ? step(url) : step;
    res.writeHead(status, { 'content-type': 'application/json', ...(headers ?? {}) });
    res.end(JSON.stringify({ ok: status < 300 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/revalidate`;
  return { url, received };
}

const as = (user: TestUser) => ({
  get: (path: string) => h.request('GET', path, { token: user.token }),
  post: (path: string, body?: unknown) => h.request('POST', path, { token: user.token, body: body ?? {} }),
  patch: (path: string, body: unknown) => h.request('PATCH', path, { token: user.token, body }),
});

const slugOf = (prefix: string) => `${prefix}-${randomBytes(3).toString('hex')}`;

async function createPublication(url: string, extra: Record<string, unknown> = {}) {
  const res = await as(owner).post('/v1/publications', {
    workspaceId: owner.workspaceId,
    slug: slugOf('journal'),
    name: 'Journal',
    revalidateUrl: url,
    sectionPath: '/blog',
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; slug: string; secret: string; [k: string]: unknown };
}

async function createDocument(publicationId: string, slug = slugOf('post'), categories = ['news', 'design']) {
  const res = await as(owner).post(`/v1/publications/${publicationId}/documents`, {
    slug,
    title: `Title ${slug}`,
    body: 'Hello',
    categories,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; slug: string };
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const verifyWith = (secret: string, r: Received) =>
  new Webhook(secret).verify(r.raw, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  });

beforeAll(async () => {
  h = await startHarness({
    webhookRetry: { initialIntervalMs: 200, backoffCoefficient: 2, maximumIntervalMs: 400, maximumAttempts: 4, attemptTimeoutMs: 10_000 },
  });
  owner = await registerUser(h, 'Owner');
  member = await registerUser(h, 'Member');
  stranger = await registerUser(h, 'Stranger');
  expect((await as(owner).post(`/v1/workspaces/${owner.workspaceId}/members`, { email: member.email, role: 'member' })).status).toBe(201);
});

afterAll(async () => {
  for (const s of servers) s.close();
  await h?.stop();
});

describe('publications', () => {
  it('shows the secret once on create, never in get, list or patch, and stores it only sealed', async () => {
    const { url } = await receiver([{ status: 200 }]);
    const pub = await createPublication(url);
    expect(pub.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(pub.secret.slice(6), 'base64')).toHaveLength(32);
    expect(pub.deliveryHealth).toEqual({ status: 'unknown', lastAttemptAt: null, lastStatusCode: null, consecutiveFailures: 0 });
    expect(pub).toMatchObject({ workspaceId: owner.workspaceId, revalidateUrl: url, sectionPath: '/blog', name: 'Journal' });

    const got = await as(owner).get(`/v1/publications/${pub.id}`);
    const list = await as(owner).get(`/v1/publications?workspaceId=${owner.workspaceId}`);
    const patched = await as(owner).patch(`/v1/publications/${pub.id}`, { name: 'The Journal', sectionPath: '/journal' });
    expect([got.status, list.status, patched.status]).toEqual([200, 200, 200]);
    expect(patched.body).toMatchObject({ name: 'The Journal', sectionPath: '/journal', slug: pub.slug });
    expect(list.body.items.map((p: { id: string }) => p.id)).toContain(pub.id);
    for (const body of [got.body, list.body, patched.body]) {
      expect(JSON.stringify(body)).not.toContain(pub.secret.slice(6, 20));
      expect(JSON.stringify(body)).not.toContain('"secret"');
    }
    const row = await h.db.selectFrom('publications').selectAll().where('id', '=', pub.id).executeTakeFirstOrThrow();
    expect(row.secret_sealed).not.toContain(pub.secret.slice(6, 20));
    expect(row.secret_sealed).not.toContain(Buffer.from(pub.secret.slice(6), 'base64').toString('hex').slice(0, 16));

    const taken = await as(owner).post('/v1/publications', {
      workspaceId: owner.workspaceId,
      slug: pub.slug,
      name: 'Again',
      revalidateUrl: url,
      sectionPath: '/x',
    });
    expect(taken.status).toBe(409);
    expect(taken.body.detail.code).toBe('publication_slug_taken');
  });

  it('lets members read and refuses them changes (403 admin_required); other workspaces get 404', async () => {
    const { url } = await receiver([{ status: 200 }]);
    const pub = await createPublication(url);
    const doc = await createDocument(pub.id);
    expect((await as(member).get(`/v1/publications/${pub.id}`)).status).toBe(200);
    expect((await as(member).get(`/v1/publications/${pub.id}/deliveries`)).status).toBe(200);
    const refusals = [
      await as(member).post('/v1/publications', {
        workspaceId: owner.workspaceId,
        slug: slugOf('m'),
        name: 'M',
        revalidateUrl: url,
        sectionPath: '/m',
      }),
      await as(member).patch(`/v1/publications/${pub.id}`, { name: 'Mine' }),
      await as(member).post(`/v1/publications/${pub.id}/rotate-secret`),
      await as(member).post(`/v1/publications/${pub.id}/verify`),
      await as(member).post(`/v1/publications/${pub.id}/documents`, { slug: 'x', title: 'x', body: 'x', categories: [] }),
      await as(member).post(`/v1/documents/${doc.id}/publish`),
      await as(member).post(`/v1/documents/${doc.id}/unpublish`),
    ];
    for (const r of refusals) {
      expect(r.status, JSON.stringify(r.body)).toBe(403);
      expect(r.body.detail.code).toBe('admin_required');
    }
    const outside = [
      await as(stranger).get(`/v1/publications/${pub.id}`),
      await as(stranger).get(`/v1/publications/${pub.id}/deliveries`),
      await as(stranger).patch(`/v1/publications/${pub.id}`, { name: 'Theirs' }),
      await as(stranger).post(`/v1/publications/${pub.id}/rotate-secret`),
      await as(stranger).post(`/v1/publications/${pub.id}/verify`),
      await as(stranger).post(`/v1/publications/${pub.id}/documents`, { slug: 'x', title: 'x', body: 'x', categories: [] }),
      await as(stranger).post(`/v1/documents/${doc.id}/publish`),
      await as(stranger).get(`/v1/publications?workspaceId=${owner.workspaceId}`),
      await as(stranger).post('/v1/publications', {
        workspaceId: owner.workspaceId,
        slug: slugOf('s'),
        name: 'S',
        revalidateUrl: url,
        sectionPath: '/s',
      }),
    ];
    for (const r of outside) expect(r.status, JSON.stringify(r.body)).toBe(404);
    expect((await as(stranger).get('/v1/publications')).body.items).toEqual([]);
  });

  it('lists only published documents publicly, without a credential; an unknown slug is 404', async () => {
    const { url } = await receiver([{ status: 200 }]);
    const pub = await createPublication(url);
    const shown = await createDocument(pub.id, 'shown');
    await createDocument(pub.id, 'draft-only');
    const gone = await createDocument(pub.id, 'gone');
    expect((await as(owner).post(`/v1/documents/${shown.id}/publish`)).status).toBe(200);
    expect((await as(owner).post(`/v1/documents/${gone.id}/publish`)).status).toBe(200);
    expect((await as(owner).post(`/v1/documents/${gone.id}/unpublish`)).status).toBe(200);
    const again = await as(owner).post(`/v1/documents/${gone.id}/unpublish`);
    expect(again.status).toBe(409);
    expect(again.body.detail.code).toBe('invalid_transition');

    const res = await h.request('GET', `/v1/publications/public/${pub.slug}/articles`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(1);
    expect(res.body.items).toEqual([
      { slug: 'shown', title: 'Title shown', body: 'Hello', categories: ['news', 'design'], publishedAt: expect.any(String) },
    ]);
    const paged = await h.request('GET', `/v1/publications/public/${pub.slug}/articles?limit=1&offset=1`);
    expect(paged.body).toEqual({ items: [], total: 1 });
    expect((await h.request('GET', `/v1/publications/public/no-such-${randomBytes(3).toString('hex')}/articles`)).status).toBe(404);
  });

  it('delivers a signed webhook on publish that standardwebhooks accepts, with the exact body', async () => {
    const consumer = await receiver([{ status: 200 }]);
    const pub = await createPublication(consumer.url);
    const doc = await createDocument(pub.id, 'first-post', ['news']);
    const published = await as(owner).post(`/v1/documents/${doc.id}/publish`);
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ status: 'published', messageId: expect.stringMatching(/^msg_[0-9a-f]{32}$/) });

    const got = await until('the delivery', () => consumer.received[0]);
    expect(got.headers['webhook-id']).toBe(published.body.messageId);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.raw).toBe(JSON.stringify({ publication: pub.slug, slug: 'first-post', action: 'publish', categories: ['news'] }));
    expect(verifyWith(pub.secret, got)).toEqual({ publication: pub.slug, slug: 'first-post', action: 'publish', categories: ['news'] });
    expect(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);

    const health = await until('healthy', async () => {
      const p = await as(owner).get(`/v1/publications/${pub.id}`);
      return p.body.deliveryHealth.status === 'healthy' ? p.body.deliveryHealth : undefined;
    });
    expect(health).toMatchObject({ lastStatusCode: 200, consecutiveFailures: 0, lastAttemptAt: expect.any(String) });

    // Unpublish sends its own message: another id, action unpublish.
    const unpublished = await as(owner).post(`/v1/documents/${doc.id}/unpublish`);
    expect(unpublished.body.messageId).not.toBe(published.body.messageId);
    const second = await until('the unpublish delivery', () => consumer.received[1]);
    expect(verifyWith(pub.secret, second)).toEqual({
      publication: pub.slug,
      slug: 'first-post',
      action: 'unpublish',
      categories: ['news'],
    });
    const deliveries = await until('two attempts listed', async () => {
      const d = await as(owner).get(`/v1/publications/${pub.id}/deliveries`);
      // The page and its total are two statements: an attempt written between them shows in one only.
      return d.body.total === 2 && d.body.items.length === 2 ? d.body : undefined;
    });
    expect(deliveries.items.map((a: { action: string; outcome: string }) => [a.action, a.outcome])).toEqual([
      ['unpublish', 'delivered'],
      ['publish', 'delivered'],
    ]);
  });

  it('retries a 500 (honouring Retry-After) with the same webhook-id and a fresh timestamp, then is healthy', async () => {
    const consumer = await receiver([{ status: 500, headers: { 'retry-after': '1' } }, { status: 200 }]);
    const pub = await createPublication(consumer.url);
    const doc = await createDocument(pub.id);
    const published = await as(owner).post(`/v1/documents/${doc.id}/publish`);
    const [first, second] = await until('two attempts', () => (consumer.received.length >= 2 ? consumer.received : undefined));
    expect(first!.headers['webhook-id']).toBe(published.body.messageId);
    expect(second!.headers['webhook-id']).toBe(published.body.messageId);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950); // Retry-After: 1 over the 200 ms backoff
    expect(Number(second!.headers['webhook-timestamp'])).toBeGreaterThan(Number(first!.headers['webhook-timestamp']));
    expect(second!.headers['webhook-signature']).not.toBe(first!.headers['webhook-signature']);
    expect(second!.raw).toBe(first!.raw);
    for (const r of [first!, second!]) expect(verifyWith(pub.secret, r)).toMatchObject({ action: 'publish', slug: doc.slug });

    const p = await until('healthy', async () => {
      const res = await as(owner).get(`/v1/publications/${pub.id}`);
      return res.body.deliveryHealth.status === 'healthy' ? res.body : undefined;
    });
    expect(p.deliveryHealth).toMatchObject({ lastStatusCode: 200, consecutiveFailures: 0 });
    const d = await as(owner).get(`/v1/publications/${pub.id}/deliveries`);
    expect(
      d.body.items.map((a: { attempt: number; statusCode: number; outcome: string; messageId: string }) => [
        a.attempt,
        a.statusCode,
        a.outcome,
        a.messageId,
      ]),
    ).toEqual([
      [2, 200, 'delivered', published.body.messageId],
      [1, 500, 'retrying', published.body.messageId],
    ]);
    expect(consumer.received).toHaveLength(2);
  });

  it('reports an always-failing consumer as failing, with every attempt listed and consecutive failures counted', async () => {
    const consumer = await receiver([{ status: 503 }]);
    const pub = await createPublication(consumer.url);
    const doc = await createDocument(pub.id);
    const published = await as(owner).post(`/v1/documents/${doc.id}/publish`);
    const d = await until('four attempts, the last final', async () => {
      const res = await as(owner).get(`/v1/publications/${pub.id}/deliveries`);
      return res.body.total === 4 && res.body.items[0].outcome === 'failed' ? res.body : undefined;
    });
    expect(d.items.map((a: { attempt: number; outcome: string }) => [a.attempt, a.outcome])).toEqual([
      [4, 'failed'],
      [3, 'retrying'],
      [2, 'retrying'],
      [1, 'retrying'],
    ]);
    expect(new Set(d.items.map((a: { messageId: string }) => a.messageId))).toEqual(new Set([published.body.messageId]));
    expect(d.items[0].error).toContain('503');
    const p = await as(owner).get(`/v1/publications/${pub.id}`);
    expect(p.body.deliveryHealth).toMatchObject({ status: 'failing', lastStatusCode: 503, consecutiveFailures: 4 });
    const message = await h.db
      .selectFrom('webhook_messages')
      .selectAll()
      .where('id', '=', published.body.messageId)
      .executeTakeFirstOrThrow();
    expect(message).toMatchObject({ status: 'failed', attempts: 4 });
    await new Promise((r) => setTimeout(r, 800));
    expect(consumer.received).toHaveLength(4);

    // A 4xx other than 429 is final at once.
    const gone = await receiver([{ status: 410 }]);
    expect((await as(owner).patch(`/v1/publications/${pub.id}`, { revalidateUrl: gone.url })).status).toBe(200);
    await as(owner).post(`/v1/documents/${doc.id}/unpublish`);
    await until('the 410 attempt', async () =>
      (await as(owner).get(`/v1/publications/${pub.id}/deliveries`)).body.items[0].statusCode === 410 ? true : undefined,
    );
    await new Promise((r) => setTimeout(r, 800));
    expect(gone.received).toHaveLength(1);
    expect((await as(owner).get(`/v1/publications/${pub.id}`)).body.deliveryHealth).toMatchObject({
      status: 'failing',
      lastStatusCode: 410,
      consecutiveFailures: 5,
    });
  });

  it('verifies against the consumer: 200 when it answers 2xx, 422 naming the redirect for a 308', async () => {
    const ok = await receiver([{ status: 200 }]);
    const pub = await createPublication(ok.url);
    const verified = await as(owner).post(`/v1/publications/${pub.id}/verify`);
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body).toMatchObject({
      verified: true,
      consumerStatus: 200,
      deliveryHealth: { status: 'healthy', lastStatusCode: 200, consecutiveFailures: 0 },
    });
    expect(verifyWith(pub.secret, ok.received[0]!)).toEqual({ publication: pub.slug, slug: '', action: 'verify', categories: [] });

    const redirecting = await receiver([(url) => ({ status: 308, headers: { location: `${url}/` } })]);
    await as(owner).patch(`/v1/publications/${pub.id}`, { revalidateUrl: redirecting.url });
    const refused = await as(owner).post(`/v1/publications/${pub.id}/verify`);
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toMatchObject({ code: 'webhook_verify_failed', consumerStatus: 308, redirectedTo: `${redirecting.url}/` });
    expect(refused.body.detail.message).toContain('canonical');
    expect(refused.body.detail.message).toContain(`${redirecting.url}/`);
    expect(redirecting.received).toHaveLength(1); // never followed

    const p = await as(owner).get(`/v1/publications/${pub.id}`);
    expect(p.body.deliveryHealth).toMatchObject({ status: 'failing', lastStatusCode: 308, consecutiveFailures: 1 });
    const d = await as(owner).get(`/v1/publications/${pub.id}/deliveries`);
    expect(
      d.body.items.map((a: { action: string; statusCode: number; redirectedTo: string | null }) => [
        a.action,
        a.statusCode,
        a.redirectedTo,
      ]),
    ).toEqual([
      ['verify', 308, `${redirecting.url}/`],
      ['verify', 200, null],
    ]);

    // Nothing listening: no status, a 422 that says so.
    const closed = await receiver([{ status: 200 }]);
    servers.at(-1)!.close();
    await as(owner).patch(`/v1/publications/${pub.id}`, { revalidateUrl: closed.url });
    const unreachable = await as(owner).post(`/v1/publications/${pub.id}/verify`);
    expect(unreachable.status).toBe(422);
    expect(unreachable.body.detail).toMatchObject({ code: 'webhook_verify_failed', consumerStatus: null });
  });

  it('runs the example consumer: stale timestamps and unknown publications refused, publish revalidates the section and document paths', async () => {
    let skewSeconds = 0;
    const env: Record<string, string> = {};
    const example = await startRevalidateConsumer(0, {
      env,
      now: () => Date.now() / 1000 + skewSeconds,
      log: null,
      revalidate: () => undefined,
    });
    servers.push(example.server);
    const url = `http://127.0.0.1:${example.port}/api/revalidate`;
    const pub = await createPublication(url, { slug: slugOf('field-notes') });
    const verify = () => as(owner).post(`/v1/publications/${pub.id}/verify`);

    const unknown = await verify();
    expect(unknown.body.detail).toMatchObject({ code: 'webhook_verify_failed', consumerStatus: 400 });

    env[`REVALIDATE_SECRET_${pub.slug.toUpperCase().replace(/-/g, '_')}`] = pub.secret;
    env[`REVALIDATE_SECTION_${pub.slug.toUpperCase().replace(/-/g, '_')}`] = '/notes';
    skewSeconds = 301; // the consumer's clock is five minutes and a second ahead: every timestamp is stale
    const stale = await verify();
    expect(stale.status).toBe(422);
    expect(stale.body.detail).toMatchObject({ code: 'webhook_verify_failed', consumerStatus: 401 });
    expect(stale.body.detail.message).toContain('five-minute');

    skewSeconds = 0;
    expect((await verify()).status).toBe(200);
    const doc = await createDocument(pub.id, 'hello-world');
    await as(owner).post(`/v1/documents/${doc.id}/publish`);
    await until('revalidation', () => (example.revalidated.length >= 2 ? true : undefined));
    expect(example.revalidated.map((r) => [r.action, r.path])).toEqual([
      ['publish', '/notes'],
      ['publish', '/notes/hello-world'],
    ]);
  });

  it('rotates the secret: shown once, and only the new one verifies from then on', async () => {
    const consumer = await receiver([{ status: 200 }]);
    const pub = await createPublication(consumer.url);
    const rotated = await as(owner).post(`/v1/publications/${pub.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(pub.secret);
    expect(JSON.stringify((await as(owner).get(`/v1/publications/${pub.id}`)).body)).not.toContain('"secret"');

    const doc = await createDocument(pub.id);
    await as(owner).post(`/v1/documents/${doc.id}/publish`);
    const got = await until('the delivery', () => consumer.received[0]);
    expect(verifyWith(rotated.body.secret, got)).toMatchObject({ action: 'publish', slug: doc.slug });
    expect(() => verifyWith(pub.secret, got)).toThrow();
    expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(1);
  });
});
