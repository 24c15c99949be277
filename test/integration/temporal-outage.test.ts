import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import { freePort } from '@atelier/cli/stack/processes';
import { ensureTemporalCli } from '@atelier/cli/stack/temporal-cli';
import { type TemporalDevServer, startTemporalDevServer } from '@atelier/cli/stack/temporal-server';
import {
  type Harness,
  type TestUser,
  registerUser,
  repeatUntil,
  spawnAtelierWorker,
  startHarness,
  waitForOrder,
  waitForRun,
} from '../support/harness';

/**
 * Temporal being away delays work and loses none: runs are accepted (201 pending) and an order started
 * (200) while the server is down, each recorded with its engine command in one transaction, and every one
 * of them completes once the server is back. This file brings its own Temporal server, since it stops it.
 */
const dir = path.join(PROJECT_ROOT, '.test-data', `temporal-outage-${randomBytes(4).toString('hex')}`);
let server: TemporalDevServer | undefined;
let start: () => Promise<TemporalDevServer>;
let h: Harness;
let user: TestUser;
let worker: ChildProcess;

beforeAll(async () => {
  const cliPath = await ensureTemporalCli(() => undefined);
  const [port, uiPort] = [await freePort(), await freePort()];
  start = () =>
    startTemporalDevServer({ cliPath, dbFile: path.join(dir, 'temporal.db'), port, uiPort, headless: true, log: () => undefined });
  server = await start();
  h = await startHarness({ worker: false, temporalAddress: server.address });
  user = await registerUser(h);
  worker = spawnAtelierWorker(h, 0);
}, 180_000);

afterAll(async () => {
  worker?.kill('SIGKILL');
  await h?.stop();
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

const createRun = (topic: string) =>
  h.request('POST', '/v1/runs', { token: user.token, body: { templateId: 'plan-research-report', intake: { topic } } });

describe('Temporal unreachable', () => {
  it('accepts runs and an order start at once and completes every one of them when Temporal returns', async () => {
    const warmup = await createRun('before the outage');
    expect((await waitForRun(h, user.token, warmup.body.id, undefined, 60_000)).status).toBe('completed');

    await server!.stop();
    server = undefined;
    const ready = await h.request('GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.checks).toEqual({ database: 'ok', temporal: 'unreachable' });

    const runs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      const res = await createRun(`during the outage ${i}`);
      expect(res.status).toBe(201);
      expect(res.body.status).toBe('pending');
      expect(Date.now() - started).toBeLessThan(2_000);
      runs.push(res.body.id);
    }
    const order = await h.request('POST', '/v1/orders', {
      token: user.token,
      body: {
        workflowId: 'plan-research-report',
        variationSpec: { resolver: 'list', params: { items: [{ topic: 'o1' }, { topic: 'o2' }, { topic: 'o3' }] } },
      },
    });
    expect(order.status).toBe(201);
    const startedOrder = await h.request('POST', `/v1/orders/${order.body.id}/start`, { token: user.token });
    expect(startedOrder.status).toBe(200);
    const waiting = await h.db.selectFrom('engine_commands').select(['kind', 'target_id']).where('done_at', 'is', null).execute();
    expect(waiting.map((c) => c.target_id)).toEqual(expect.arrayContaining([...runs, order.body.id]));

    await new Promise((r) => setTimeout(r, 3_000));
    server = await start();

    for (const id of runs) expect((await waitForRun(h, user.token, id, undefined, 120_000)).status).toBe('completed');
    const settled = await waitForOrder(h, user.token, order.body.id, undefined, 120_000);
    expect(settled.status).toBe('completed');
    expect(settled.counts.succeeded).toBe(3);
    expect(await h.db.selectFrom('engine_commands').select('id').where('done_at', 'is', null).execute()).toEqual([]);
    // A readiness probe made while Temporal was away is retried by the connection for up to about 10 s
    // (readiness.ts), and probes meanwhile wait on it: readiness comes back within that, not at once.
    const readyAgain = await repeatUntil(
      () => h.request('GET', '/readyz'),
      (r) => r.status === 200,
      15_000,
    );
    expect(readyAgain.status, JSON.stringify(readyAgain.body)).toBe(200);
  }, 300_000);

  it('keeps a step waiting on its provider going through an outage longer than its heartbeats, and attempts it once', async () => {
    // A worker whose model calls take CALL_MS: the step is in flight, detached from its slot, across the outage.
    const CALL_MS = 14_000;
    worker.kill('SIGKILL');
    worker = spawnAtelierWorker(h, CALL_MS);
    const created = await createRun('a step across the outage');
    expect(created.status).toBe(201);
    const runId: string = created.body.id;
    const firstStep = () =>
      h.db
        .selectFrom('run_steps')
        .select(['status', 'attempts'])
        .where('run_id', '=', runId)
        .where('step_index', '=', 0)
        .executeTakeFirst();
    const deadline = Date.now() + 60_000;
    while (!(await firstStep())) {
      if (Date.now() > deadline) throw new Error('the first step never started');
      await new Promise((r) => setTimeout(r, 50));
    }

    // Away across the attempt's first heartbeat (half the 15 s heartbeat timeout), back before the timeout: the
    // heartbeat waits out the outage or is sent again, and the attempt goes on.
    await server!.stop();
    server = undefined;
    await new Promise((r) => setTimeout(r, 8_500));
    server = await start();

    const run = await waitForRun(h, user.token, runId, undefined, 120_000);
    expect(run.status, run.error).toBe('completed');
    const steps = await h.db.selectFrom('run_steps').select(['step_index', 'attempts']).where('run_id', '=', runId).execute();
    for (const step of steps) expect(step.attempts, `step ${step.step_index}`).toBe(1);
  }, 180_000);
});
