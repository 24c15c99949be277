import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModelRegistry } from '@atelier/domain';
import { renderLocalClip } from '../../packages/engine/src/providers/local/video';
import { type Course, type ReplicateLoopback, startReplicateLoopback } from '../../packages/engine/test/support/replicate-loopback';
import { type Harness, type TestUser, registerUser, spawnAtelierWorker, startHarness, waitForRun } from '../support/harness';

/**
 * Long provider jobs hold no worker: a video step submits its job once, the workflow waits for the
 * provider's webhook or its next look, and a worker that dies meanwhile costs no second submission.
 * Against a loopback Replicate whose predictions run for a set time and announce their end by webhook.
 */
const KLING = 'replicate/kwaivgi/kling-v2.5-turbo-pro';
let h: Harness;
let user: TestUser;
let server: ReplicateLoopback;
let clip: Buffer;
/** How long the next predictions run; `processing`: until they are cancelled. */
let jobMs: number | 'processing' = 1_000;
const spawned: ChildProcess[] = [];

const course = (): Course =>
  jobMs === 'processing'
    ? { pendingMs: 0, status: 'processing' }
    : { pendingMs: jobMs, status: 'succeeded', files: [{ bytes: clip, contentType: 'video/mp4' }], outputAsList: false };

beforeAll(async () => {
  clip = await renderLocalClip({
    prompt: 'tide',
    seed: 'jobs',
    width: 640,
    height: 360,
    fps: 24,
    durationSeconds: 5,
    generateAudio: false,
  });
  server = await startReplicateLoopback(course);
  h = await startHarness({
    worker: false,
    providers: { replicate: { baseUrl: server.baseUrl, apiToken: server.token, maxAttempts: 2 } },
    models: buildModelRegistry(['replicate']),
  });
  user = await registerUser(h);
}, 60_000);
afterAll(async () => {
  for (const child of spawned) if (child.exitCode === null) child.kill('SIGKILL');
  await h?.stop();
  await server?.close();
});

const startVideo = async () => {
  const created = await h.request('POST', '/v1/runs', {
    token: user.token,
    body: {
      templateId: 'generate-video-clip',
      intake: { prompt: 'tide coming in', durationSeconds: 5, aspectRatio: '16:9' },
      providers: { videoGenerator: KLING },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as string;
};
const startText = async () => {
  const created = await h.request('POST', '/v1/runs', {
    token: user.token,
    body: { templateId: 'plan-research-report', intake: { topic: 'tides' } },
  });
  expect(created.status).toBe(201);
  return created.body.id as string;
};
const submissionsOf = (runId: string) =>
  h.db
    .selectFrom('provider_jobs' as never)
    .select(['submissions' as never, 'status' as never, 'job_id' as never])
    .where('run_id' as never, '=', runId as never)
    .execute() as Promise<Array<{ submissions: number; status: string; job_id: string | null }>>;
const creates = () => server.received.filter((r) => r.method === 'POST' && r.path.endsWith('/predictions'));
async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached in ${timeoutMs} ms (last ${JSON.stringify(value)})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('provider jobs', () => {
  it('resume on the provider’s webhook, not on a timer, and are submitted once', async () => {
    // The next look is a minute away: only the verified webhook can wake the run sooner.
    const worker = await h.startWorker({ providerJobs: { webhookOrigin: h.url, checkAfterMs: 60_000 } });
    try {
      jobMs = 1_500;
      const began = Date.now();
      const run = await waitForRun(h, user.token, await startVideo(), undefined, 45_000);
      expect(run.status, JSON.stringify(run.error)).toBe('completed');
      expect(Date.now() - began).toBeLessThan(30_000);
      expect(run.runSteps[1]).toMatchObject({ provider: 'replicate', model: KLING });
      expect(await submissionsOf(run.id)).toEqual([expect.objectContaining({ submissions: 1, status: 'succeeded' })]);
      const [job] = await submissionsOf(run.id);
      expect(server.delivered).toContainEqual({ predictionId: job!.job_id, url: `${h.url}/hooks/providers/replicate`, status: 204 });
      // A forged delivery is refused, whatever it names.
      const forged = server.delivery(job!.job_id!, `whsec_${Buffer.from('not the secret').toString('base64')}`);
      const refused = await fetch(`${h.url}/hooks/providers/replicate`, { method: 'POST', headers: forged.headers, body: forged.body });
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { detail: string }).detail).toMatch(/not signed/);
    } finally {
      await worker.stop();
    }
  }, 90_000);

  it('hold no activity slot while they run: text runs go at full speed beside 100 pending videos, and cancelling stops the jobs', async () => {
    // Five activity slots: if a waiting step held one, five pending videos would stop everything else.
    const worker = await h.startWorker({ maxConcurrentActivities: 5, providerJobs: { checkAfterMs: 10_000 } });
    try {
      const timeText = async () => {
        const began = Date.now();
        const ids = await Promise.all(Array.from({ length: 5 }, startText));
        const runs = await Promise.all(ids.map((id) => waitForRun(h, user.token, id, undefined, 60_000)));
        expect(runs.every((r) => r.status === 'completed')).toBe(true);
        return Date.now() - began;
      };
      const idle = await timeText();
      jobMs = 'processing';
      const videos = await Promise.all(Array.from({ length: 100 }, startVideo));
      await until(
        '100 jobs pending',
        () =>
          h.db
            .selectFrom('provider_jobs' as never)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('status' as never, '=', 'pending' as never)
            .executeTakeFirstOrThrow(),
        (row) => Number(row.n) >= 100,
      );
      const beside = await timeText();
      // Full speed: within a few times the idle time (the 100 waiting runs' looks share the machine), not
      // queued behind 100 waits, which on 5 slots would never end.
      expect(beside).toBeLessThan(idle * 3 + 5_000);

      const cancels = server.received.filter((r) => r.path.endsWith('/cancel')).length;
      await Promise.all(videos.map((id) => h.request('POST', `/v1/runs/${id}/cancel`, { token: user.token })));
      const cancelled = await Promise.all(videos.map((id) => waitForRun(h, user.token, id, undefined, 60_000)));
      expect(cancelled.every((r) => r.status === 'cancelled')).toBe(true);
      expect(cancelled[0]!.runSteps[1]).toMatchObject({ status: 'failed', error: 'cancelled with its run while the provider ran its job' });
      expect(server.received.filter((r) => r.path.endsWith('/cancel')).length - cancels).toBe(100);
      expect([...server.predictions.values()].filter((p) => p.status === 'canceled')).toHaveLength(100);
    } finally {
      await worker.stop();
    }
  }, 240_000);

  it('reattach after the worker is killed while the job runs: one submission, billed once', async () => {
    const env = {
      REPLICATE_API_TOKEN: server.token,
      REPLICATE_BASE_URL: server.baseUrl,
      ATELIER_PROVIDER_JOB_CHECK_MS: '300',
      ATELIER_EGRESS_ALLOW_PRIVATE: 'true',
    };
    const first = spawnAtelierWorker(h, 0, env);
    spawned.push(first);
    jobMs = 6_000;
    const before = creates().length;
    const runId = await startVideo();
    await until(
      'the job submitted',
      () => submissionsOf(runId),
      (rows) => rows[0]?.status === 'pending',
      90_000,
    );
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const second = spawnAtelierWorker(h, 0, env);
    spawned.push(second);
    const run = await waitForRun(h, user.token, runId, undefined, 120_000);
    expect(run.status, JSON.stringify(run.error)).toBe('completed');
    expect(creates().length - before).toBe(1);
    expect(await submissionsOf(runId)).toEqual([expect.objectContaining({ submissions: 1, status: 'succeeded' })]);
    const calls = await h.db
      .selectFrom('provider_calls')
      .selectAll()
      .where('run_id', '=', runId)
      .where('provider', '=', 'replicate')
      .execute();
    expect(calls).toHaveLength(1);
    expect(Number(calls[0]!.cost_usd)).toBeCloseTo(0.35, 6);
  }, 240_000);
});
