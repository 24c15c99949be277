import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { syncBuiltinWorkflows } from '@atelier/db';
import { type Harness, type TestUser, heardSoFar, registerUser, startHarness, waitForRun } from '../support/harness';

/** Two slow llm steps: the second, the last, settles the run itself, so a cancel can land inside it. */
const SLOW_LAST_STEP = {
  id: 'outline-twice',
  name: 'Outline twice (cancel fixture)',
  version: '2026.11.01',
  artifactClass: 'research',
  cadence: 'on-demand',
  intakeSchema: { fields: [{ name: 'topic', type: 'string', required: true }] },
  runtimeSteps: ['step-1', 'step-2'].map((id) => ({
    id,
    name: `Outline (${id})`,
    kind: 'llm',
    role: 'researcher',
    prompt: 'Outline "{{intake.topic}}"',
    jsonSchema: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } },
  })),
  gates: [],
  providers: { researcher: 'local/text-1' },
  budgetPolicy: {},
  artifactSchema: { artifactClass: 'research', artifactType: 'research-report', files: ['application/json'], metadata: [] },
  outputShape: [{ artifactClass: 'research', artifactType: 'research-report' }],
};

let h: Harness;
let user: TestUser;
let other: TestUser;

beforeAll(async () => {
  h = await startHarness({ localLatencyMs: 600 });
  user = await registerUser(h);
  other = await registerUser(h, 'Other');
  await syncBuiltinWorkflows(h.db, [SLOW_LAST_STEP as never]);
});
afterAll(() => h?.stop());

const create = (token: string, body: unknown) => h.request('POST', '/v1/runs', { token, body });

describe('run creation refuses bad input with the contract shapes', () => {
  it('reports every bad intake field at once as plain language, and records nothing', async () => {
    const before = await h.db.selectFrom('runs').select(h.db.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const res = await create(user.token, { templateId: 'plan-research-report', intake: { depth: 'enormous', extra: 1 } });
    expect(res.status).toBe(422);
    expect(res.body.detail.error).toBe('intake_invalid');
    expect(res.body.detail.fields).toEqual(['topic is required', 'depth must be one of brief, standard, deep (got "enormous")']);
    const after = await h.db.selectFrom('runs').select(h.db.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('needs templateId: a body using workflowId is a 422 naming body.templateId', async () => {
    const res = await create(user.token, { workflowId: 'plan-research-report', intake: { topic: 'x' } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([{ type: 'missing', loc: ['body', 'templateId'], msg: 'Field required', input: null }]);
  });

  it('answers wrong types with typed entries', async () => {
    const res = await create(user.token, { templateId: 42, intake: 'nope' });
    expect(res.status).toBe(422);
    const locs = res.body.detail.map((d: any) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.templateId', 'body.intake']));
    expect(res.body.detail.find((d: any) => d.loc[1] === 'templateId').input).toBe(42);
  });

  it('turns malformed JSON into a 422, never a 500', async () => {
    const res = await h.request('POST', '/v1/runs', { token: user.token, rawBody: '{"templateId": ' });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ type: 'json_invalid', loc: ['body'] });
  });

  it('ignores unknown body keys and runs silently with default models when providerOverrides is used', async () => {
    const res = await create(user.token, {
      templateId: 'plan-research-report',
      intake: { topic: 'x' },
      providerOverrides: { researcher: 'nope' },
      colour: 'blue',
    });
    expect(res.status).toBe(201);
  });

  it('404s an unknown workflow with a string detail', async () => {
    const res = await create(user.token, { templateId: 'plan-nothing-at-all', intake: {} });
    expect(res.status).toBe(404);
    expect(typeof res.body.detail).toBe('string');
  });

  it('refuses a deprecated workflow with 400 template_deprecated naming its successor', async () => {
    // Deprecated behind the gateway's back: it answers from the workflow it kept until it hears the change.
    await h.db
      .updateTable('workflows')
      .set({ status: 'deprecated', superseded_by_id: 'plan-research-report' })
      .where('id', '=', 'plan-research-report')
      .execute();
    await heardSoFar(h);
    try {
      const res = await create(user.token, { templateId: 'plan-research-report', intake: { topic: 'x' } });
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatchObject({
        code: 'template_deprecated',
        templateId: 'plan-research-report',
        supersededBy: 'plan-research-report',
      });
      expect(typeof res.body.detail.message).toBe('string');
    } finally {
      await h.db
        .updateTable('workflows')
        .set({ status: 'active', superseded_by_id: null })
        .where('id', '=', 'plan-research-report')
        .execute();
      await heardSoFar(h);
    }
  });

  it('refuses provider overrides naming an unknown model, a model of the wrong kind, or a role the workflow lacks', async () => {
    for (const providers of [{ researcher: 'local/does-not-exist' }, { researcher: 'local/image-1' }, { painter: 'local/text-1' }]) {
      const res = await create(user.token, { templateId: 'plan-research-report', intake: { topic: 'x' }, providers });
      expect(res.status).toBe(400);
      expect(res.body.detail.code).toBe('invalid_provider_override');
    }
    const pinned = await create(user.token, {
      templateId: 'plan-research-report',
      intake: { topic: 'x' },
      providers: { researcher: 'local/text-1-2026-11-01' },
    });
    expect(pinned.status).toBe(201);
    const run = await waitForRun(h, user.token, pinned.body.id);
    expect(run.runSteps[0].model).toBe('local/text-1-2026-11-01');
  });

  it('keeps other workspaces out: 404 for a foreign workspace, project or run', async () => {
    const foreignWs = await create(user.token, {
      templateId: 'plan-research-report',
      intake: { topic: 'x' },
      workspaceId: other.workspaceId,
    });
    expect(foreignWs.status).toBe(404);
    const foreignProject = await create(user.token, {
      templateId: 'plan-research-report',
      intake: { topic: 'x' },
      projectId: '00000000-0000-4000-8000-000000000000',
    });
    expect(foreignProject.status).toBe(404);
    const mine = await create(user.token, { templateId: 'plan-research-report', intake: { topic: 'x' } });
    const peek = await h.request('GET', `/v1/runs/${mine.body.id}`, { token: other.token });
    expect(peek.status).toBe(404);
    expect(typeof peek.body.detail).toBe('string');
    const cancel = await h.request('POST', `/v1/runs/${mine.body.id}/cancel`, { token: other.token });
    expect(cancel.status).toBe(404);
    const list = await h.request('GET', `/v1/runs?workspaceId=${user.workspaceId}`, { token: other.token });
    expect(list.status).toBe(404);
  });

  it('validates list paging and filters', async () => {
    for (const [query, loc] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['offset=-1', 'offset'],
      ['status=done', 'status'],
      ['workspaceId=nope', 'workspaceId'],
    ] as const) {
      const res = await h.request('GET', `/v1/runs?${query}`, { token: user.token });
      expect(res.status, query).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['query', loc]);
    }
  });

  it('requires a valid bearer credential', async () => {
    expect((await h.request('GET', '/v1/runs')).status).toBe(401);
    expect((await h.request('GET', '/v1/runs', { token: 'garbage' })).status).toBe(401);
    expect((await h.request('GET', '/v1/runs', { token: 'atl_garbage' })).status).toBe(401);
    const res = await h.request('GET', '/v1/runs', { headers: { authorization: 'Basic abc' } });
    expect(res.status).toBe(401);
    expect(res.body).toHaveProperty('detail');
  });
});

describe('cancelling a run', () => {
  it('stops at the next step boundary, keeps past spend billed, and refuses a second cancel', async () => {
    const created = await create(user.token, { templateId: 'plan-research-report', intake: { topic: 'slow things' } });
    const running = await waitForRun(h, user.token, created.body.id, (r) => r.status === 'running');
    expect(running.runSteps[0].status).toBe('pending');
    const cancel = await h.request('POST', `/v1/runs/${created.body.id}/cancel`, { token: user.token });
    expect(cancel.status).toBe(200);
    const run = await waitForRun(h, user.token, created.body.id);
    expect(run.status).toBe('cancelled');
    expect(run.runSteps[0].status).toBe('completed');
    expect(run.runSteps[1].status).toBe('pending');
    expect(run.runSteps[2].status).toBe('pending');
    expect(run.totalCosts.actualUsd).toBeGreaterThan(0);
    expect(run.artifactId).toBeNull();
    const again = await h.request('POST', `/v1/runs/${created.body.id}/cancel`, { token: user.token });
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatchObject({ code: 'invalid_transition', status: 'cancelled' });
  });
});

describe('cancelling a run in its last step', () => {
  it('ends it cancelled, not completed: the step that would settle the run sees the cancel first', async () => {
    const created = await create(user.token, { templateId: SLOW_LAST_STEP.id, intake: { topic: 'cancelled late' } });
    // The last step has begun (its row exists) and, at 600 ms a call, is still running.
    await vi.waitFor(
      async () =>
        expect(
          await h.db
            .selectFrom('run_steps')
            .select('status')
            .where('run_id', '=', created.body.id)
            .where('step_index', '=', 1)
            .executeTakeFirst(),
        ).toEqual({ status: 'pending' }),
      { timeout: 30_000, interval: 50 },
    );
    expect((await h.request('POST', `/v1/runs/${created.body.id}/cancel`, { token: user.token })).status).toBe(200);
    const run = await waitForRun(h, user.token, created.body.id);
    expect(run.status).toBe('cancelled');
    expect(run.runSteps.map((s: { status: string }) => s.status)).toEqual(['completed', 'completed']);
    expect(run.artifactId).toBeNull();

    // Left alone, the same workflow's last step settles the run.
    const plain = await create(user.token, { templateId: SLOW_LAST_STEP.id, intake: { topic: 'not cancelled' } });
    const settled = await waitForRun(h, user.token, plain.body.id);
    expect(['completed', 'review']).toContain(settled.status);
    expect(settled.artifactId).toEqual(expect.any(String));
  });
});

describe('validation entries', () => {
  it('call an absent enum field missing, like any absent field', async () => {
    const res = await h.request('POST', `/v1/queue/run-00000000/decision`, { token: user.token, body: { note: 'no decision given' } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([{ type: 'missing', loc: ['body', 'decision'], msg: 'Field required', input: null }]);
  });
});
