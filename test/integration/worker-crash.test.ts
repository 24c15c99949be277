import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, registerUser, spawnAtelierWorker, startHarness, waitForRun } from '../support/harness';

let h: Harness;
let user: TestUser;
const workers: ChildProcess[] = [];

function spawnWorker(): ChildProcess {
  const child = spawnAtelierWorker(h, 2500);
  workers.push(child);
  return child;
}

async function events(runId: string) {
  return h.db.selectFrom('run_events').selectAll().where('run_id', '=', runId).orderBy('seq').execute();
}

beforeAll(async () => {
  h = await startHarness({ worker: false });
  user = await registerUser(h);
});
afterAll(async () => {
  for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
  await h?.stop();
});

describe('a worker killed mid-run', () => {
  it('resumes the run on another worker without losing or repeating a completed step, and bills each step once', async () => {
    const first = spawnWorker();
    const created = await h.request('POST', '/v1/runs', {
      token: user.token,
      body: { templateId: 'plan-research-report', intake: { topic: 'crash recovery' } },
    });
    expect(created.status).toBe(201);
    const runId = created.body.id;

    // Kill the worker while step 2's model call is in flight (its activity takes 2.5 s).
    const deadline = Date.now() + 90_000;
    while (!(await events(runId)).some((e) => e.type === 'step.started' && (e.data as any).stepIndex === 1)) {
      if (Date.now() > deadline) throw new Error('step 2 never started');
      await new Promise((r) => setTimeout(r, 50));
    }
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const midway = await h.request('GET', `/v1/runs/${runId}`, { token: user.token });
    expect(midway.body.status).toBe('running');
    expect(midway.body.runSteps.map((s: any) => s.status)).toEqual(['completed', 'pending', 'pending']);

    spawnWorker();
    const run = await waitForRun(h, user.token, runId, undefined, 120_000);
    expect(run.status).toBe('completed');
    expect(run.artifactId).toMatch(/^artifact-/);

    const steps = await h.db.selectFrom('run_steps').selectAll().where('run_id', '=', runId).orderBy('step_index').execute();
    expect(steps.map((s) => s.status)).toEqual(['completed', 'completed', 'completed']);
    expect(steps[0]!.attempts).toBe(1);
    expect(steps[1]!.attempts).toBeGreaterThanOrEqual(2);

    const log = await events(runId);
    for (const index of [0, 1, 2]) {
      expect(log.filter((e) => e.type === 'step.completed' && (e.data as any).stepIndex === index)).toHaveLength(1);
    }
    expect(log.filter((e) => e.type === 'artifact.created')).toHaveLength(1);
    expect(log.filter((e) => e.type === 'run.status' && (e.data as any).status === 'completed')).toHaveLength(1);
    const stepCost = steps.reduce((sum, s) => sum + Number(s.cost_actual_usd), 0);
    expect(run.totalCosts.actualUsd).toBeCloseTo(stepCost, 6);
    const artifacts = await h.db.selectFrom('artifacts').select('id').where('run_id', '=', runId).execute();
    expect(artifacts).toHaveLength(1);
  }, 180_000);
});
