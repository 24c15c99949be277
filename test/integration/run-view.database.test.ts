import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import {
  type Db,
  getRunRow,
  getRunSteps,
  insertRun,
  listRunDecisions,
  listRuns,
  providerSpendByStep,
  readRunView,
  settleStartedStep,
} from '@atelier/db';
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
  const call = { runId, stepIndex: index, stepAttempt: 1, provider: 'local', model: 'local-text', costUsd: usd };
  const providerCalls = [
    { ...call, callKey: 'first' },
    { ...call, callKey: 'second', costUsd: usd / 4 },
  ];
  await settleStartedStep(
    db,
    { runId, stepIndex: index, status: 'completed', output: { index }, costActualUsd: usd, providerCalls, start },
    false,
  );
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

/** A new run of the research workflow, its first step settled for 0.001 USD. */
async function runWithFirstStep(topic: string): Promise<string> {
  const runId = `run-${randomBytes(4).toString('hex')}`;
  await insertRun(h.db, researchRunRow(runId, user.workspaceId, 'queued', topic));
  await settle(h.db, runId, 0, 0.001);
  return runId;
}

/** `h.db`, with step 2 of `runId` settling (0.002 USD) between the first statement and the rest. */
const settlingMeanwhile = (runId: string) => pausedAfterFirstStatement(h.db, () => settle(h.db, runId, 1, 0.002));

describe('readRunView', () => {
  it('shows a step settled while it is read wholly or not at all', async () => {
    const runId = await runWithFirstStep('consistent views');

    const view = await readRunView(settlingMeanwhile(runId), runId);

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

  it('gives the run, steps, decisions and spend that reading each apart gives, typed alike', async () => {
    const runId = `run-${randomBytes(4).toString('hex')}`;
    await insertRun(h.db, researchRunRow(runId, user.workspaceId, 'queued', 'a whole view'));
    await settle(h.db, runId, 0, 0.0012);
    await settle(h.db, runId, 1, 0.5);
    for (const decision of ['request_changes', 'approve'] as const) {
      await h.db
        .insertInto('run_decisions')
        .values({
          id: randomUUID(),
          run_id: runId,
          gate_id: 'review',
          decision,
          note: `${decision} it`,
          patch: JSON.stringify({ topic: 'rivers' }),
          decided_by: user.userId,
          decided_via: 'api',
        })
        .execute();
    }

    const view = (await readRunView(h.db, runId))!;
    const numeric = <R extends { cost_actual_usd: unknown; subworkflow_actual_usd: unknown }>(r: R) => ({
      ...r,
      cost_actual_usd: Number(r.cost_actual_usd),
      subworkflow_actual_usd: Number(r.subworkflow_actual_usd),
    });
    expect(view.run).toEqual(await getRunRow(h.db, runId));
    expect(view.steps.map(numeric)).toEqual((await getRunSteps(h.db, runId)).map(numeric));
    expect(view.steps[0]!.started_at).toBeInstanceOf(Date);
    expect(view.decisions).toEqual(await listRunDecisions(h.db, [runId]));
    expect(view.decisions.map((d) => d.decision)).toEqual(['request_changes', 'approve']);
    expect(view.spend).toEqual(await providerSpendByStep(h.db, runId));
    expect(view.spend).toEqual(
      new Map([
        [0, 0.0015],
        [1, 0.625],
      ]),
    );
  });

  it('lists a page of runs whose steps agree with their totals while a step settles', async () => {
    const runId = await runWithFirstStep('consistent lists');

    const page = await listRuns(settlingMeanwhile(runId), { workspaceId: user.workspaceId, offset: 0, limit: 50 });

    const run = page.items.find((r) => r.id === runId)!;
    const steps = page.steps.filter((s) => s.run_id === runId);
    expect(steps.map((s) => s.step_index)).toEqual([0]);
    expect(Number(run.actual_usd)).toBeCloseTo(0.001, 9);
  });

  it('is undefined for a run that does not exist', async () => {
    expect(await readRunView(h.db, 'run-none')).toBeUndefined();
  });
});
