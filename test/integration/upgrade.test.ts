import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Db, MIGRATION_NAMES, connectDb } from '@atelier/db';
import { freePort } from '@atelier/cli/stack/processes';
import { fileUrlSigning, generateFileSigningSecret } from '@atelier/storage/file-urls';
import { type Harness, registerUser, startHarness, waitForOrder, waitForRun } from '../support/harness';
import {
  type PreviousRelease,
  type Spawned,
  installPreviousRelease,
  spawnCurrent,
  spawnPrevious,
  waitUntilReady,
} from '../support/previous-release';
import {
  completedStepEvents,
  fingerprints,
  nondeterminismSamples,
  reportedProblems,
  workflowTaskFailures,
} from '../support/upgrade-checks';
import { atelierArgs } from '../support/atelier-cli';

/**
 * Rolling the worker fleet from the previous release to this one with runs and an order in flight, and
 * back. The previous release is a commit of this repository (its last main before this release), installed
 * in a folder of its own and run from its sources, on a database it migrated itself. Forward: its workers
 * are replaced (one killed, one stopped gracefully) by this release's mid-flight, then its gateway by this
 * release's; every run and the order complete, with no nondeterminism, exactly as an undisturbed control on
 * this release. Backward: the previous release refuses the database this release migrated (docs/operations.md,
 * Upgrades and rollbacks), and this release's worker brought back completes what was in flight.
 */
const PREVIOUS_RELEASE = 'b05201b';
// Each local model call takes this long, so runs are mid-flight when the workers are swapped.
const LATENCY_MS = 1_000;
const TEMPLATE = 'plan-research-report';
const RUN_TOPICS = Array.from({ length: 20 }, (_, i) => `upgrade ${i}`);
const ORDER_TOPICS = Array.from({ length: 10 }, (_, i) => `order ${i}`);
// Started through the previous release's gateway after its workers are gone: old gateway, new workers.
const LATE_TOPICS = ['late 0', 'late 1'];
const ROLLBACK_TOPICS = Array.from({ length: 8 }, (_, i) => `rollback ${i}`);

const timings: Record<string, number> = {};
const since = (t: number) => Date.now() - t;
const processes: Spawned[] = [];
const scratch: string[] = [];
let release: PreviousRelease;
let databaseName: string;
let databaseUrl: string;
let db: Db;
let h: Harness | undefined;
let control: Record<string, unknown>;
let current: { p: Spawned; port: number };
const taskQueue = `upgrade-${randomBytes(4).toString('hex')}`;
const secretsKey = randomBytes(32);
const fileSigningSecret = generateFileSigningSecret();
let sharedEnv: Record<string, string>;
let apiKey: string;
const runIds = new Map<string, string>();
let orderId: string;

async function call(base: string, method: string, route: string, token?: string, body?: unknown) {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function startRuns(base: string, topics: string[]): Promise<void> {
  for (const topic of topics) {
    const res = await call(base, 'POST', '/v1/runs', apiKey, { templateId: TEMPLATE, intake: { topic } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    runIds.set(topic, res.body.id);
  }
}

async function startWorker(kind: 'previous' | 'current', name: string): Promise<{ p: Spawned; port: number }> {
  const port = await freePort();
  const env = { ...sharedEnv, ATELIER_WORKER_PORT: String(port) };
  const p = kind === 'previous' ? spawnPrevious(release, name, 'worker', env) : spawnCurrent(name, atelierArgs('worker'), env);
  processes.push(p);
  return { p, port };
}

/** Runs of `topics` that have finished at least one step, and how many of them have settled. */
async function progress(topics: string[]) {
  const ids = topics.map((t) => runIds.get(t)).filter((id): id is string => !!id);
  const runs = await db.selectFrom('runs').select(['id', 'status']).where('id', 'in', ids).execute();
  const stepped = await db
    .selectFrom('run_steps')
    .select('run_id')
    .distinct()
    .where('run_id', 'in', ids)
    .where('status', '=', 'completed')
    .execute();
  const settled = new Set(runs.filter((r) => ['completed', 'failed', 'cancelled'].includes(r.status)).map((r) => r.id));
  return {
    stepped: stepped.length,
    settled: settled.size,
    // Mid-run: a step done, the run not settled; its history is partly another worker's, which the next worker replays.
    midRun: stepped.filter((r) => !settled.has(r.run_id)).length,
    total: ids.length,
  };
}

async function until<T>(what: string, probe: () => Promise<T>, done: (v: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The same intakes on this release alone, with no swap and no latency: what every run must end as. */
async function runControl(): Promise<Record<string, unknown>> {
  const c = await startHarness({ localLatencyMs: 0 });
  try {
    const user = await registerUser(c);
    const ids: string[] = [];
    for (const topic of [...RUN_TOPICS, ...LATE_TOPICS, ...ROLLBACK_TOPICS]) {
      const res = await c.request('POST', '/v1/runs', { token: user.token, body: { templateId: TEMPLATE, intake: { topic } } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids.push(res.body.id);
    }
    const planned = await c.request('POST', '/v1/orders', { token: user.token, body: orderBody() });
    expect((await c.request('POST', `/v1/orders/${planned.body.id}/start`, { token: user.token })).status).toBe(200);
    for (const id of ids) await waitForRun(c, user.token, id, undefined, 120_000);
    expect((await waitForOrder(c, user.token, planned.body.id, undefined, 120_000)).status).toBe('completed');
    const children = await c.db.selectFrom('runs').select('id').where('parent_order_id', '=', planned.body.id).execute();
    return fingerprints(c.db, [...ids, ...children.map((r) => r.id)]);
  } finally {
    await c.stop();
  }
}

const orderBody = () => ({
  workflowId: TEMPLATE,
  variationSpec: { resolver: 'list', params: { items: ORDER_TOPICS.map((topic) => ({ topic })) } },
});

async function migrationNames(): Promise<string[]> {
  return (
    await db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .orderBy('name' as never)
      .execute()
  ).map((r: any) => r.name);
}

/** Temporal's record and the worker's own report agree that no workflow task failed to replay. */
async function expectNoNondeterminism(worker: { port: number }) {
  const metrics = await nondeterminismSamples(worker.port);
  expect(metrics.exported).toBe(true);
  expect(metrics.nonZero).toEqual([]);
  expect((await fetch(`http://127.0.0.1:${worker.port}/readyz`)).status).toBe(200);
  const { executions, failures } = await workflowTaskFailures(h!.temporal, taskQueue);
  expect(executions).toBeGreaterThan(0);
  expect(failures).toEqual([]);
  expect(await reportedProblems(h!.temporal, taskQueue)).toEqual([]);
}

beforeAll(async () => {
  const t = Date.now();
  release = await installPreviousRelease(PREVIOUS_RELEASE);
  timings.previousInstallMs = release.installMs;
  timings.previousInstallReused = release.reused ? 1 : 0;
  timings.beforeAllMs = since(t);
  // An empty database, not the suite's template: the previous release must migrate it as it would have.
  databaseName = `atelier_upgrade_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  await admin.end();
  const url = new URL(inject('pgAdminUrl'));
  url.pathname = `/${databaseName}`;
  databaseUrl = url.toString();
  db = connectDb({ url: databaseUrl, max: 2 });
  const storageDir = await mkdtemp(path.join(os.tmpdir(), 'atelier-upgrade-storage-'));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'atelier-upgrade-data-'));
  scratch.push(storageDir, dataDir);
  sharedEnv = {
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    TEMPORAL_NAMESPACE: 'default',
    ATELIER_TASK_QUEUE: taskQueue,
    ATELIER_LOCAL_LATENCY_MS: String(LATENCY_MS),
    ATELIER_SECRETS_KEY: secretsKey.toString('base64'),
    ATELIER_STORAGE_DIR: storageDir,
    ATELIER_DATA_DIR: dataDir,
    // The suite's Temporal server is shared: no test may move the namespace's reconciler schedule onto its queue.
    ATELIER_RECONCILE_EVERY_MINUTES: '0',
    LOG_LEVEL: 'warn',
  };
}, 240_000);

afterAll(async () => {
  for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await h?.stop();
  await db?.destroy();
  if (databaseName) {
    const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
  console.log(`upgrade test timings: ${JSON.stringify(timings)}`);
});

describe('upgrading the workers with runs in flight', () => {
  it('previous release → this one: every run and the order complete as on an undisturbed control, with no nondeterminism', async () => {
    let t = Date.now();
    // A fleet of two workers and a gateway of the previous release; they migrate the empty database themselves.
    const previousA = await startWorker('previous', 'previous worker A');
    const previousB = await startWorker('previous', 'previous worker B');
    const apiPort = await freePort();
    const previousApi = spawnPrevious(release, 'previous gateway', 'api', {
      ...sharedEnv,
      ATELIER_API_PORT: String(apiPort),
      ATELIER_API_HOST: '127.0.0.1',
      ATELIER_PUBLIC_URL: `http://127.0.0.1:${apiPort}`,
      ATELIER_FILE_SIGNING_SECRET: fileSigningSecret,
      // Children start a few at a time, so the order is still running when the workers are swapped.
      ATELIER_ORDER_CONCURRENCY: '3',
    });
    processes.push(previousApi);
    const oldBase = `http://127.0.0.1:${apiPort}`;
    // The control runs while the previous release's processes start (they bundle their workflows first).
    const c = Date.now();
    control = await runControl();
    timings.controlMs = since(c);
    await Promise.all([
      waitUntilReady(previousA.p, `http://127.0.0.1:${previousA.port}/readyz`, 180_000),
      waitUntilReady(previousB.p, `http://127.0.0.1:${previousB.port}/readyz`, 180_000),
      waitUntilReady(previousApi, `${oldBase}/readyz`, 180_000),
    ]);
    timings.previousStartMs = since(t);
    // The previous release recorded its migrations under their former names.
    expect(await migrationNames()).toContain('2026-11-22T1000-foundation');

    const registered = await call(oldBase, 'POST', '/v1/auth/register', undefined, {
      email: `upgrade-${randomBytes(3).toString('hex')}@example.com`,
      password: 'correct horse battery',
      name: 'Upgrader',
    });
    expect(registered.status).toBe(201);
    const key = await call(oldBase, 'POST', '/v1/api-keys', registered.body.accessToken, { name: 'upgrade' });
    expect(key.status).toBe(201);
    apiKey = key.body.secret;
    await startRuns(oldBase, RUN_TOPICS);
    const planned = await call(oldBase, 'POST', '/v1/orders', apiKey, orderBody());
    expect(planned.status, JSON.stringify(planned.body)).toBe(201);
    orderId = planned.body.id;
    expect((await call(oldBase, 'POST', `/v1/orders/${orderId}/start`, apiKey)).status).toBe(200);

    // Mid-flight: some runs have finished a step, few have settled.
    const atSwap = await until(
      'runs mid-flight',
      () => progress(RUN_TOPICS),
      (p) => p.stepped >= 3,
      120_000,
    );
    t = Date.now();
    previousA.p.child.kill('SIGKILL');
    previousB.p.child.kill('SIGTERM');
    current = await startWorker('current', 'current worker');
    expect(atSwap.settled, JSON.stringify(atSwap)).toBeLessThan(RUN_TOPICS.length);
    const order = await call(oldBase, 'GET', `/v1/orders/${orderId}`, apiKey);
    expect(order.body.status).toBe('running');
    timings.settledAtSwap = atSwap.settled;
    timings.orderSucceededAtSwap = order.body.counts.succeeded;

    await waitUntilReady(current.p, `http://127.0.0.1:${current.port}/readyz`, 180_000);
    timings.currentWorkerStartMs = since(t);
    // A graceful stop drains (up to the 10 s grace) and exits cleanly.
    expect(await previousB.p.exited).toBe(0);
    // Once no previous worker is left, runs the previous release took halfway are this release's to replay and finish.
    const handedOver = await progress(RUN_TOPICS);
    timings.midRunWhenPreviousGone = handedOver.midRun;
    expect(handedOver.midRun, JSON.stringify(handedOver)).toBeGreaterThan(0);
    expect(await migrationNames()).toEqual([...MIGRATION_NAMES]);

    // Workers first, gateways after: the previous gateway still takes runs, which this release's worker runs.
    await startRuns(oldBase, LATE_TOPICS);
    previousApi.child.kill('SIGTERM');
    expect(await previousApi.exited).toBe(0);
    t = Date.now();
    h = await startHarness({ worker: false, databaseUrl, taskQueue, secretsKey, fileUrls: fileUrlSigning(fileSigningSecret) });
    timings.currentGatewayStartMs = since(t);

    t = Date.now();
    const topics = [...RUN_TOPICS, ...LATE_TOPICS];
    for (const topic of topics) expect((await waitForRun(h, apiKey, runIds.get(topic)!, undefined, 180_000)).status).toBe('completed');
    const settled = await waitForOrder(h, apiKey, orderId, undefined, 180_000);
    timings.drainAfterSwapMs = since(t);
    expect(settled.status).toBe('completed');
    expect(settled.counts).toMatchObject({ planned: 0, running: 0, succeeded: ORDER_TOPICS.length, failed: 0, cancelled: 0 });

    const children = (await db.selectFrom('runs').select('id').where('parent_order_id', '=', orderId).execute()).map((r) => r.id);
    const ids = [...topics.map((topic) => runIds.get(topic)!), ...children];
    for (const [runId, perStep] of await completedStepEvents(db, ids)) expect(perStep, runId).toEqual([1, 1, 1]);
    const upgraded = await fingerprints(db, ids);
    expect(Object.keys(upgraded).sort()).toEqual([...topics, ...ORDER_TOPICS].sort());
    for (const [topic, shape] of Object.entries(upgraded)) expect(shape, topic).toEqual(control[topic]);
    await expectNoNondeterminism(current);
  }, 600_000);

  it('this release → previous: the previous release refuses the database, and what was in flight completes on this release', async () => {
    expect(h, 'the forward upgrade must have run first').toBeDefined();
    await startRuns(h!.url, ROLLBACK_TOPICS);
    const atStop = await until(
      'runs mid-flight',
      () => progress(ROLLBACK_TOPICS),
      (p) => p.stepped >= 2,
      120_000,
    );
    // Rolling back replaces this release's workers with the previous release's.
    current.p.child.kill('SIGKILL');
    await current.p.exited;
    expect(atStop.settled).toBeLessThan(ROLLBACK_TOPICS.length);
    const before = await migrationNames();

    let t = Date.now();
    const previous = await startWorker('previous', 'previous worker (rollback)');
    const code = await Promise.race([previous.p.exited, new Promise((r) => setTimeout(() => r('still running'), 180_000))]);
    timings.previousRefusalMs = since(t);
    expect(code, previous.p.output().slice(-4_000)).toBe(1);
    expect(previous.p.output()).toContain('corrupted migrations: previously executed migration 0001-foundation is missing');
    // Refused before it touched anything: the schema's record is as this release left it, and no run failed.
    expect(await migrationNames()).toEqual(before);
    const runs = await db
      .selectFrom('runs')
      .select('status')
      .where(
        'id',
        'in',
        ROLLBACK_TOPICS.map((topic) => runIds.get(topic)!),
      )
      .execute();
    expect(runs.filter((r) => ['failed', 'cancelled'].includes(r.status))).toEqual([]);

    t = Date.now();
    current = await startWorker('current', 'current worker (brought back)');
    await waitUntilReady(current.p, `http://127.0.0.1:${current.port}/readyz`, 180_000);
    for (const topic of ROLLBACK_TOPICS)
      expect((await waitForRun(h!, apiKey, runIds.get(topic)!, undefined, 180_000)).status).toBe('completed');
    timings.recoveryMs = since(t);
    const ids = ROLLBACK_TOPICS.map((topic) => runIds.get(topic)!);
    for (const [runId, perStep] of await completedStepEvents(db, ids)) expect(perStep, runId).toEqual([1, 1, 1]);
    const rolled = await fingerprints(db, ids);
    for (const topic of ROLLBACK_TOPICS) expect(rolled[topic], topic).toEqual(control[topic]);
    await expectNoNondeterminism(current);
  }, 600_000);
});
