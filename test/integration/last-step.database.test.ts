import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type RunRow,
  emitArtifact,
  insertRun,
  webhookEndpointTargets,
  markCancelRequested,
  settleRunWithStep,
  settleStartedStep,
} from '@atelier/db';
import { decideRunSettlement } from '@atelier/domain/run-settlement';
import { artifactRow } from '@atelier/engine/artifacts';
import { completedWithStep, writeRunSettlement } from '@atelier/engine/settlement';
import { type Harness, type TestUser, registerUser, startHarness } from '../support/harness';
import { researchDefinition, researchRunRow } from '../support/run-rows';

/**
 * A run's last step and the run's settlement in one statement (settleRunWithStep) against real
 * PostgreSQL: it must write what the step's statement and then the settlement's (settleStartedStep, then
 * writeRunSettlement) write, row for row and event for event; and write nothing where those two must decide.
 */
let h: Harness;
let user: TestUser;
const definition = researchDefinition;
const schema = definition.artifactSchema;
const assemble = { stepId: 'step-3', name: 'Assemble the report', kind: 'code' };
const report = {
  type: 'research-report',
  title: 'Rivers: what matters now',
  summary: 'Rivers change slowly, then all at once, and the evidence on them is better than it looks.',
  sections: [
    { heading: 'Background', body: 'Rivers have been measured for a long time by many people in many places and ways.' },
    { heading: 'Now', body: 'The measurements agree more than the arguments about them suggest, on most points.' },
    { heading: 'Next', body: 'What to watch: the few places where the measurements still disagree with each other.' },
  ],
  sources: ['A survey of rivers'],
};

/** A run of workspace `workspaceId` in `status`, with `stepsDone` steps settled before its last. */
async function runAt(status: string, stepsDone: number, workspaceId = user.workspaceId): Promise<string> {
  const id = `run-${randomBytes(4).toString('hex')}`;
  await insertRun(h.db, researchRunRow(id, workspaceId, status, 'rivers'));
  for (let i = 0; i < stepsDone; i++) {
    const step = definition.runtimeSteps[i]!;
    const start = { runId: id, stepIndex: i, stepId: step.id, name: step.name, kind: step.kind, at: new Date() };
    await settleStartedStep(h.db, { runId: id, stepIndex: i, status: 'completed', output: { i }, costActualUsd: 0.001, start }, false);
  }
  return id;
}

/** The last step's settlement, as executeStep records it. */
const lastStep = (runId: string, stepIndex: number, output: unknown) => ({
  runId,
  stepIndex,
  status: 'completed' as const,
  durationMs: 3,
  costActualUsd: 0,
  output,
  providerCalls: [],
  start: { runId, stepIndex, ...assemble, at: new Date(Date.now() - 3) },
});

/** The same step and settlement written the way the one statement replaces: two statements. */
async function inTwoStatements(runId: string, stepIndex: number, output: unknown, artifactId: string): Promise<void> {
  const run = (await settleStartedStep(h.db, lastStep(runId, stepIndex, output), true)) as RunRow;
  const settlement = decideRunSettlement({
    definition,
    steps: [],
    decision: { status: 'completed', artifact: { content: output } },
  });
  await writeRunSettlement(h.db, run, settlement, { artifactId, unlessCancelRequested: true });
}

/** What a run's settlement wrote, with its own ids taken out so two runs compare. */
async function written(runId: string) {
  const run = await h.db.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
  const artifact = await h.db.selectFrom('artifacts').selectAll().where('run_id', '=', runId).executeTakeFirst();
  const steps = await h.db.selectFrom('run_steps').selectAll().where('run_id', '=', runId).orderBy('step_index').execute();
  const events = await h.db.selectFrom('run_events').select(['seq', 'type', 'data']).where('run_id', '=', runId).orderBy('seq').execute();
  const anon = (s: string) => s.replace(runId, 'RUN').replace(artifact?.id ?? '-', 'ARTIFACT');
  return {
    run: {
      status: run.status,
      actual_usd: run.actual_usd,
      cost_status: run.cost_status,
      current_step_index: run.current_step_index,
      event_seq: run.event_seq,
      error: run.error,
      error_code: run.error_code,
      failure_details: run.failure_details,
      review_gate_id: run.review_gate_id,
      review_gate_name: run.review_gate_name,
      hold_fields: run.hold_fields,
      artifact_is_its_own: run.artifact_id === artifact?.id,
      started: run.started_at instanceof Date,
      finished: run.finished_at instanceof Date,
    },
    artifact: artifact && {
      ...artifact,
      id: 'ARTIFACT',
      run_id: 'RUN',
      created_at: undefined,
      updated_at: undefined,
    },
    steps: steps.map((s) => ({ ...s, run_id: 'RUN', started_at: undefined, finished_at: undefined })),
    events: events.map((e) => [e.seq, e.type, JSON.parse(anon(JSON.stringify(e.data)))]),
  };
}

beforeAll(async () => {
  h = await startHarness({ worker: false });
  user = await registerUser(h);
});
afterAll(() => h?.stop());

describe('a last step that settles its run in one statement', () => {
  const cases: Array<[string, string, number, unknown]> = [
    ['completes a running run with its artifact', 'running', 2, report],
    ['holds an artifact whose QA fails for review (QA hold)', 'running', 2, { title: 'Thin' }],
    ['moves a queued run through running to its end when its only step settles it', 'queued', 0, report],
  ];
  for (const [name, status, stepsDone, output] of cases) {
    it(`${name}, as the two statements would`, async () => {
      const one = await runAt(status, stepsDone);
      const two = await runAt(status, stepsDone);
      const artifactId = `artifact-${randomBytes(8).toString('hex')}`;
      const settled = await settleRunWithStep(
        h.db,
        lastStep(one, stepsDone, output),
        completedWithStep(schema, { id: artifactId, content: output }, null),
      );
      await inTwoStatements(two, stepsDone, output, `artifact-${randomBytes(8).toString('hex')}`);
      const [a, b] = [await written(one), await written(two)];
      expect(a).toEqual(b);
      expect(settled).toEqual({ status: a.run.status, template_id: 'plan-research-report', gates: [] });
      expect(a.run.artifact_is_its_own).toBe(true);
      expect(a.events.at(-1)?.[1]).toBe('run.status');
    });
  }

  it('brings an artifact shipped early up to date, with no second artifact.created, as the two statements would', async () => {
    const [one, two] = [await runAt('running', 2), await runAt('running', 2)];
    const ids = [`artifact-${randomBytes(8).toString('hex')}`, `artifact-${randomBytes(8).toString('hex')}`];
    for (const [i, runId] of [one, two].entries()) {
      const run = await h.db.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
      await emitArtifact(h.db, runId, artifactRow(run, { id: ids[i]!, content: { title: 'Draft' } }, 'draft'));
    }
    await settleRunWithStep(h.db, lastStep(one, 2, report), completedWithStep(schema, { id: ids[0]!, content: report }, null));
    await inTwoStatements(two, 2, report, ids[1]!);
    const [a, b] = [await written(one), await written(two)];
    expect(a).toEqual(b);
    expect(a.events.filter((e) => e[1] === 'artifact.created')).toHaveLength(1);
    expect(a.artifact).toMatchObject({ status: 'ready', title: report.title });
  });

  it('writes nothing where the two statements must decide: a cancel asked for, an event webhook, a step begun before', async () => {
    const settle = (runId: string) =>
      settleRunWithStep(
        h.db,
        lastStep(runId, 2, report),
        completedWithStep(schema, { id: `artifact-${randomBytes(8).toString('hex')}`, content: report }, null),
      );

    const cancelled = await runAt('running', 2);
    await markCancelRequested(h.db, { runId: cancelled });
    const before = await written(cancelled);
    expect(await settle(cancelled)).toBeUndefined();
    expect(await written(cancelled)).toEqual(before);

    const other = await registerUser(h);
    await webhookEndpointTargets.insert(h.db, {
      id: `ep-${randomBytes(8).toString('hex')}`,
      workspace_id: other.workspaceId,
      url: 'https://example.com/hook',
      description: null,
      events: ['run.completed'],
      secret_sealed: 'sealed',
      created_by: null,
    });
    const subscribed = await runAt('running', 2, other.workspaceId);
    const unsubscribedBefore = await written(subscribed);
    expect(await settle(subscribed)).toBeUndefined();
    expect(await written(subscribed)).toEqual(unsubscribedBefore);

    const begun = await runAt('running', 3);
    const begunBefore = await written(begun);
    expect(await settle(begun)).toBeUndefined();
    expect(await written(begun)).toEqual(begunBefore);

    const ended = await runAt('failed', 0);
    expect(await settle(ended)).toBeUndefined();
    expect((await written(ended)).steps).toEqual([]);
  });
});
