import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkerMetrics } from '@atelier/engine/metrics';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';

/**
 * A worker that stops (SIGTERM, a rolling deploy) while a step waits on its provider: the step runs detached
 * from the worker's slot (activities/step-attempt.ts), so the SDK's shutdown does not wait for it; the worker
 * drains it (activities/detached-steps.ts) so that it settles and reports before the connection closes, and the
 * run goes on on another worker with no second attempt. And a worker at its limit of detached steps: an attempt
 * waits in its slot for room, heartbeating, so that Temporal does not take it for dead and start another. A
 * step that ends within DETACH_AFTER_MS never detaches: the SDK reports it with its slot.
 */
const CALL_MS = 3_000;
let h: Harness;
let user: TestUser;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  user = await registerUser(h);
}, 60_000);

afterAll(async () => {
  await h?.stop();
});

const steps = (runId: string) =>
  h.db.selectFrom('run_steps').select(['step_index', 'status', 'attempts']).where('run_id', '=', runId).orderBy('step_index').execute();

describe('a worker stopping with steps in flight', () => {
  it('lets the step finish and report before it stops, and the run goes on elsewhere with every step attempted once', async () => {
    const first = await h.startWorker({ localLatencyMs: CALL_MS });
    const created = await h.request('POST', '/v1/runs', {
      token: user.token,
      body: { templateId: 'plan-research-report', intake: { topic: 'draining' } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const runId: string = created.body.id;

    // The first step's model call is in flight once its start is written (after STEP_START_DEFER_MS).
    const deadline = Date.now() + 30_000;
    while (!(await steps(runId)).some((s) => s.step_index === 0)) {
      if (Date.now() > deadline) throw new Error('the first step never started');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await steps(runId))[0]?.status).not.toBe('completed');

    await first.stop();
    // Settled before the worker let go of its connection, and reported: not left to a heartbeat timeout.
    expect((await steps(runId))[0]).toMatchObject({ status: 'completed', attempts: 1 });

    const resumedAt = Date.now();
    const second = await h.startWorker({ localLatencyMs: 0 });
    const run = await waitForRun(h, user.token, runId, undefined, 30_000);
    expect(run.status, run.error).toBe('completed');
    // The next step was scheduled when the first one's completion was reported, not 15 s later when its
    // heartbeat would have timed out.
    expect(Date.now() - resumedAt).toBeLessThan(10_000);
    for (const step of await steps(runId)) expect(step.attempts, `step ${step.step_index}`).toBe(1);
    await second.stop();
  }, 90_000);
});

describe('a worker whose detached steps are at their limit', () => {
  it('keeps an attempt that waits for room among the detached ones heartbeating, so it is not taken for dead', async () => {
    // Room for one detached attempt: of two runs, one step waits in its slot while the other's model call runs.
    const worker = await h.startWorker({ localLatencyMs: 6_000, maxDetachedSteps: 1 });
    const start = async () => {
      const created = await h.request('POST', '/v1/runs', {
        token: user.token,
        body: { templateId: 'plan-research-report', intake: { topic: 'waiting for room' } },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.id as string;
    };
    const ids = [await start(), await start()];
    // Undefined until the dispatcher has handed the run to Temporal.
    const pendingStep = async (runId: string) =>
      (
        await h.temporal.workflow
          .getHandle(runId)
          .describe()
          .catch(() => undefined)
      )?.raw.pendingActivities?.find((a) => a.activityType?.name === 'executeStep');

    // The waiting one is the run whose first step has not started, with its activity pending all the same.
    const deadline = Date.now() + 30_000;
    let waiting: string | undefined;
    while (!waiting) {
      if (Date.now() > deadline) throw new Error('no step waited for room');
      const started = await Promise.all(ids.map(async (id) => (await steps(id)).length > 0));
      const pending = await Promise.all(ids.map(pendingStep));
      waiting = ids.find((_, i) => started[1 - i] && !started[i] && pending[i]);
      await new Promise((r) => setTimeout(r, 100));
    }
    // Past two heartbeat periods, still waiting (the other call takes 6 s): its heartbeats have reached Temporal.
    await new Promise((r) => setTimeout(r, 4_500));
    expect(await steps(waiting)).toHaveLength(0);
    const pending = await pendingStep(waiting);
    expect(pending?.lastHeartbeatTime, 'the waiting attempt sent no heartbeat').toBeTruthy();
    expect(pending?.attempt).toBe(1);

    for (const id of ids) expect((await waitForRun(h, user.token, id, undefined, 90_000)).status).toBe('completed');
    for (const id of ids) for (const step of await steps(id)) expect(step.attempts, `${id} step ${step.step_index}`).toBe(1);
    await worker.stop();
  }, 120_000);
});

describe('where a step attempt ends', () => {
  const attemptsEnded = async (metrics: ReturnType<typeof createWorkerMetrics>) => {
    const { values } = await metrics.stepAttempts.get();
    return Object.fromEntries(values.map((v) => [v.labels.ended, v.value]));
  };
  const completedRun = async () => {
    const created = await h.request('POST', '/v1/runs', {
      token: user.token,
      body: { templateId: 'plan-research-report', intake: { topic: 'where attempts end' } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const run = await waitForRun(h, user.token, created.body.id, undefined, 30_000);
    expect(run.status, run.error).toBe('completed');
    for (const step of await steps(created.body.id)) expect(step.attempts, `step ${step.step_index}`).toBe(1);
  };

  it('in its slot when the step ends within the window, detached when its model call outlasts it', async () => {
    // A window no step of a quick run outlasts, however loaded the machine: each attempt ends in its slot.
    const quickMetrics = createWorkerMetrics();
    const quick = await h.startWorker({ localLatencyMs: 0, metrics: quickMetrics, detachAfterMs: 10_000 });
    await completedRun();
    await quick.stop();
    // The two model calls, each reported with its slot. The code step is a quick step (run shape 7): it ran
    // in a local activity, inside a workflow task, with no slot to end in.
    expect(await attemptsEnded(quickMetrics)).toEqual({ slot: 2 });

    // The default window (250 ms) against model calls of 1 s: both detach and report through the client.
    const slowMetrics = createWorkerMetrics();
    const slow = await h.startWorker({ localLatencyMs: 1_000, metrics: slowMetrics });
    await completedRun();
    await slow.stop();
    expect(await attemptsEnded(slowMetrics)).toEqual({ detached: 2 });
  }, 90_000);
});
