import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncBuiltinWorkflows } from '@atelier/db';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';

let h: Harness;
let user: TestUser;

/** A test workflow of the knowledge/article type; steps and extras vary per case. */
function workflow(id: string, runtimeSteps: unknown[], extra: Record<string, unknown> = {}) {
  return {
    id,
    name: id,
    version: '2026.11.01',
    artifactClass: 'knowledge',
    cadence: 'on-demand',
    intakeSchema: { fields: [{ name: 'text', type: 'string', required: true }] },
    runtimeSteps,
    gates: [],
    providers: { textGenerator: 'local/text-1', classifier: 'local/classifier-1' },
    budgetPolicy: {},
    artifactSchema: { artifactClass: 'knowledge', artifactType: 'article', files: ['application/json'], metadata: [] },
    outputShape: [{ artifactClass: 'knowledge', artifactType: 'article' }],
    ...extra,
  };
}

const llm = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Write ${id}`,
  kind: 'llm',
  role: 'textGenerator',
  prompt: 'Write about "{{intake.text}}"',
  ...extra,
});

const WORKFLOWS = [
  workflow('build-text-stats', [
    { id: 'step-1', name: 'Shout', kind: 'code', expression: '{ "text": intake.text, "upper": $uppercase(intake.text) }' },
    { id: 'step-2', name: 'Count', kind: 'tool', tool: 'wordCount', inputPath: 'step-1' },
    { id: 'step-3', name: 'Keywords', kind: 'tool', tool: 'extractKeywords', params: { text: '{{intake.text}}', limit: 3 } },
    {
      id: 'step-4',
      name: 'Combine',
      kind: 'code',
      expression: '{ "title": "Stats", "words": steps.`step-2`.words, "keywords": steps.`step-3`.keywords, "upper": steps.`step-1`.upper }',
    },
  ]),
  workflow('plan-with-agent', [
    {
      id: 'step-1',
      name: 'Investigate',
      kind: 'agent',
      role: 'textGenerator',
      prompt: 'Investigate "{{intake.text}}"',
      tools: ['wordCount', 'extractKeywords'],
      maxTurns: 4,
    },
  ]),
  workflow('plan-agent-limit', [
    {
      id: 'step-1',
      name: 'Investigate',
      kind: 'agent',
      role: 'textGenerator',
      prompt: 'Investigate "{{intake.text}}"',
      tools: ['wordCount', 'extractKeywords'],
      maxTurns: 2,
    },
  ]),
  workflow('plan-over-budget', [llm('step-1', { gateId: 'spend' })], {
    gates: [{ id: 'spend', name: 'Spend check', type: 'budget', inputs: [], outputs: [] }],
    budgetPolicy: { perRunCapUsd: 0.000001 },
  }),
  workflow('plan-impossible', [
    llm('step-1', {
      jsonSchema: { type: 'object', required: ['code'], properties: { code: { type: 'string', pattern: '^IMPOSSIBLE-[0-9]{40}$' } } },
    }),
  ]),
  workflow('build-partial', [
    llm('step-1', {
      emitsArtifact: true,
      jsonSchema: {
        type: 'object',
        required: ['title', 'summary'],
        properties: { title: { type: 'string' }, summary: { type: 'string' } },
      },
    }),
    { id: 'step-2', name: 'Break', kind: 'code', expression: '$error("the second step broke")' },
  ]),
  workflow('build-bad-expression', [{ id: 'step-1', name: 'Parse error', kind: 'code', expression: '{ "a": ' }]),
  workflow('compose-from-failing-child', [
    {
      id: 'step-1',
      name: 'Child',
      kind: 'subWorkflow',
      templateId: 'plan-impossible',
      templateVersion: '2026.11.01',
      intakeMapping: { text: 'intake.text' },
    },
  ]),
  workflow('plan-gates-out-of-order', [llm('step-1', { gateId: 'second' }), llm('step-2', { gateId: 'first' })], {
    gates: [
      { id: 'first', name: 'First', type: 'quality', inputs: [], outputs: [], unlocks: ['second'] },
      { id: 'second', name: 'Second', type: 'quality', inputs: [], outputs: [] },
    ],
  }),
  workflow(
    'build-thin-report',
    [
      {
        id: 'step-1',
        name: 'Thin report',
        kind: 'code',
        expression: '{ "type": "research-report", "title": "Thin", "summary": "Too thin to ship", "sections": [], "sources": [] }',
      },
    ],
    {
      artifactClass: 'research',
      artifactSchema: { artifactClass: 'research', artifactType: 'research-report', files: ['application/json'], metadata: [] },
      outputShape: [{ artifactClass: 'research', artifactType: 'research-report' }],
    },
  ),
  workflow('plan-requirement', [
    llm('step-1', {
      jsonSchema: { type: 'object', required: ['ok'], properties: { ok: { const: false } } },
      requireTrue: 'ok',
      failMessage: 'the model said no',
    }),
  ]),
];

beforeAll(async () => {
  h = await startHarness();
  user = await registerUser(h);
  await syncBuiltinWorkflows(h.db, WORKFLOWS as never);
});
afterAll(() => h?.stop());

async function run(templateId: string, text = 'the quiet economics of lighthouse keeping') {
  const created = await h.request('POST', '/v1/runs', { token: user.token, body: { templateId, intake: { text } } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return waitForRun(h, user.token, created.body.id);
}

describe('step kinds', () => {
  it('runs JSONata code steps and named tools over the run context', async () => {
    const r = await run('build-text-stats', 'lighthouse keepers keep lighthouse lamps lit');
    expect(r.status).toBe('completed');
    const artifact = (await h.request('GET', `/v1/artifacts/${r.artifactId}`, { token: user.token })).body;
    expect(artifact.content).toEqual({
      title: 'Stats',
      words: 6,
      keywords: ['lighthouse', 'keep', 'keepers'],
      upper: 'LIGHTHOUSE KEEPERS KEEP LIGHTHOUSE LAMPS LIT',
    });
    expect(r.runSteps.map((s: any) => s.costActualUsd)).toEqual([0, 0, 0, 0]);
  });

  it('runs an agent loop that calls tools and finishes, with per-turn telemetry', async () => {
    const r = await run('plan-with-agent');
    expect(r.status).toBe('completed');
    const steps = await h.db.selectFrom('run_steps').selectAll().where('run_id', '=', r.id).execute();
    const output = steps[0]!.output as any;
    expect(output.turns.map((t: any) => [t.action, t.tool ?? null])).toEqual([
      ['call_tool', 'wordCount'],
      ['call_tool', 'extractKeywords'],
      ['finish', null],
    ]);
    expect(output.turns[0].result).toMatchObject({ words: expect.any(Number) });
    for (const turn of output.turns) expect(turn.costUsd).toBeGreaterThan(0);
    const sum = output.turns.reduce((s: number, t: any) => s + t.costUsd, 0);
    expect(r.runSteps[0].costActualUsd).toBeCloseTo(sum, 6);
    expect(output.answer).toMatch(/Tool findings/);
  });

  it('fails an agent that does not finish within its turn limit, keeping the cost of its turns', async () => {
    const r = await run('plan-agent-limit');
    expect(r).toMatchObject({ status: 'failed', errorCode: 'agent_turn_limit' });
    expect(r.totalCosts.actualUsd).toBeGreaterThan(0);
    expect(r.failureDetails.turns).toHaveLength(2);
  });

  it('fails a run whose model keeps breaking the jsonSchema, after retries, with the cost of every attempt', async () => {
    const r = await run('plan-impossible');
    expect(r).toMatchObject({ status: 'failed', errorCode: 'schema_violation' });
    expect(r.error).toMatch(/after 3 attempts/);
    expect(r.runSteps[0]).toMatchObject({ status: 'failed', provider: 'local', model: 'local/text-1' });
    expect(r.totalCosts.actualUsd).toBeGreaterThan(0);
  });

  it('fails requireTrue with the failMessage', async () => {
    const r = await run('plan-requirement');
    expect(r).toMatchObject({ status: 'failed', errorCode: 'requirement_failed', error: 'the model said no' });
  });

  it('fails a code step whose expression does not parse, deterministically', async () => {
    const r = await run('build-bad-expression');
    expect(r).toMatchObject({ status: 'failed', errorCode: 'step_invalid' });
    expect(r.error).toMatch(/does not parse/);
  });
});

describe('artifacts, gates and sub-workflows', () => {
  it('keeps an emitted artifact when a later step fails', async () => {
    const r = await run('build-partial');
    expect(r).toMatchObject({ status: 'failed', errorCode: 'step_invalid' });
    expect(r.error).toMatch(/the second step broke/);
    expect(r.artifactId).toMatch(/^artifact-/);
    const artifact = (await h.request('GET', `/v1/artifacts/${r.artifactId}`, { token: user.token })).body;
    expect(artifact.status).toBe('draft');
    expect(artifact.content.summary.length).toBeGreaterThan(0);
  });

  it('holds a run whose artifact fails QA for review instead of completing it', async () => {
    const r = await run('build-thin-report');
    expect(r.status).toBe('review');
    expect(r.reviewGate).toEqual({ id: 'qa', name: 'QA hold', holdFields: [] });
    const artifact = (await h.request('GET', `/v1/artifacts/${r.artifactId}`, { token: user.token })).body;
    expect(artifact.status).toBe('review');
    expect(artifact.qa.status).toBe('failed');
    expect(artifact.qa.checks.filter((c: any) => c.status === 'fail').map((c: any) => c.id)).toEqual(['sections-complete', 'has-sources']);
  });

  it('stops a run that spends past its per-run cap at the budget gate', async () => {
    const r = await run('plan-over-budget');
    expect(r).toMatchObject({ status: 'failed', errorCode: 'budget_gate_exceeded' });
    expect(r.failureDetails).toMatchObject({ gateId: 'spend', gateType: 'budget', capUsd: 0.000001, reasons: ['per_run_cap_exceeded'] });
    expect(r.error).toMatch(/Spend check stopped the run/);
  });

  it('refuses to judge a gate before the gates that unlock it', async () => {
    const r = await run('plan-gates-out-of-order');
    expect(r).toMatchObject({ status: 'failed', errorCode: 'gate_locked' });
    expect(r.runSteps.map((s: any) => s.status)).toEqual(['failed', 'pending']);
  });

  it('fails the parent when its sub-workflow fails, naming the child', async () => {
    const r = await run('compose-from-failing-child');
    expect(r).toMatchObject({ status: 'failed', errorCode: 'sub_workflow_failed' });
    const child = await h.db.selectFrom('runs').selectAll().where('parent_run_id', '=', r.id).executeTakeFirstOrThrow();
    expect(child).toMatchObject({ status: 'failed', error_code: 'schema_violation', template_id: 'plan-impossible' });
    expect(r.failureDetails).toMatchObject({ childRunId: child.id, childStatus: 'failed', childErrorCode: 'schema_violation' });
    expect(r.error).toContain(child.id);
  });
});
