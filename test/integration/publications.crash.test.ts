import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, registerUser, spawnAtelierWorker, startHarness } from '../support/harness';

/**
 * A real `atelier worker` process killed with SIGKILL while its webhook attempt waits on the consumer: the
 * message is not lost. The attempt's start-to-close timeout expires, Temporal runs it again on a new worker,
 * and the consumer gets the same webhook-id, signed afresh.
 */
let h: Harness;
let owner: TestUser;
let server: Server;
const workers: ChildProcess[] = [];
const secretsKey = randomBytes(32);
const received: Array<{ at: number; headers: IncomingHttpHeaders; raw: string }> = [];

function spawnWorker(): ChildProcess {
  const child = spawnAtelierWorker(h, 0, { ATELIER_SECRETS_KEY: secretsKey.toString('base64'), ATELIER_EGRESS_ALLOW: '127.0.0.0/8' });
  workers.push(child);
  return child;
}

beforeAll(async () => {
  h = await startHarness({
    worker: false,
    secretsKey,
    webhookRetry: { initialIntervalMs: 200, maximumIntervalMs: 400, maximumAttempts: 5, attemptTimeoutMs: 3_000 },
  });
  owner = await registerUser(h);
  // The first request is left hanging (the worker dies waiting on it); later ones are answered 200.
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    received.push({ at: Date.now(), headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
    if (received.length === 1) return;
    res.writeHead(200).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
  server?.closeAllConnections();
  server?.close();
  await h?.stop();
});

describe('a worker killed mid-delivery', () => {
  it('loses no message: the attempt runs again on another worker with the same webhook-id', async () => {
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/revalidate`;
    const pub = await h.request('POST', '/v1/publications', {
      token: owner.token,
      body: {
        workspaceId: owner.workspaceId,
        slug: `crash-${randomBytes(3).toString('hex')}`,
        name: 'Crash',
        revalidateUrl: url,
        sectionPath: '/c',
      },
    });
    expect(pub.status).toBe(201);
    const doc = await h.request('POST', `/v1/publications/${pub.body.id}/documents`, {
      token: owner.token,
      body: { slug: 'post', title: 'Post', body: 'x', categories: ['a'] },
    });
    const first = spawnWorker();
    const published = await h.request('POST', `/v1/documents/${doc.body.id}/publish`, { token: owner.token });
    expect(published.status).toBe(200);

    const deadline = Date.now() + 90_000;
    while (received.length === 0) {
      if (Date.now() > deadline) throw new Error('the first attempt never arrived');
      await new Promise((r) => setTimeout(r, 50));
    }
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    spawnWorker();

    while (received.length < 2) {
      if (Date.now() > deadline) throw new Error('the message was not delivered after the crash');
      await new Promise((r) => setTimeout(r, 100));
    }
    const [a, b] = received;
    expect(a!.headers['webhook-id']).toBe(published.body.messageId);
    expect(b!.headers['webhook-id']).toBe(published.body.messageId);
    expect(b!.raw).toBe(a!.raw);
    const verified = new Webhook(pub.body.secret).verify(b!.raw, {
      'webhook-id': String(b!.headers['webhook-id']),
      'webhook-timestamp': String(b!.headers['webhook-timestamp']),
      'webhook-signature': String(b!.headers['webhook-signature']),
    });
    expect(verified).toEqual({ publication: pub.body.slug, slug: 'post', action: 'publish', categories: ['a'] });

    let message: { status: string } | undefined;
    while (message?.status !== 'delivered') {
      if (Date.now() > deadline) throw new Error(`message still ${message?.status}`);
      await new Promise((r) => setTimeout(r, 100));
      message = await h.db.selectFrom('webhook_messages').select('status').where('id', '=', published.body.messageId).executeTakeFirst();
    }
    const deliveries = await h.request('GET', `/v1/publications/${pub.body.id}/deliveries`, { token: owner.token });
    // The killed attempt never reported; the one that delivered carries Temporal's attempt number.
    expect(deliveries.body.items).toHaveLength(1);
    expect(deliveries.body.items[0]).toMatchObject({ outcome: 'delivered', statusCode: 200, messageId: published.body.messageId });
    expect(deliveries.body.items[0].attempt).toBeGreaterThanOrEqual(2);
  }, 180_000);
});
