import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { insertRun, moveRunStatus, settleStep, startStep } from '@atelier/db';
import { requestRunCancel } from '@atelier/engine/operations';
import { type Harness, type TestUser, registerUser, startHarness } from '../support/harness';
import { researchRunRow } from '../support/run-rows';

/**
 * A sub-workflow child's spend reaches its parents whichever settles last (db/runs/subworkflow-rollup.ts),
 * against real PostgreSQL: a parent settled while its child's step was in flight (cancelled, or by the
 * reconciler) leaves its subWorkflow step pending, and the child settles, or bills a step, after it.
 */
let h: Harness;
let user: TestUser;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  user = await registerUser(h);
});
afterAll(() => h?.stop());

/** A running run under `parentRunId` whose step 0 spent `ownUsd` and whose step 1 is a subWorkflow step begun. */
async function runningRun(parentRunId: string | null, ownUsd: number, withChildStep: boolean): Promise<string> {
  const id = `run-${randomBytes(4).toString('hex')}`;
  await insertRun(h.db, { ...researchRunRow(id, user.workspaceId, 'running', 'tides'), parent_run_id: parentRunId });
  await startStep(h.db, { runId: id, stepIndex: 0, stepId: 'own', name: 'Own', kind: 'llm' });
  await settleStep(h.db, { runId: id, stepIndex: 0, status: 'completed', costActualUsd: ownUsd, output: {} });
  if (withChildStep) await startStep(h.db, { runId: id, stepIndex: 1, stepId: 'child', name: 'Child', kind: 'subWorkflow' });
  return id;
}

/** A tree of three running runs, top first; the leaf's step 0 (0.004) not settled yet. */
async function tree(): Promise<[string, string, string]> {
  const top = await runningRun(null, 0.001, true);
  const middle = await runningRun(top, 0.002, true);
  const leaf = `run-${randomBytes(4).toString('hex')}`;
  await insertRun(h.db, { ...researchRunRow(leaf, user.workspaceId, 'running', 'tides'), parent_run_id: middle });
  await startStep(h.db, { runId: leaf, stepIndex: 0, stepId: 'own', name: 'Own', kind: 'llm' });
  return [top, middle, leaf];
}

async function spend(runId: string) {
  const run = await h.db
    .selectFrom('runs')
    .select(['actual_usd', 'subworkflow_actual_usd'])
    .where('id', '=', runId)
    .executeTakeFirstOrThrow();
  const step = await h.db
    .selectFrom('run_steps')
    .select(['subworkflow_actual_usd', 'status'])
    .where('run_id', '=', runId)
    .where('step_index', '=', 1)
    .executeTakeFirst();
  return { own: Number(run.actual_usd), children: Number(run.subworkflow_actual_usd), step: Number(step?.subworkflow_actual_usd ?? 0) };
}

const billLeaf = (leaf: string, usd: number) =>
  settleStep(h.db, { runId: leaf, stepIndex: 0, status: 'completed', costActualUsd: usd, output: {} });

describe('a sub-workflow child settling after its parent', () => {
  it('carries its spend onto every ancestor’s pending subWorkflow step and total', async () => {
    const [top, middle, leaf] = await tree();
    await moveRunStatus(h.db, top, 'cancelled');
    await moveRunStatus(h.db, middle, 'cancelled');
    await billLeaf(leaf, 0.004);
    // Nothing moves up while the leaf still runs: a parent's total counts children as they settle.
    expect(await spend(middle)).toMatchObject({ children: 0, step: 0 });
    await moveRunStatus(h.db, leaf, 'cancelled');
    expect(await spend(middle)).toEqual({ own: 0.002, children: 0.004, step: 0.004 });
    expect(await spend(top)).toEqual({ own: 0.001, children: 0.006, step: 0.006 });
  });

  it('carries a step billed after the child settled, setting the totals, never adding to them', async () => {
    const [top, middle, leaf] = await tree();
    await moveRunStatus(h.db, leaf, 'cancelled');
    await moveRunStatus(h.db, middle, 'cancelled');
    await moveRunStatus(h.db, top, 'cancelled');
    expect(await spend(top)).toEqual({ own: 0.001, children: 0.002, step: 0.002 });
    await billLeaf(leaf, 0.004);
    expect(await spend(middle)).toEqual({ own: 0.002, children: 0.004, step: 0.004 });
    expect(await spend(top)).toEqual({ own: 0.001, children: 0.006, step: 0.006 });
    // The same settlement again (a retry) changes nothing.
    await billLeaf(leaf, 0.004);
    expect(await spend(top)).toEqual({ own: 0.001, children: 0.006, step: 0.006 });
  });

  it('updates the step that settled from the child, found by its output, and leaves the parent’s other steps alone', async () => {
    const [top, middle, leaf] = await tree();
    await billLeaf(leaf, 0.004);
    await moveRunStatus(h.db, leaf, 'completed');
    // The middle settles its step from the leaf as settleChildStep does, then a later subWorkflow step is begun.
    await settleStep(h.db, {
      runId: middle,
      stepIndex: 1,
      status: 'completed',
      output: { runId: leaf },
      costActualUsd: 0,
      subWorkflowUsd: 0.004,
    });
    await startStep(h.db, { runId: middle, stepIndex: 2, stepId: 'child-2', name: 'Child 2', kind: 'subWorkflow' });
    await moveRunStatus(h.db, middle, 'cancelled');
    expect(await spend(middle)).toEqual({ own: 0.002, children: 0.004, step: 0.004 });
    // A step of the leaf billed late lands on the step that names it, not on the pending one.
    await startStep(h.db, { runId: leaf, stepIndex: 1, stepId: 'late', name: 'Late', kind: 'llm' });
    await settleStep(h.db, { runId: leaf, stepIndex: 1, status: 'completed', costActualUsd: 0.003, output: {} });
    expect(await spend(middle)).toEqual({ own: 0.002, children: 0.007, step: 0.007 });
    const pending = await h.db
      .selectFrom('run_steps')
      .select('subworkflow_actual_usd')
      .where('run_id', '=', middle)
      .where('step_index', '=', 2)
      .executeTakeFirstOrThrow();
    expect(Number(pending.subworkflow_actual_usd)).toBe(0);
    expect(await spend(top)).toEqual({ own: 0.001, children: 0.009, step: 0.009 });
  });

  it('settles alongside a cancel of its parent asked for meanwhile, without a deadlock', async () => {
    const [, middle, leaf] = await tree();
    await billLeaf(leaf, 0.004);
    // The leaf's settlement holds the leaf, then writes its parents; the cancel locks the middle and its
    // children. Taken in opposite orders, the two would wait on each other.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const settling = h.db.transaction().execute(async (tx) => {
      await sql`SELECT id FROM runs WHERE id = ${leaf} FOR UPDATE`.execute(tx);
      await held;
      await moveRunStatus(tx, leaf, 'cancelled');
    });
    const cancelling = requestRunCancel(h.db, middle);
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await Promise.all([settling, cancelling]);
    expect(await spend(middle)).toMatchObject({ children: 0.004, step: 0.004 });
  });
});
