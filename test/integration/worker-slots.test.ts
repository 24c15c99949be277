import { type Server, createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModelRegistry, isTerminalRunStatus } from '@atelier/domain';
import { type OpenAiLoopback, completion, startOpenAiLoopback, conformingJson } from '../../packages/engine/test/support/openai-loopback';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';

/**
 * The worker's activity slots fit the work (docs/architecture.md, Slots and queues): a step waiting on its
 * provider runs detached from the worker's slots and holds none, and webhook deliveries run on a queue and
 * worker of their own, so neither a provider that never answers nor integrators that hang slow down unrelated
 * runs. The worker here has 10 activity slots.
 *
 * One loopback OpenAI API: `gpt-4o-mini` answers after CALL_MS (the first calls only once HOLD_MS have passed), `gpt-4o`
 * never answers. One loopback
 * integrator: /hang never answers, /slow answers after 10 s.
 */
const CALL_MS = 3_000;
const SLOTS = 10;
const HOLD_MS = 40_000;
let answerFrom = 0;
let h: Harness;
let openai: OpenAiLoopback;
let integrator: Server;
let inFlight = 0;
let mostInFlight = 0;
const hooks = { hang: 0, slow: 0 };

beforeAll(async () => {
  openai = await startOpenAiLoopback((req) => {
    if (req.body?.model === 'gpt-4o') return { delayMs: 10 * 60_000 };
    // The first calls are held until HOLD_MS after the first one arrives, so how many wait at once depends on
    // the worker's slots, not on how fast a loaded machine gets the runs started.
    answerFrom ||= Date.now() + HOLD_MS;
    const delayMs = Math.max(CALL_MS, answerFrom - Date.now());
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    setTimeout(() => inFlight--, delayMs);
    return { ...completion(conformingJson(req.body)), delayMs };
  });
  integrator = createServer((req, res) => {
    req.resume();
    if (req.url === '/hang') hooks.hang++;
    else {
      hooks.slow++;
      setTimeout(() => res.writeHead(200).end(), 10_000);
    }
  });
  await new Promise<void>((r) => integrator.listen(0, '127.0.0.1', r));
  h = await startHarness({
    localLatencyMs: 300,
    providers: { openai: { baseUrl: openai.baseUrl, apiKey: 'sk-loopback', maxAttempts: 1, textTimeoutMs: 120_000 } },
    models: buildModelRegistry(['openai']),
    // Attempts hang for their whole timeout; few of them, soon retried, so deliveries pile up fast.
    webhookRetry: { initialIntervalMs: 200, backoffCoefficient: 2, maximumIntervalMs: 1_000, maximumAttempts: 3, attemptTimeoutMs: 15_000 },
    worker: false,
  });
  await h.startWorker({ maxConcurrentActivities: SLOTS });
}, 60_000);

afterAll(async () => {
  integrator?.closeAllConnections();
  integrator?.close();
  await openai?.close();
  await h?.stop();
});

const report = (user: TestUser, providers: Record<string, string> = {}) =>
  h
    .request('POST', '/v1/runs', { token: user.token, body: { templateId: 'plan-research-report', intake: { topic: 'slots' }, providers } })
    .then((r) => {
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.id as string;
    });

/** Starts `n` runs, a few requests at a time (one gateway, one loopback address). */
async function startMany(n: number, start: () => Promise<string>): Promise<string[]> {
  const ids: string[] = [];
  const lanes = Array.from({ length: 8 }, async () => {
    while (ids.length < n) {
      ids.push('');
      const at = ids.length - 1;
      ids[at] = await start();
    }
  });
  await Promise.all(lanes);
  return ids;
}

/** Waits (reading the database, not polling the gateway per run) until every run has settled. */
async function allSettled(ids: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await h.db.selectFrom('runs').select(['status']).where('id', 'in', ids).execute();
    if (rows.length === ids.length && rows.every((r) => isTerminalRunStatus(r.status))) return;
    if (Date.now() > deadline) throw new Error(`${rows.filter((r) => !isTerminalRunStatus(r.status)).length} runs still unsettled`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The slowest of 10 concurrent ordinary runs, from their start to their completion (ms). */
async function tenRunsLatency(user: TestUser): Promise<number> {
  const began = Date.now();
  const ids = await Promise.all(Array.from({ length: 10 }, () => report(user)));
  const ends = await Promise.all(
    ids.map(async (id) => {
      expect((await waitForRun(h, user.token, id, undefined, 60_000)).status).toBe('completed');
      return Date.now();
    }),
  );
  return Math.max(...ends) - began;
}

describe('activity slots', () => {
  it('keeps far more model calls in flight at once than the worker has slots', async () => {
    const user = await registerUser(h);
    const remote = { researcher: 'openai/gpt-4o-mini', textGenerator: 'openai/gpt-4o-mini' };
    const began = Date.now();
    const ids = await startMany(150, () => report(user, remote));
    // Settling is CPU work on a shared machine: generous, so the test measures the calls, not the host's load.
    await allSettled(ids, 100_000);
    const took = Date.now() - began;
    console.info(`150 runs of two ${CALL_MS} ms calls: ${took} ms, at most ${mostInFlight} calls in flight`);
    // Steps held in their slots would let at most SLOTS calls wait at once. How long the runs take is printed,
    // not asserted: past the calls' wait it is CPU, which this machine shares.
    expect(mostInFlight).toBeGreaterThan(100);
  }, 120_000);

  it('finishes ordinary runs in about their idle time while providers and integrators hang', async () => {
    const measured = await registerUser(h, 'Measured');
    const noisy = await registerUser(h, 'Noisy');
    const idle = await tenRunsLatency(measured);

    const base = `http://127.0.0.1:${(integrator.address() as { port: number }).port}`;
    for (const p of ['/hang', '/slow']) {
      const body = { workspaceId: noisy.workspaceId, url: `${base}${p}`, events: ['run.completed'] };
      expect((await h.request('POST', '/v1/webhook-endpoints', { token: noisy.token, body })).status).toBe(201);
    }
    // 60 runs wait on a provider that never answers; 30 complete and announce it to both endpoints.
    await startMany(60, () => report(noisy, { researcher: 'openai/gpt-4o' }));
    await allSettled(await startMany(30, () => report(noisy)), 45_000);
    const deadline = Date.now() + 20_000;
    while (hooks.hang + hooks.slow < 50 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));

    const busy = await tenRunsLatency(measured);
    console.info(`10 runs: ${idle} ms idle, ${busy} ms with 60 hung model calls and ${hooks.hang + hooks.slow} hanging deliveries`);
    expect(hooks.hang + hooks.slow).toBeGreaterThanOrEqual(50);
    expect(busy).toBeLessThan(idle * 1.5 + 1_500);
  }, 90_000);
});
