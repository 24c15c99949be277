import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBuiltinWorkflows } from '@atelier/catalog';
import { sql } from 'kysely';
import {
  type EmbeddedPostgresHandle,
  DEFAULT_QUERY_TIMEOUT_MS,
  classifyDbError,
  connectDb,
  migrateToLatest,
  startEmbeddedPostgres,
  syncBuiltinWorkflows,
} from '@atelier/db';
import { freePort } from '@atelier/cli/stack/processes';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import { type Harness, type HttpResult, type TestUser, registerUser, startHarness } from '../support/harness';

/**
 * PostgreSQL that accepts connections but answers nothing (every process SIGSTOPped: a stalled host, a
 * network path dropping packets) costs 503s with Retry-After within the gateway's query bound, never a hang,
 * and the gateway recovers by itself once the server runs again. This file brings its own PostgreSQL, since
 * it freezes it; the suite's shared one serves other files in parallel.
 */
const dataDir = path.join(PROJECT_ROOT, '.test-data', `frozen-${randomBytes(4).toString('hex')}`);
const BOUND_MS = DEFAULT_QUERY_TIMEOUT_MS.gateway;
// Frozen before they start, requests meet one bound: their query's, or their wait for a connection (counted
// from when they asked). Two bounds is the worst case only for a freeze between a connection and a query.
const ANSWER_WITHIN_MS = BOUND_MS + 2_000;
let pg: EmbeddedPostgresHandle | undefined;
let h: Harness;
let user: TestUser;
let frozen: number[] = [];

/** The postmaster (first line of postmaster.pid) and every process it forked. */
function serverProcesses(): number[] {
  const postmaster = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  let children: number[] = [];
  try {
    children = execFileSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    // pgrep exits 1 when there are none
  }
  return [postmaster, ...children];
}

function freeze(): void {
  // The postmaster first, so it forks no process that the list below would miss.
  const [postmaster] = serverProcesses();
  process.kill(postmaster!, 'SIGSTOP');
  frozen = serverProcesses();
  for (const pid of frozen) process.kill(pid, 'SIGSTOP');
}

function thaw(): void {
  for (const pid of frozen.reverse()) {
    try {
      process.kill(pid, 'SIGCONT');
    } catch {
      // already gone
    }
  }
  frozen = [];
}

async function timed<T>(work: Promise<T>): Promise<T & { ms: number }> {
  const since = Date.now();
  const answer = await work;
  return Object.assign(answer as object, { ms: Date.now() - since }) as T & { ms: number };
}

const createRun = (topic: string) =>
  h.request('POST', '/v1/runs', { token: user.token, body: { templateId: 'plan-research-report', intake: { topic } } });

function expectUnavailable(res: HttpResult & { ms: number }, what: string): void {
  expect(res.status, what).toBe(503);
  expect(res.headers.get('retry-after'), what).toMatch(/^\d+$/);
  expect(typeof res.body.detail, what).toBe('string');
  expect(res.ms, what).toBeLessThan(ANSWER_WITHIN_MS);
}

beforeAll(async () => {
  pg = await startEmbeddedPostgres({ dataDir, port: await freePort(), database: 'atelier', ephemeral: true });
  const db = connectDb({ url: pg.url, max: 2 });
  await migrateToLatest(db);
  await syncBuiltinWorkflows(db, loadBuiltinWorkflows());
  await db.destroy();
  h = await startHarness({ worker: false, databaseUrl: pg.url, dbQueryTimeoutMs: BOUND_MS });
  user = await registerUser(h);
}, 120_000);

afterAll(async () => {
  thaw();
  await h?.stop();
  await pg?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a frozen PostgreSQL', () => {
  it('answers 503 with Retry-After within the bound, and serves again once it runs', async () => {
    // Warm pool: the requests below meet connections that were open and idle when the server froze.
    expect((await createRun('before the freeze')).status).toBe(201);
    expect((await h.request('GET', '/v1/runs', { token: user.token })).status).toBe(200);
    const before = await h.db
      .selectFrom('runs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();

    freeze();
    try {
      // More at once than the pool holds (10): those left waiting for a connection are bounded too.
      const [post, list, ready, ...more] = await Promise.all([
        timed(createRun('while frozen')),
        timed(h.request('GET', '/v1/runs', { token: user.token })),
        timed(h.request('GET', '/readyz')),
        ...Array.from({ length: 10 }, () => timed(h.request('GET', '/v1/runs', { token: user.token }))),
      ]);
      expectUnavailable(post, 'POST /v1/runs');
      expectUnavailable(list, 'GET /v1/runs');
      for (const [i, res] of more.entries()) expectUnavailable(res, `GET /v1/runs #${i}`);
      expect(ready.status).toBe(503);
      expect(ready.body.checks.database).toBe('unreachable');
      expect(ready.ms).toBeLessThan(3_000);
      // The connections that timed out were closed: these need new ones, which the frozen server never accepts.
      const [post2, list2] = await Promise.all([
        timed(createRun('still frozen')),
        timed(h.request('GET', '/v1/runs', { token: user.token })),
      ]);
      expectUnavailable(post2, 'POST /v1/runs on a new connection');
      expectUnavailable(list2, 'GET /v1/runs on a new connection');
      console.log(
        `frozen: POST 503 after ${post.ms} ms, GET after ${list.ms} ms, slowest of the rest ${Math.max(...more.map((r) => r.ms))} ms, ` +
          `/readyz after ${ready.ms} ms; on new connections POST ${post2.ms} ms, GET ${list2.ms} ms`,
      );
    } finally {
      thaw();
    }

    // No restart: the same gateway and pool serve as soon as the server answers.
    const thawedAt = Date.now();
    let recovered = await createRun('after the thaw');
    while (recovered.status !== 201 && Date.now() - thawedAt < 15_000) {
      await new Promise((r) => setTimeout(r, 100));
      recovered = await createRun('after the thaw');
    }
    const recoveryMs = Date.now() - thawedAt;
    expect(recovered.status).toBe(201);
    expect((await h.request('GET', '/v1/runs', { token: user.token })).status).toBe(200);
    expect((await h.request('GET', '/readyz')).status).toBe(200);
    console.log(`thawed: POST /v1/runs answered 201 after ${recoveryMs} ms`);

    // The 503'd creations left nothing behind: each gave up before its transaction's COMMIT was sent (the first
    // statements of the request are reads), and PostgreSQL rolls back a transaction whose connection is gone.
    // Not guaranteed in general: a freeze that lands after COMMIT was sent and before it was answered leaves a
    // run the caller was told failed (503), and the caller's retry makes a second one (POST /v1/runs takes no
    // idempotency key).
    const after = await h.db
      .selectFrom('runs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n + (recovered.status === 201 ? 1 : 0));
  }, 60_000);

  it('fails a transaction frozen midway within one bound, its rollback included, as unavailable', async () => {
    const since = Date.now();
    let err: unknown;
    try {
      await h.db.transaction().execute(async (tx) => {
        await sql`select 1`.execute(tx);
        freeze();
        await sql`select 1`.execute(tx);
      });
    } catch (e) {
      err = e;
    } finally {
      thaw();
    }
    // The rollback meets the connection already closed and fails at once instead of waiting a second bound.
    expect(Date.now() - since).toBeLessThan(BOUND_MS + 1_500);
    expect(classifyDbError(err)).toBe('unavailable');
    await sql`select 1`.execute(h.db);
  }, 30_000);
});
