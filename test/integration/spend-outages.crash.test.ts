import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBuiltinWorkflows } from '@atelier/catalog';
import { type EmbeddedPostgresHandle, connectDb, migrateToLatest, startEmbeddedPostgres, syncBuiltinWorkflows } from '@atelier/db';
import { buildModelRegistry } from '@atelier/domain';
import { freePort } from '@atelier/cli/stack/processes';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import {
  type OpenAiLoopback,
  type ReceivedRequest,
  completion,
  conformingJson,
  schemaProperties,
  startOpenAiLoopback,
} from '../../packages/engine/test/support/openai-loopback';
import { type Harness, type TestUser, registerUser, spawnAtelierWorker, startHarness, waitForRun } from '../support/harness';

/**
 * A worker that dies while its step waits for the database loses nothing it bought: the step's answer is
 * carried in the attempt's heartbeat, and the next attempt, on another worker, uses it instead of calling
 * the provider again, then records the call. The database is stopped right as the step's model answers
 * (its settlement cannot be written), the worker is SIGKILLed after a heartbeat carried the answer, the
 * database comes back and a second worker finishes the run. This file brings its own PostgreSQL.
 */
const dataDir = path.join(PROJECT_ROOT, '.test-data', `spend-crash-${randomBytes(4).toString('hex')}`);
let port: number;
let pg: EmbeddedPostgresHandle | undefined;
let h: Harness;
let user: TestUser;
let server: OpenAiLoopback;
const workers: ChildProcess[] = [];
let stopping: Promise<void> | undefined;

const startPostgres = () => startEmbeddedPostgres({ dataDir, port, database: 'atelier', ephemeral: true });
const isStep2 = (req: ReceivedRequest) => schemaProperties(req.body).includes('sections');

function answer(req: ReceivedRequest) {
  // Step 2's answer goes out as the database goes away: the step cannot settle, the answer is all it has.
  if (isStep2(req) && !stopping) {
    const db = pg!;
    pg = undefined;
    stopping = db.stop();
  }
  // The answer arrives once the database is gone (stopping takes a moment).
  return { ...completion(conformingJson(req.body), { prompt_tokens: 2000, completion_tokens: 1000 }), delayMs: isStep2(req) ? 4_000 : 0 };
}

function spawnWorker(): ChildProcess {
  const child = spawnAtelierWorker(h, 0, { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-loopback' });
  workers.push(child);
  return child;
}

beforeAll(async () => {
  server = await startOpenAiLoopback(answer);
  port = await freePort();
  pg = await startPostgres();
  const db = connectDb({ url: pg.url, max: 2 });
  await migrateToLatest(db);
  await syncBuiltinWorkflows(db, loadBuiltinWorkflows());
  await db.destroy();
  h = await startHarness({ worker: false, databaseUrl: pg.url, models: buildModelRegistry(['openai']) });
  user = await registerUser(h);
}, 180_000);

afterAll(async () => {
  for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
  await h?.stop();
  await pg?.stop();
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a worker killed while its step waits for the database', () => {
  it('leaves the answer it bought to the next attempt: the provider is not called again, and the call is recorded', async () => {
    const first = spawnWorker();
    const created = await h.request('POST', '/v1/runs', {
      token: user.token,
      body: {
        templateId: 'plan-research-report',
        intake: { topic: 'outage spend' },
        providers: { researcher: 'openai/gpt-4o-mini', textGenerator: 'openai/gpt-4o-mini' },
      },
    });
    expect(created.status).toBe(201);
    const runId: string = created.body.id;

    const deadline = Date.now() + 90_000;
    while (!stopping && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(stopping, 'step 2 called its model').toBeDefined();
    await stopping;
    // Past the time between heartbeats (half the 15 s heartbeat timeout detached, 0.8 of it in a slot): a heartbeat carried the answer.
    await new Promise((r) => setTimeout(r, 16_000));
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    pg = await startPostgres();
    spawnWorker();

    const run = await waitForRun(h, user.token, runId, undefined, 120_000);
    expect(run.status, run.error).toBe('completed');
    const step2 = `${runId}:1:step-2_231`;
    const sent = server.received.map((r) => r.idempotencyKey);
    expect(sent.filter((k) => k === step2)).toEqual([step2]);
    const calls = await h.db
      .selectFrom('provider_calls')
      .select(['step_index', 'call_key', 'cost_usd'])
      .where('run_id', '=', runId)
      .execute();
    expect(calls.map((c) => c.call_key).sort()).toEqual([...sent].sort());
    expect(calls.find((c) => c.call_key === step2)?.cost_usd).toBe('0.000900');
    expect(run.runSteps[1].costActualUsd).toBeCloseTo(0.0009, 6);
  }, 240_000);
});
