import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
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
  startOpenAiLoopback,
} from '../../packages/engine/test/support/openai-loopback';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';

/**
 * What a step paid a provider for is kept through the platform's outages: PostgreSQL stalled for 45 s
 * (every one of its processes stopped, as a frozen host or a stuck failover leaves it: statements hang,
 * new connections time out) and the storage volume gone for 25 s (its root replaced by a file: every write
 * fails) while 20 paid runs (an OpenAI-compatible loopback: a prompt, then an image) are in flight. No run
 * fails, nothing is bought twice, and every call the provider answered is in provider_calls with its cost.
 * A call answered without usage is recorded as unpriced; a run that fails after paying carries that cost.
 * This file brings its own PostgreSQL, since it stops it.
 */
const RUNS = 20;
const PG_STALL_MS = 45_000;
const STORAGE_OUTAGE_MS = 25_000;

const dataDir = path.join(PROJECT_ROOT, '.test-data', `spend-outages-${randomBytes(4).toString('hex')}`);
let pg: EmbeddedPostgresHandle | undefined;
let h: Harness;
let user: TestUser;
let server: OpenAiLoopback;
let png: string;
/** Runs whose image the loopback answers with bytes that are no image: the step pays, fails, and pays again. */
const broken = new Set<string>();
/** Runs whose prompt call the loopback answers without usage. */
const withoutUsage = new Set<string>();

const runOf = (req: ReceivedRequest) => req.idempotencyKey?.split(':')[0] ?? '';

function answer(req: ReceivedRequest) {
  if (req.path === '/v1/images/generations') {
    const b64 = broken.has(runOf(req)) ? Buffer.from('no image at all').toString('base64') : png;
    return { body: { created: 1, data: [{ b64_json: b64 }] }, delayMs: 300 };
  }
  const answered = completion(conformingJson(req.body), { prompt_tokens: 2000, completion_tokens: 1000 });
  if (withoutUsage.has(runOf(req))) delete (answered.body as { usage?: unknown }).usage;
  return { ...answered, delayMs: 300 };
}

/** Every process of the test's PostgreSQL: the postmaster stopped first, so it forks no backend meanwhile. */
function stallPostgres(): number[] {
  const postmaster = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  process.kill(postmaster, 'SIGSTOP');
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' })
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
  for (const pid of children) process.kill(pid, 'SIGSTOP');
  return [...children, postmaster];
}

const resume = (pids: number[]) => {
  for (const pid of pids) process.kill(pid, 'SIGCONT');
};

/** The storage volume gone: its root is a file, so every write under it fails (ENOTDIR), reads of what was stored too. */
async function storageAway(): Promise<() => Promise<void>> {
  const root = h.storage.root;
  await mkdir(root, { recursive: true });
  await rename(root, `${root}.away`);
  await writeFile(root, '');
  return async () => {
    await rm(root);
    await rename(`${root}.away`, root);
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  png = (
    await sharp({ create: { width: 64, height: 64, channels: 4, background: { r: 200, g: 80, b: 40, alpha: 1 } } })
      .png()
      .toBuffer()
  ).toString('base64');
  server = await startOpenAiLoopback(answer);
  const port = await freePort();
  pg = await startEmbeddedPostgres({ dataDir, port, database: 'atelier', ephemeral: true });
  const db = connectDb({ url: pg.url, max: 2 });
  await migrateToLatest(db);
  await syncBuiltinWorkflows(db, loadBuiltinWorkflows());
  await db.destroy();
  h = await startHarness({
    databaseUrl: pg.url,
    models: buildModelRegistry(['openai']),
    providers: { openai: { baseUrl: server.baseUrl, apiKey: 'sk-loopback', maxAttempts: 1 } },
  });
  user = await registerUser(h);
}, 180_000);

afterAll(async () => {
  await h?.stop();
  await pg?.stop();
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const start = async (subject: string): Promise<string> => {
  const res = await h.request('POST', '/v1/runs', {
    token: user.token,
    body: {
      templateId: 'generate-illustration',
      intake: { subject },
      providers: { promptWriter: 'openai/gpt-4o-mini', imageGenerator: 'openai/gpt-image-1' },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
};

describe('spend through a PostgreSQL stall and a storage outage', () => {
  it('keeps every paid call recorded and used: no run fails, nothing is bought twice', async () => {
    // A run whose image is never usable (it fails after its attempts) and one answered without usage.
    const failing = await start('a picture the provider cannot draw');
    broken.add(failing);
    const unpriced = await start('a picture of unknown cost');
    withoutUsage.add(unpriced);
    const runs = [unpriced];
    for (let i = 1; i < RUNS; i++) runs.push(await start(`outage picture ${i}`));
    await waitForRun(h, user.token, runs[0]!, (r) => r.status === 'running');

    // PostgreSQL stalls while steps are between their paid calls and their settlements; the storage volume
    // goes away before it is back, so the images bought meanwhile meet it gone when they are stored.
    const stalled = stallPostgres();
    try {
      await sleep(PG_STALL_MS - 5_000);
      const restoreStorage = await storageAway();
      try {
        await sleep(5_000);
        resume(stalled);
        stalled.length = 0;
        await sleep(STORAGE_OUTAGE_MS - 5_000);
      } finally {
        await restoreStorage();
      }
    } finally {
      resume(stalled);
    }

    for (const id of runs) {
      const run = await waitForRun(h, user.token, id, undefined, 120_000);
      expect(run.status, `${id}: ${run.error}`).toBe('completed');
    }
    const failed = await waitForRun(h, user.token, failing, undefined, 120_000);
    expect(failed.status).toBe('failed');

    // The provider's view against the ledger's: the same calls, each of the 20 runs' bought once.
    const sent = server.received.filter((r) => r.idempotencyKey);
    expect(sent.length).toBe(server.received.length);
    const calls = await h.db
      .selectFrom('provider_calls')
      .select(['run_id', 'step_index', 'call_key', 'cost_usd', 'unpriced'])
      .where('provider', '=', 'openai')
      .execute();
    expect(calls.length).toBe(sent.length);
    expect(calls.map((c) => c.call_key).sort()).toEqual(sent.map((r) => r.idempotencyKey).sort());
    const ofRuns = sent.filter((r) => runs.includes(runOf(r)));
    expect(ofRuns.filter((r) => r.path === '/v1/images/generations').length).toBe(RUNS);
    expect(ofRuns.filter((r) => r.path === '/v1/chat/completions').length).toBe(RUNS);

    // Priced from usage, or flagged unpriced when the answer had none.
    for (const c of calls) {
      if (c.run_id === unpriced && c.step_index === 0) expect(c).toMatchObject({ unpriced: true, cost_usd: '0.000000' });
      else expect(c.unpriced).toBe(false);
      if (c.step_index === 1) expect(Number(c.cost_usd)).toBe(0.04);
    }
    // A run is billed its prompt and its image once (and the local classifier's gates, a few millionths).
    const completedRun = await waitForRun(h, user.token, runs[1]!);
    expect(completedRun.totalCosts.actualUsd).toBeCloseTo(0.0009 + 0.04, 4);

    // The failed run carries every image it paid for, not only its prompt.
    const failedImages = calls.filter((c) => c.run_id === failing && c.step_index === 1);
    expect(failedImages.length).toBeGreaterThanOrEqual(2);
    expect(failed.totalCosts.actualUsd).toBeCloseTo(0.0009 + 0.04 * failedImages.length, 4);
    if (process.env.SPEND_VERBOSE)
      console.log(
        `[spend-outages] provider calls ${sent.length}, provider_calls rows ${calls.length}, failed run: ${failedImages.length} images, $${failed.totalCosts.actualUsd}`,
      );
  }, 240_000);
});
