import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll } from 'vitest';
import { type Harness, type TestUser, registerUser, spawnAtelierWorker, startHarness } from './harness';

export interface ReceivedRequest {
  at: number;
  headers: IncomingHttpHeaders;
  raw: string;
}

/**
 * The rig of a "worker killed mid-delivery" test: a harness without an in-process worker, `atelier worker`
 * processes spawned on demand (and killed at the end), and a loopback receiver that leaves its first
 * request hanging (the worker dies waiting on it) and answers 200 after that.
 */
export function webhookCrashRig() {
  const secretsKey = randomBytes(32);
  const workers: ChildProcess[] = [];
  const received: ReceivedRequest[] = [];
  let server: Server | undefined;
  const rig = {
    h: undefined as unknown as Harness,
    owner: undefined as unknown as TestUser,
    received,
    url: (path: string) => `http://127.0.0.1:${(server!.address() as { port: number }).port}${path}`,
    spawnWorker(): ChildProcess {
      const child = spawnAtelierWorker(rig.h, 0, {
        ATELIER_SECRETS_KEY: secretsKey.toString('base64'),
        ATELIER_EGRESS_ALLOW: '127.0.0.0/8',
      });
      workers.push(child);
      return child;
    },
    /** Waits for the first attempt, kills the worker sending it, starts another and waits for the retry. */
    async killMidDelivery(worker: ChildProcess, deadline: number): Promise<[ReceivedRequest, ReceivedRequest]> {
      while (received.length === 0) {
        if (Date.now() > deadline) throw new Error('the first attempt never arrived');
        await new Promise((r) => setTimeout(r, 50));
      }
      worker.kill('SIGKILL');
      await new Promise((r) => worker.once('exit', r));
      rig.spawnWorker();
      while (received.length < 2) {
        if (Date.now() > deadline) throw new Error('the message was not delivered after the crash');
        await new Promise((r) => setTimeout(r, 100));
      }
      return [received[0]!, received[1]!];
    },
    /** Verifies a received request with the `standardwebhooks` package (never the project's own signing). */
    verify(secret: string, r: ReceivedRequest): unknown {
      return new Webhook(secret).verify(r.raw, {
        'webhook-id': String(r.headers['webhook-id']),
        'webhook-timestamp': String(r.headers['webhook-timestamp']),
        'webhook-signature': String(r.headers['webhook-signature']),
      });
    },
  };

  beforeAll(async () => {
    rig.h = await startHarness({
      worker: false,
      secretsKey,
      webhookRetry: { initialIntervalMs: 200, maximumIntervalMs: 400, maximumAttempts: 5, attemptTimeoutMs: 3_000 },
    });
    rig.owner = await registerUser(rig.h);
    server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      received.push({ at: Date.now(), headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
      if (received.length === 1) return;
      res.writeHead(200).end('{}');
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
    server?.closeAllConnections();
    server?.close();
    await rig.h?.stop();
  });
  return rig;
}
