import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker, bundleWorkflowCode } from '@temporalio/worker';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import { type Db, connectDb } from '@atelier/db';
import { createWorkerMetrics, workerMetricsRoute } from '@atelier/engine/metrics';
import { NondeterminismWatch, createWatchedWorker } from '@atelier/engine/nondeterminism';
import { startWorkerHttp } from '@atelier/engine/worker-http';
import { createTestDatabase, repeatUntil } from '../support/harness';

/**
 * A worker whose workflow code cannot replay a run's history says so: an error line naming the run, a
 * counter on its /metrics, and 503 on its /readyz. Release v1 of a tiny workflow starts a run and leaves it
 * waiting for a signal; release v2 (an activity where v1 had a timer) is then poked into replaying it. The
 * run is not failed: once v1 is back, the retried task goes through.
 */
const FIXTURES = path.join(PROJECT_ROOT, 'test', 'support', 'nondeterminism');
const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const bundle = (release: string) =>
  bundleWorkflowCode({ workflowsPath: path.join(FIXTURES, `${release}.ts`), logger: quiet }).then(({ code }) => ({ code }));

let connection: NativeConnection;
let client: Client;
let db: Db;
let v1: { code: string };
let v2: { code: string };
const taskQueue = `nondeterminism-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  [v1, v2] = await Promise.all([bundle('v1'), bundle('v2')]);
  connection = await NativeConnection.connect({ address: inject('temporalAddress') });
  client = new Client({ connection: await Connection.connect({ address: inject('temporalAddress') }) });
  db = connectDb({ url: await createTestDatabase(), max: 2 });
});

afterAll(async () => {
  await connection?.close();
  await client?.connection.close();
  await db?.destroy();
});

/** A watch whose log lines are kept, as pino writes them. */
function watched() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const metrics = createWorkerMetrics();
  const watch = new NondeterminismWatch({ logger: pino(sink), counter: metrics.nondeterminism, windowMinutes: 15 });
  return { lines, metrics, watch };
}

const release = (code: { code: string }, watch: NondeterminismWatch) =>
  createWatchedWorker({ connection, taskQueue, workflowBundle: code, activities: { prepare: async () => undefined } }, watch);

async function stage(workflowId: string): Promise<string> {
  return client.workflow
    .getHandle(workflowId)
    .query<string>('stage')
    .catch(() => 'unknown');
}

it('reports a nondeterminism error in its log, metrics and readiness, and leaves the run to retry', async () => {
  const workflowId = `nd-${randomBytes(4).toString('hex')}`;
  const old = watched();
  const first = await release(v1, old.watch);
  const handle = await client.workflow.start('waiter', { taskQueue, workflowId, workflowTaskTimeout: '2 seconds' });
  await first.runUntil(
    repeatUntil(
      () => stage(workflowId),
      (s) => s === 'waiting',
      20_000,
    ),
  );

  const next = watched();
  const second: Worker = await release(v2, next.watch);
  const running = second.run();
  const probes = await startWorkerHttp({
    port: 0,
    host: '127.0.0.1',
    worker: second,
    db,
    nondeterminism: next.watch,
    routes: { '/metrics': workerMetricsRoute(next.metrics) },
  });
  const get = (p: string) => fetch(`http://127.0.0.1:${probes.port}${p}`).then(async (r) => ({ status: r.status, text: await r.text() }));
  try {
    expect((await get('/readyz')).status).toBe(200);
    await handle.signal('poke');
    const unready = await repeatUntil(
      () => get('/readyz'),
      (r) => r.status === 503,
      20_000,
    );
    expect(unready.status).toBe(503);
    const body = JSON.parse(unready.text);
    expect(body).toMatchObject({
      ready: false,
      checks: { worker: 'RUNNING', database: 'ok' },
      nondeterminism: {
        recent: true,
        count: 1,
        windowMinutes: 15,
        lastWorkflowId: workflowId,
        lastRunId: handle.firstExecutionRunId,
        lastWorkflowType: 'waiter',
      },
    });
    expect(body.nondeterminism.lastMessage).toMatch(/nondeterminism/i);

    // Temporal retries the task (unreported after the first attempt); each retry is seen, the run logged once.
    const retried = await repeatUntil(
      async () => next.watch.status().total,
      (total) => total >= 2,
      15_000,
    );
    expect(retried).toBeGreaterThanOrEqual(2);
    const errors = next.lines.filter((l) => l.level === 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      workflowId,
      runId: handle.firstExecutionRunId,
      workflowType: 'waiter',
      taskQueue,
      errorType: 'NondeterminismError',
    });
    expect(String(errors[0]!.message)).toMatch(/nondeterminism/i);
    expect(String(errors[0]!.msg)).toContain(workflowId);

    const metrics = await get('/metrics');
    expect(metrics.text).toMatch(/^atelier_workflow_nondeterminism_total\{workflow_type="waiter"\} [1-9]/m);
  } finally {
    await probes.close();
    second.shutdown();
    await running;
  }

  // The task was failed, not the run: rolled back to v1, the run takes its signal and completes.
  expect((await handle.describe()).status.name).toBe('RUNNING');
  const healed = watched();
  const third = await release(v1, healed.watch);
  expect(await third.runUntil(handle.result())).toBe('poked');
  expect(healed.watch.status()).toMatchObject({ recent: false, total: 0 });
  expect(old.watch.status().total).toBe(0);
});
