import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import { type Db, insertRun, listRuns, readRunView, settleStartedStep } from '@atelier/db';
import { type Harness, type TestUser, registerUser, startHarness } from '../support/harness';
import { researchDefinition, researchRunRow } from '../support/run-rows';

/**
 * A run read whole (readRunView: what GET /v1/runs/{id} and an event stream's snapshot show), and a page of
 * runs with their steps (listRuns: GET /v1/runs), against real PostgreSQL: a step settled while they are being
 * read is either wholly in them (the step and its cost in the run's totals) or wholly out, never the step
 * without its cost.
 */
let h: Harness;
let user: TestUser;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  user = await registerUser(h);
});
afterAll(async () => {
  await h?.stop();
});

/** Settles step `index` of the research workflow on `runId`, costing `usd`, as a quick step's statement does. */
async function settle(db: Db, runId: string, index: number, usd: number) {
  const step = researchDefinition.runtimeSteps[index]!;
  const start = { runId, stepIndex: index, stepId: step.id, name: step.name, kind: step.kind, at: new Date() };
  await settleStartedStep(db, { runId, stepIndex: index, status: 'completed', output: { index }, costActualUsd: usd, start }, false);
}

/** `db`, but the first statement's answer waits for `meanwhile`, which commits on another connection. */
function pausedAfterFirstStatement(db: Db, meanwhile: () => Promise<void>): Db {
  let paused = false;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      if (!paused) {
        paused = true;
        await meanwhile();
      }
      return args.result;
    },
  };
  return db.withPlugin(plugin);
}

describe('readRunView', () => {
  it('shows a step settled between its statements wholly or not at all', async () => {
    const runId = `run-${randomBytes(4).toString('hex')}`;
    await insertRun(h.db, researchRunRow(runId, user.workspaceId, 'queued', 'consistent views'));
    await settle(h.db, runId, 0, 0.001);

    const view = await readRunView(
      pausedAfterFirstStatement(h.db, () => settle(h.db, runId, 1, 0.002)),
      runId,
    );

    expect(view).toBeDefined();
    const stepsUsd = view!.steps.reduce((sum, s) => sum + Number(s.cost_actual_usd), 0);
    expect(view!.steps.map((s) => s.step_index)).toEqual([0]);
    expect(Number(view!.run.actual_usd)).toBeCloseTo(stepsUsd, 9);
    expect(view!.run.current_step_index).toBe(0);

    // Read again, the second step is there with its cost.
    const after = (await readRunView(h.db, runId))!;
    expect(after.steps.map((s) => s.step_index)).toEqual([0, 1]);
    expect(Number(after.run.actual_usd)).toBeCloseTo(0.003, 9);
  });

  it('lists a page of runs whose steps agree with their totals while a step settles', async () => {
    const runId = `run-${randomBytes(4).toString('hex')}`;
    await insertRun(h.db, researchRunRow(runId, user.workspaceId, 'queued', 'consistent lists'));
    await settle(h.db, runId, 0, 0.001);

    const page = await listRuns(
      pausedAfterFirstStatement(h.db, () => settle(h.db, runId, 1, 0.002)),
      { workspaceId: user.workspaceId, offset: 0, limit: 50 },
    );

    const run = page.items.find((r) => r.id === runId)!;
    const steps = page.steps.filter((s) => s.run_id === runId);
    expect(steps.map((s) => s.step_index)).toEqual([0]);
    expect(Number(run.actual_usd)).toBeCloseTo(0.001, 9);
  });

  it('is undefined for a run that does not exist', async () => {
    expect(await readRunView(h.db, 'run-none')).toBeUndefined();
  });
});
