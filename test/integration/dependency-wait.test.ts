import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedPostgresHandle, startEmbeddedPostgres } from '@atelier/db';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import { freePort, waitFor } from '@atelier/cli/stack/processes';
import { ensureTemporalCli } from '@atelier/cli/stack/temporal-cli';
import { type TemporalDevServer, startTemporalDevServer } from '@atelier/cli/stack/temporal-server';
import { spawnAtelier } from '../support/harness';

/**
 * `docker compose up` starts the gateway and the workers beside PostgreSQL and Temporal, not after them:
 * each process waits for its dependencies (ATELIER_DEPENDENCY_WAIT_SECONDS) and then works, while what
 * waiting cannot mend stops it at once with the reason. This file brings its own PostgreSQL and Temporal
 * server, started only after the processes that need them.
 */
const dir = path.join(PROJECT_ROOT, '.test-data', `dependency-wait-${randomBytes(4).toString('hex')}`);
let postgres: EmbeddedPostgresHandle | undefined;
let temporal: TemporalDevServer | undefined;
const processes: Array<{ child: ChildProcess; output: () => string }> = [];
const taskQueue = `dependency-wait-${randomBytes(4).toString('hex')}`;
let ports: { postgres: number; temporal: number; temporalUi: number; api: number };

beforeAll(async () => {
  await ensureTemporalCli(() => undefined);
  ports = { postgres: await freePort(), temporal: await freePort(), temporalUi: await freePort(), api: await freePort() };
}, 120_000);

afterAll(async () => {
  for (const { child } of processes) if (child.exitCode === null) child.kill('SIGKILL');
  await temporal?.stop();
  await postgres?.stop();
  await rm(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function start(command: 'api' | 'worker', env: Record<string, string> = {}) {
  const child = spawnAtelier(
    command,
    {
      // `postgres` exists from the moment the server accepts connections; a database created after start
      // would race the processes' first connection (and a missing database stops them, by design).
      DATABASE_URL: `postgres://postgres:postgres@127.0.0.1:${ports.postgres}/postgres`,
      TEMPORAL_ADDRESS: `127.0.0.1:${ports.temporal}`,
      ATELIER_TASK_QUEUE: taskQueue,
      ATELIER_API_PORT: String(ports.api),
      ATELIER_API_HOST: '127.0.0.1',
      ATELIER_DATA_DIR: path.join(dir, command),
      ATELIER_FILE_SIGNING_SECRET: randomBytes(32).toString('base64'),
      ATELIER_PUBLIC_URL: `http://127.0.0.1:${ports.api}`,
      LOG_LEVEL: 'info',
      ...env,
    },
    'pipe',
  );
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const started = { child, output: () => output };
  processes.push(started);
  return started;
}

type Started = ReturnType<typeof start>;

/** Polls `probe` (which throws while not yet) until it answers; fails at once, with their output, if one of `started` exits. */
const until = <T>(what: string, started: Started[], probe: () => Promise<T>, ms: number): Promise<T> =>
  waitFor(what, probe, ms, () => started.some((p) => p.child.exitCode !== null)).catch((err: Error) => {
    throw new Error(`${err.message}\n${started.map((p) => p.output()).join('\n')}`);
  });

/** Until every one of `started` has logged `pattern`. */
const logged = (started: Started[], pattern: RegExp, ms: number) =>
  until(
    `${pattern} logged`,
    started,
    async () => {
      if (!started.every((p) => pattern.test(p.output()))) throw new Error('not yet');
    },
    ms,
  );

const exited = (child: ChildProcess, ms: number) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    const timer = setTimeout(() => resolve(null), ms);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });

async function call(method: string, url: string, body?: unknown, token?: string) {
  const res = await fetch(`http://127.0.0.1:${ports.api}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('a gateway and a worker started before their dependencies', () => {
  it('wait for PostgreSQL, then for Temporal, and then complete a run', async () => {
    const api = start('api');
    const worker = start('worker');
    await logged([api, worker], /waiting for PostgreSQL/, 30_000);
    await sleep(2_000);
    expect(api.child.exitCode, api.output()).toBeNull();
    expect(worker.child.exitCode, worker.output()).toBeNull();

    postgres = await startEmbeddedPostgres({
      dataDir: path.join(dir, 'postgres'),
      port: ports.postgres,
      ephemeral: true,
      database: 'postgres',
    });
    // Both migrate the new database and sync the built-in workflows (each one process at a time), then wait for Temporal.
    await logged([api, worker], /waiting for Temporal/, 60_000);

    temporal = await startTemporalDevServer({
      cliPath: await ensureTemporalCli(() => undefined),
      dbFile: path.join(dir, 'temporal.db'),
      port: ports.temporal,
      uiPort: ports.temporalUi,
      headless: true,
      log: () => undefined,
    });
    await until(
      'the gateway ready',
      [api, worker],
      async () => {
        if ((await call('GET', '/readyz')).status !== 200) throw new Error('not ready');
      },
      60_000,
    );

    const registered = await call('POST', '/v1/auth/register', { email: 'late@example.com', password: 'a-long-password', name: 'Late' });
    expect(registered.status).toBe(201);
    const token = registered.body.accessToken as string;
    const run = await call('POST', '/v1/runs', { templateId: 'plan-research-report', intake: { topic: 'waiting' } }, token);
    expect(run.status).toBe(201);
    const settled = await until(
      'the run settled',
      [api, worker],
      async () => {
        const read = await call('GET', `/v1/runs/${run.body.id}`, undefined, token);
        if (['pending', 'queued', 'running'].includes(read.body.status)) throw new Error(`still ${read.body.status}`);
        return read.body.status as string;
      },
      90_000,
    );
    expect(settled).toBe('completed');
    expect(api.output()).toMatch(/PostgreSQL is available/);
    expect(worker.output()).toMatch(/Temporal at 127\.0\.0\.1:\d+ \(namespace default\) is available/);
  }, 240_000);

  it('stop at once when PostgreSQL refuses the password, with its reason', async () => {
    expect(postgres).toBeDefined();
    const worker = start('worker', { DATABASE_URL: `postgres://postgres:wrong@127.0.0.1:${ports.postgres}/postgres` });
    expect(await exited(worker.child, 30_000)).toBe(1);
    expect(worker.output()).toMatch(/PostgreSQL is not available: password authentication failed/);
    expect(worker.output()).not.toMatch(/waiting for PostgreSQL/);
  }, 60_000);

  it('stop after ATELIER_DEPENDENCY_WAIT_SECONDS when Temporal never answers', async () => {
    const nobody = await freePort();
    const started = Date.now();
    const worker = start('worker', { TEMPORAL_ADDRESS: `127.0.0.1:${nobody}`, ATELIER_DEPENDENCY_WAIT_SECONDS: '3' });
    expect(await exited(worker.child, 45_000)).toBe(1);
    expect(worker.output()).toMatch(
      new RegExp(`Temporal at 127\\.0\\.0\\.1:${nobody} \\(namespace default\\) is not available after waiting \\d+ s`),
    );
    // The wait is bounded: three seconds of retries, plus the process's own start.
    expect(Date.now() - started).toBeLessThan(40_000);
  }, 60_000);
});
