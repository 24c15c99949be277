import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import { answersReady, freePort, waitFor } from '@atelier/cli/stack/processes';
import { type Harness, requestTo, spawnAtelier, startHarness } from '../support/harness';

/**
 * The gateway, tracing off (the default), never turns on Node's async hooks. Once on (the first
 * AsyncLocalStorage run in a process), they stay on for its life and tag every promise it makes: about a tenth
 * of the gateway's CPU for a run followed over its event stream. The readiness probe once turned them on
 * through the Temporal connection's deadline. This starts `atelier api` as a process of its own, with a preload
 * that reports at exit, and walks it through readiness, sign-up, a run created and followed to its end, and reads.
 */
const dir = path.join(PROJECT_ROOT, '.test-data', `gateway-async-hooks-${randomBytes(4).toString('hex')}`);
const report = path.join(dir, 'async-hooks.json');
let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await mkdir(dir, { recursive: true });
}, 120_000);

afterAll(async () => {
  await h?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('the gateway process', () => {
  it('serves readiness, a run followed over its event stream and its reads without turning on async hooks', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const api = spawnAtelier(
      'api',
      {
        DATABASE_URL: h.databaseUrl,
        TEMPORAL_ADDRESS: h.temporalAddress,
        ATELIER_TASK_QUEUE: h.taskQueue,
        ATELIER_API_PORT: String(port),
        ATELIER_API_HOST: '127.0.0.1',
        ATELIER_DATA_DIR: dir,
        ATELIER_FILE_SIGNING_SECRET: randomBytes(32).toString('base64'),
        ATELIER_PUBLIC_URL: base,
        LOG_LEVEL: 'warn',
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${pathToFileURL(path.join(PROJECT_ROOT, 'test/support/async-hooks-report.mjs'))}`,
        ATELIER_TEST_ASYNC_HOOKS_REPORT: report,
      },
      'pipe',
    );
    let output = '';
    api.stderr?.on('data', (chunk) => (output += chunk));
    api.stdout?.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => api.once('exit', resolve));
    try {
      await waitFor('the gateway', answersReady(base), 90_000, () => api.exitCode !== null).catch((err) => {
        throw new Error(`${err.message}\n${output}`);
      });
      for (let i = 0; i < 3; i++) expect((await fetch(`${base}/readyz`)).status).toBe(200);

      const call = requestTo(base);
      const email = `hooks-${randomBytes(4).toString('hex')}@example.com`;
      const registered = await call('POST', '/v1/auth/register', { body: { email, password: 'a-long-password', name: 'Hooks' } });
      expect(registered.status).toBe(201);
      const token = registered.body.accessToken as string;
      const run = await call('POST', '/v1/runs', { token, body: { templateId: 'plan-research-report', intake: { topic: 'hooks' } } });
      expect(run.status).toBe(201);
      // The stream ends once the run has.
      const stream = await fetch(`${base}/v1/runs/${run.body.id}/events`, { headers: { authorization: `Bearer ${token}` } });
      expect(await stream.text()).toMatch(/"status":"completed"/);
      expect((await call('GET', `/v1/runs/${run.body.id}`, { token })).body.status).toBe('completed');
      expect((await call('GET', '/v1/runs', { token })).status).toBe(200);
    } finally {
      api.kill('SIGTERM');
      await exited;
    }
    const { symbols } = JSON.parse(await readFile(report, 'utf8')) as { symbols: string[] };
    expect(symbols).toEqual([]);
  }, 180_000);
});
