import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, registerUser, startHarness, startProbedWorker, stopProcess, waitForRun } from '../support/harness';
import { sampleSum } from '../support/prometheus';

/**
 * A worker keeps at most ATELIER_WORKFLOW_CACHE_SIZE executions cached between their workflow tasks
 * (engine/worker-slots.ts): with more runs waiting on their model calls than that, the others are evicted,
 * and each is replayed from its history at its next task and finishes as it would have. A real
 * `atelier worker` process with a cache of 2 and 8 runs whose model calls each take a second and a half.
 */
const CACHE = 2;
const RUNS = 8;
const MODEL_CALL_MS = 1_500;

let h: Harness;
let user: TestUser;
let worker: ChildProcess;
let workerUrl: string;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  user = await registerUser(h);
  ({ child: worker, url: workerUrl } = await startProbedWorker(h, MODEL_CALL_MS, { ATELIER_WORKFLOW_CACHE_SIZE: String(CACHE) }));
}, 180_000);

afterAll(async () => {
  await stopProcess(worker);
  await h?.stop();
});

/** The worker's Prometheus scrape. */
const scrape = () => fetch(`${workerUrl}/metrics`).then((r) => r.text());

describe('the workflow cache', () => {
  it('holds no more runs than its bound, and the runs it evicts are replayed to their end', async () => {
    const missesBefore = sampleSum(await scrape(), 'temporal_sticky_cache_miss');
    const ids = await Promise.all(
      Array.from({ length: RUNS }, async (_, i) => {
        const res = await h.request('POST', '/v1/runs', {
          token: user.token,
          body: { templateId: 'plan-research-report', intake: { topic: `cache ${i}` } },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        return res.body.id as string;
      }),
    );

    let mostCached = 0;
    let settled = false;
    const watching = (async () => {
      while (!settled) {
        // The run queue's worker: the webhook queue's has a cache of its own.
        mostCached = Math.max(mostCached, sampleSum(await scrape(), 'temporal_sticky_cache_size', { task_queue: h.taskQueue }));
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const runs = await Promise.all(ids.map((id) => waitForRun(h, user.token, id, undefined, 120_000))).finally(() => {
      settled = true;
    });
    await watching;

    for (const run of runs) {
      expect(run.status, JSON.stringify(run)).toBe('completed');
      expect(run.runSteps.length).toBeGreaterThan(0);
      for (const step of run.runSteps) expect(step.status, `${run.id} ${step.id}`).toBe('completed');
    }
    // The cache was in use, never past its bound, and runs came back to it from their histories.
    expect(mostCached).toBeGreaterThan(0);
    expect(mostCached).toBeLessThanOrEqual(CACHE);
    expect(sampleSum(await scrape(), 'temporal_sticky_cache_miss')).toBeGreaterThan(missesBefore);
  }, 180_000);
});
