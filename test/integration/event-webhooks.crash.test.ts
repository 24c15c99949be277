import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, registerUser, spawnAtelierWorker, startHarness, waitForRun } from '../support/harness';

/**
 * A real `atelier worker` process runs a real run and is killed with SIGKILL while its run.completed delivery
 * waits on the integrator's receiver: the event is not lost. The attempt's start-to-close timeout expires,
 * Temporal runs it again on a new worker, and the receiver gets the same webhook-id, signed afresh.
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

describe('a worker killed mid-delivery of an event', () => {
  it('loses no event: the attempt runs again on another worker with the same webhook-id', async () => {
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
    const ep = await h.request('POST', '/v1/webhook-endpoints', { token: owner.token, body: { url, events: ['run.completed'] } });
    expect(ep.status, JSON.stringify(ep.body)).toBe(201);

    const first = spawnWorker();
    const created = await h.request('POST', '/v1/runs', {
      token: owner.token,
      body: { templateId: 'plan-research-report', intake: { topic: 'crash-proof beekeeping' } },
    });
    expect(created.status).toBe(201);
    const run = await waitForRun(h, owner.token, created.body.id, undefined, 120_000);
    expect(run.status).toBe('completed');

    const deadline = Date.now() + 180_000;
    while (received.length === 0) {
      if (Date.now() > deadline) throw new Error('the first attempt never arrived');
      await new Promise((r) => setTimeout(r, 50));
    }
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    spawnWorker();

    while (received.length < 2) {
      if (Date.now() > deadline) throw new Error('the event was not delivered after the crash');
      await new Promise((r) => setTimeout(r, 100));
    }
    const [a, b] = received;
    expect(b!.headers['webhook-id']).toBe(a!.headers['webhook-id']);
    expect(b!.raw).toBe(a!.raw);
    const verified = new Webhook(ep.body.secret).verify(b!.raw, {
      'webhook-id': String(b!.headers['webhook-id']),
      'webhook-timestamp': String(b!.headers['webhook-timestamp']),
      'webhook-signature': String(b!.headers['webhook-signature']),
    });
    expect(verified).toMatchObject({ type: 'run.completed', data: { id: run.id, status: 'completed' } });

    let delivered: any;
    while (delivered?.status !== 'delivered') {
      if (Date.now() > deadline) throw new Error(`message still ${delivered?.status}`);
      await new Promise((r) => setTimeout(r, 100));
      delivered = (await h.request('GET', `/v1/webhook-endpoints/${ep.body.id}/deliveries`, { token: owner.token })).body.items[0];
    }
    expect(delivered.messageId).toBe(a!.headers['webhook-id']);
    // The killed attempt never reported; the one that delivered carries Temporal's attempt number.
    expect(delivered.attempts).toHaveLength(1);
    expect(delivered.attempts[0]).toMatchObject({ outcome: 'delivered', statusCode: 200 });
    expect(delivered.attempts[0].attempt).toBeGreaterThanOrEqual(2);
  }, 360_000);
});
