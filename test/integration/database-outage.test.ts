import type { ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBuiltinWorkflows } from '@atelier/catalog';
import { type EmbeddedPostgresHandle, connectDb, migrateToLatest, startEmbeddedPostgres, syncBuiltinWorkflows } from '@atelier/db';
import { freePort } from '@atelier/cli/stack/processes';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import { type Harness, type TestUser, registerUser, spawnAtelierWorker, startHarness, waitForRun } from '../support/harness';

/**
 * PostgreSQL going away for a while (a restart, a failover) costs retries, never a process and never a
 * run: the worker keeps running and waits, the gateway answers 503 with Retry-After meanwhile, and every
 * run in flight completes once the database is back. This file brings its own PostgreSQL, since it
 * stops it.
 */
const dataDir = path.join(PROJECT_ROOT, '.test-data', `outage-${randomBytes(4).toString('hex')}`);
let port: number;
let pg: EmbeddedPostgresHandle | undefined;
let h: Harness;
let user: TestUser;
let worker: ChildProcess;
let workerProbes: string;

const startPostgres = () => startEmbeddedPostgres({ dataDir, port, database: 'atelier', ephemeral: true });

beforeAll(async () => {
  port = await freePort();
  pg = await startPostgres();
  const db = connectDb({ url: pg.url, max: 2 });
  await migrateToLatest(db);
  await syncBuiltinWorkflows(db, loadBuiltinWorkflows());
  await db.destroy();
  h = await startHarness({ worker: false, databaseUrl: pg.url });
  user = await registerUser(h);
  const probePort = await freePort();
  workerProbes = `http://127.0.0.1:${probePort}`;
  worker = spawnAtelierWorker(h, 400, { ATELIER_WORKER_PORT: String(probePort) });
}, 180_000);

afterAll(async () => {
  worker?.kill('SIGKILL');
  await h?.stop();
  await pg?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a PostgreSQL restart', () => {
  it('leaves the worker and the gateway running, answers 503 meanwhile, and completes every run in flight', async () => {
    const runs: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await h.request('POST', '/v1/runs', {
        token: user.token,
        body: { templateId: 'plan-research-report', intake: { topic: `outage ${i}` } },
      });
      expect(res.status).toBe(201);
      runs.push(res.body.id);
    }
    await waitForRun(h, user.token, runs[0]!, (r) => r.status === 'running');
    expect((await h.request('GET', '/readyz')).status).toBe(200);
    expect((await fetch(`${workerProbes}/readyz`)).status).toBe(200);

    await pg!.stop();
    pg = undefined;
    const during = await h.request('GET', `/v1/runs/${runs[0]}`, { token: user.token });
    expect(during.status).toBe(503);
    expect(during.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(typeof during.body.detail).toBe('string');
    // Readiness says so too, on the gateway and on the worker's probe port; liveness stays up.
    const gatewayReady = await h.request('GET', '/readyz');
    expect(gatewayReady.status).toBe(503);
    expect(gatewayReady.body.checks).toEqual({ database: 'unreachable', temporal: 'ok' });
    expect((await h.request('GET', '/healthz')).status).toBe(200);
    const workerReady = await fetch(`${workerProbes}/readyz`);
    expect(workerReady.status).toBe(503);
    expect(((await workerReady.json()) as any).checks.database).toBe('unreachable');
    expect((await fetch(`${workerProbes}/healthz`)).status).toBe(200);
    // Longer than the step retry budget used to last (1 + 2 + 4 + 8 s): an outage is waited out.
    await new Promise((r) => setTimeout(r, 18_000));
    expect(worker.exitCode).toBeNull();
    expect(worker.signalCode).toBeNull();

    pg = await startPostgres();
    for (const id of runs) {
      const run = await waitForRun(h, user.token, id, undefined, 120_000);
      expect(run.status, `${id}: ${run.error}`).toBe('completed');
      expect(run.totalCosts.actualUsd).toBeGreaterThan(0);
    }
    expect(worker.exitCode).toBeNull();
    expect((await h.request('GET', '/readyz')).status).toBe(200);
    expect((await fetch(`${workerProbes}/readyz`)).status).toBe(200);
  }, 240_000);
});
