import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun, executionClosed } from '../support/harness';

/**
 * No run is left stuck: any failure inside a run workflow settles the run before its execution closes,
 * and finalize follows the same settlement rule as the workflow (QA hold included).
 */
let h: Harness;
let user: TestUser;

const definition = (id: string, extra: Record<string, unknown>) => ({
  id,
  name: id,
  description: 'A fixture of runs.settlement.test.ts',
  version: '2026.11.01',
  cadence: 'on-demand',
  intakeSchema: { fields: [{ name: 'topic', type: 'string', required: true }] },
  gates: [],
  budgetPolicy: {},
  ...extra,
});

/** A sub-workflow step maps only `depth` into plan-research-report, whose intake requires `topic`. */
const REFUSED_CHILD = definition('compose-refused-brief', {
  artifactClass: 'knowledge',
  runtimeSteps: [
    {
      id: 'step-1',
      name: 'Research',
      kind: 'subWorkflow',
      templateId: 'plan-research-report',
      templateVersion: '2026.11.01',
      intakeMapping: { depth: 'intake.topic' },
    },
    { id: 'step-2', name: 'Write', kind: 'llm', role: 'textGenerator', prompt: 'Write about {{intake.topic}}' },
    { id: 'step-3', name: 'Keep', kind: 'code', function: 'identity', inputPath: 'step-2' },
    { id: 'step-4', name: 'Keep again', kind: 'code', function: 'identity', inputPath: 'step-3' },
  ],
  providers: { textGenerator: 'local/text-1' },
  artifactSchema: { artifactClass: 'knowledge', artifactType: 'article', files: ['application/json'], metadata: [] },
  outputShape: [{ artifactClass: 'knowledge', artifactType: 'article' }],
});

/** A research report with a title only: its QA fails (no summary, sections or sources). */
const THIN_REPORT = definition('build-thin-report', {
  artifactClass: 'research',
  runtimeSteps: [
    {
      id: 'step-1',
      name: 'Title',
      kind: 'llm',
      role: 'researcher',
      prompt: 'Title a report on "{{intake.topic}}"',
      jsonSchema: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } },
    },
    { id: 'step-2', name: 'Keep', kind: 'code', function: 'identity', inputPath: 'step-1' },
  ],
  providers: { researcher: 'local/text-1' },
  artifactSchema: { artifactClass: 'research', artifactType: 'research-report', files: ['application/json'], metadata: [] },
  outputShape: [{ artifactClass: 'research', artifactType: 'research-report' }],
});

async function publishWorkflow(def: { id: string; version: string }) {
  const created = await h.request('POST', '/v1/workflows', { token: user.token, body: { definition: def } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const published = await h.request('POST', `/v1/workflows/${def.id}/publish`, {
    token: user.token,
    body: { version: def.version, visibility: 'internal' },
  });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
}

const start = async (templateId: string, intake: Record<string, unknown>) => {
  const res = await h.request('POST', '/v1/runs', { token: user.token, body: { templateId, intake } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
};

beforeAll(async () => {
  h = await startHarness({ localLatencyMs: 50 });
  user = await registerUser(h);
  await publishWorkflow(REFUSED_CHILD);
  await publishWorkflow(THIN_REPORT);
});
afterAll(() => h?.stop());

describe('a run workflow that fails outside a step', () => {
  it('settles the run failed with the reason when the sub-workflow refuses the mapped intake', async () => {
    const runId = await start(REFUSED_CHILD.id, { topic: 'soil' });
    const run = await waitForRun(h, user.token, runId, undefined, 30_000);
    expect(run).toMatchObject({ status: 'failed', errorCode: 'step_invalid' });
    expect(run.error).toMatch(/the intake mapped to plan-research-report is invalid/);
    expect(run.error).toMatch(/topic/);
    expect(run.runSteps.map((s: any) => s.status)).toEqual(['failed', 'pending', 'pending', 'pending']);
    // The execution ended Failed after the settlement, carrying the run's outcome for on-call and parents.
    expect(await executionClosed(h, runId)).toMatchObject({ status: 'FAILED', outcome: { status: 'failed', errorCode: 'step_invalid' } });
    // No child run was recorded for the refused intake.
    expect(await h.db.selectFrom('runs').select('id').where('parent_run_id', '=', runId).execute()).toEqual([]);
    const finalize = await h.request('POST', `/v1/runs/${runId}/finalize`, { token: user.token });
    expect(finalize.status).toBe(409);

    // Its history (a failure outside a step, settled by the workflow) joins the replayed histories.
    const file = path.join(PROJECT_ROOT, 'test', 'histories', 'run-failed-sub-workflow-intake.json');
    if (!existsSync(file) || process.env.UPDATE_HISTORIES === '1') {
      await writeFile(file, `${historyToJSON(await h.temporal.workflow.getHandle(runId).fetchHistory())}\n`);
    }
  });
});

describe('finalize follows the workflow settlement rule', () => {
  it('holds an artifact whose QA fails for review, both in the workflow and in finalize from recorded steps', async () => {
    const runId = await start(THIN_REPORT.id, { topic: 'a thin report' });
    const settled = await waitForRun(h, user.token, runId);
    expect(settled).toMatchObject({ status: 'review', reviewGate: { id: 'qa' } });
    // The execution waits for the decision (run shape 6); here it is lost.
    await h.temporal.workflow.getHandle(runId).terminate('test: the workflow is lost');

    // A lost finalization: every step recorded, no artifact, no terminal status, no live workflow.
    await h.db
      .updateTable('runs')
      .set({ status: 'running', artifact_id: null, finished_at: null, review_gate_id: null, review_gate_name: null })
      .where('id', '=', runId)
      .execute();
    await h.db.deleteFrom('artifacts').where('run_id', '=', runId).execute();

    const res = await h.request('POST', `/v1/runs/${runId}/finalize`, { token: user.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'review', reviewGate: { id: 'qa' } });
    const artifact = await h.request('GET', `/v1/artifacts/${res.body.artifactId}`, { token: user.token });
    expect(artifact.body).toMatchObject({ status: 'review', qa: { status: 'failed' } });
  });
});
