import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, createApiKey, registerUser, startHarness, waitForRun } from '../support/harness';

let h: Harness;
let owner: TestUser;
let reviewer: TestUser;
let projectId: string;

const USAGE = { name: 'usage', type: 'enum', options: ['web', 'print', 'social', 'internal'] };

beforeAll(async () => {
  h = await startHarness();
  owner = await registerUser(h, 'Owner');
  reviewer = await registerUser(h, 'Reviewer');
  const added = await h.request('POST', `/v1/workspaces/${owner.workspaceId}/members`, {
    token: owner.token,
    body: { email: reviewer.email, role: 'member' },
  });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  const project = await h.request('POST', `/v1/workspaces/${owner.workspaceId}/projects`, {
    token: owner.token,
    body: { name: 'Spring catalogue' },
  });
  expect(project.status, JSON.stringify(project.body)).toBe(201);
  projectId = project.body.id;
});
afterAll(() => h?.stop());

async function finishedRun(templateId: string, intake: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const created = await h.request('POST', '/v1/runs', { token: owner.token, body: { templateId, intake, ...extra } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return waitForRun(h, owner.token, created.body.id);
}

async function reviewRun(product: string, extra: Record<string, unknown> = {}) {
  const run = await finishedRun('generate-product-shot', { product }, extra);
  expect(run.status, JSON.stringify(run)).toBe('review');
  return run;
}

const queue = (token: string, query = '') => h.request('GET', `/v1/queue${query}`, { token });
const count = (token: string, query = '') => h.request('GET', `/v1/queue/count${query}`, { token });
const decide = (token: string, runId: string, body: unknown) => h.request('POST', `/v1/queue/${runId}/decision`, { token, body });
const artifactOf = async (run: any) => (await h.request('GET', `/v1/artifacts/${run.artifactId}`, { token: owner.token })).body;

let first: any;
let second: any;

describe('the review queue', () => {
  it('lists the runs waiting for review, oldest first, with gate, artifact, QA and held fields', async () => {
    first = await reviewRun('a ceramic teapot');
    const [inProject, research, archived] = await Promise.all([
      reviewRun('a linen apron', { projectId }),
      finishedRun('plan-research-report', { topic: 'tea ceremonies' }),
      reviewRun('a copper kettle'),
    ]);
    second = inProject;
    expect(research.status).toBe('completed');
    expect((await h.request('POST', `/v1/runs/${archived.id}/archive`, { token: owner.token })).status).toBe(200);

    const list = await queue(owner.token);
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    expect(list.body.items.map((i: any) => i.runId)).toEqual([first.id, second.id]);
    const item = list.body.items[0];
    const artifact = await artifactOf(first);
    expect(item).toEqual({
      runId: first.id,
      templateId: 'generate-product-shot',
      templateName: first.templateName,
      workspaceId: owner.workspaceId,
      projectId: null,
      gateId: 'client-approval',
      gateName: 'Client approval',
      status: 'review',
      artifactId: first.artifactId,
      artifactTitle: artifact.title,
      artifactStatus: 'review',
      // The intake's first two values in the workflow's field order: product, then the setting it defaulted to.
      intakeSummary: `${first.intake.product} · ${first.intake.setting}`,
      qa: artifact.qa,
      holdFields: [USAGE],
      queuedAt: first.queuedAt,
      createdAt: first.createdAt,
      enteredReviewAt: first.finishedAt,
    });
    expect(list.body.items[1]).toMatchObject({ projectId, artifactId: second.artifactId });
  });

  it('filters by project and template, pages, and counts with the same filters', async () => {
    expect((await queue(owner.token, `?projectId=${projectId}`)).body).toMatchObject({ total: 1, items: [{ runId: second.id }] });
    expect((await queue(owner.token, '?templateId=generate-product-shot')).body.total).toBe(2);
    expect((await queue(owner.token, '?templateId=plan-research-report')).body).toEqual({ items: [], total: 0 });
    const page = await queue(owner.token, `?workspaceId=${owner.workspaceId}&offset=1&limit=1`);
    expect(page.body).toMatchObject({ total: 2, items: [{ runId: second.id }] });
    expect(page.body.items).toHaveLength(1);

    expect((await count(owner.token)).body).toEqual({ count: 2 });
    expect((await count(owner.token, `?projectId=${projectId}`)).body).toEqual({ count: 1 });
    expect((await count(owner.token, '?templateId=plan-research-report')).body).toEqual({ count: 0 });
  });

  it('shows a member of the workspace (a reviewer) the same queue when they name the workspace', async () => {
    const list = await queue(reviewer.token, `?workspaceId=${owner.workspaceId}`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((i: any) => i.runId)).toEqual([first.id, second.id]);
    // Their own default workspace has nothing waiting.
    expect((await count(reviewer.token)).body).toEqual({ count: 0 });
  });
});

describe('decisions', () => {
  it('approves with the hold patch: run completed, artifact approved with the hold, ledger entry with who and when', async () => {
    const before = Date.now();
    const res = await decide(reviewer.token, first.id, {
      decision: 'approve',
      note: 'Lovely light',
      patch: { usage: 'web' },
      gateId: 'client-approval',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: first.id, status: 'completed' });

    const run = (await h.request('GET', `/v1/runs/${first.id}`, { token: owner.token })).body;
    expect(run.status).toBe('completed');
    expect(run.finishedAt).toBe(first.finishedAt);
    expect(run.decisions).toEqual([
      {
        decision: 'approve',
        note: 'Lovely light',
        gateId: 'client-approval',
        patch: { usage: 'web' },
        who: reviewer.userId,
        via: 'session',
        when: expect.any(String),
      },
    ]);
    expect(Date.parse(run.decisions[0].when)).toBeGreaterThanOrEqual(before - 1000);

    const artifact = await artifactOf(first);
    expect(artifact.status).toBe('approved');
    expect(artifact.content.hold).toEqual({ usage: 'web' });
    expect(artifact.content.storageKey).toBe(`artifacts/product-shot/${first.artifactId}/raw.webp`);

    const events = await h.db
      .selectFrom('run_events')
      .selectAll()
      .where('run_id', '=', first.id)
      .where('type', '=', 'run.status')
      .orderBy('seq')
      .execute();
    expect(events.map((e) => (e.data as any).status).slice(-2)).toEqual(['review', 'completed']);
    expect(events.at(-1)!.data).toMatchObject({ status: 'completed', decision: 'approve', gateId: 'client-approval' });

    expect((await queue(owner.token)).body.items.map((i: any) => i.runId)).toEqual([second.id]);
    expect((await count(owner.token)).body).toEqual({ count: 1 });
  });

  it('rejects: run rejected, artifact rejected, recorded as decided through the API key', async () => {
    const key = await createApiKey(h, owner);
    const res = await decide(key, second.id, { decision: 'reject', note: 'Wrong apron colour' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).toBe('rejected');
    expect(res.body.decisions).toEqual([
      {
        decision: 'reject',
        note: 'Wrong apron colour',
        gateId: 'client-approval',
        patch: null,
        who: owner.userId,
        via: 'api_key',
        when: expect.any(String),
      },
    ]);
    expect((await artifactOf(second)).status).toBe('rejected');
    expect((await count(owner.token)).body).toEqual({ count: 0 });
  });

  it('requests changes: run changes_requested, artifact back to draft, no patch needed', async () => {
    const run = await reviewRun('a walnut tray');
    const res = await decide(owner.token, run.id, { decision: 'request_changes', note: 'Warmer background please' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      status: 'changes_requested',
      decisions: [{ decision: 'request_changes', note: 'Warmer background please', who: owner.userId }],
    });
    const artifact = await artifactOf(run);
    expect(artifact.status).toBe('draft');
    expect(artifact.content.hold).toBeUndefined();
  });

  it('lets exactly one of several simultaneous decisions on a run win; the others get 409', async () => {
    const run = await reviewRun('a glass carafe');
    const bodies = [
      { decision: 'approve', patch: { usage: 'print' } },
      { decision: 'reject' },
      { decision: 'request_changes' },
      { decision: 'approve', patch: { usage: 'social' } },
      { decision: 'reject', note: 'late' },
    ];
    const results = await Promise.all(bodies.map((b) => decide(owner.token, run.id, b)));
    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    const losers = results.filter((r) => r.status !== 200);
    expect(losers.map((r) => r.status)).toEqual([409, 409, 409, 409]);
    for (const r of losers) expect(r.body.detail).toMatchObject({ code: 'invalid_transition', status: winners[0]!.body.status });

    const ledger = await h.db.selectFrom('run_decisions').selectAll().where('run_id', '=', run.id).execute();
    expect(ledger).toHaveLength(1);
    const statusEvents = await h.db
      .selectFrom('run_events')
      .select('data')
      .where('run_id', '=', run.id)
      .where('type', '=', 'run.status')
      .execute();
    expect(statusEvents.filter((e) => (e.data as any).decision)).toHaveLength(1);
  });
});

describe('the batch endpoint', () => {
  it('validates and applies each entry on its own, answering per entry like the single endpoint', async () => {
    const [r1, r2] = await Promise.all([reviewRun('a cork coaster'), reviewRun('a brass spoon')]);
    const res = await h.request('POST', '/v1/queue/decisions', {
      token: reviewer.token,
      body: {
        decisions: [
          { runId: r1.id, decision: 'approve', patch: { usage: 'social' }, note: 'batch ok' },
          { runId: first.id, decision: 'reject' },
          { runId: 'run-ffffffff', decision: 'approve' },
          { runId: r2.id, decision: 'maybe' },
          { runId: r2.id, decision: 'approve', patch: { usage: 'billboard' } },
          { runId: r2.id, decision: 'approve', patch: {} },
          { runId: r2.id, decision: 'reject', note: 'off-brand' },
          { runId: r1.id, decision: 'reject' },
          { decision: 'approve' },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { results } = res.body;
    expect(res.body).toMatchObject({ succeeded: 2, failed: 7 });
    expect(results).toHaveLength(9);
    expect(results[0]).toEqual({ runId: r1.id, ok: true, status: 'completed' });
    expect(results[1]).toMatchObject({
      runId: first.id,
      ok: false,
      statusCode: 409,
      detail: { code: 'invalid_transition', status: 'completed' },
    });
    expect(results[2]).toMatchObject({ runId: 'run-ffffffff', ok: false, statusCode: 404 });
    expect(typeof results[2].detail).toBe('string');
    expect(results[3]).toMatchObject({ runId: r2.id, ok: false, statusCode: 422 });
    expect(results[3].detail).toEqual([
      expect.objectContaining({ type: 'invalid_value', loc: ['body', 'decisions', 3, 'decision'], input: 'maybe' }),
    ]);
    expect(results[4]).toMatchObject({ ok: false, statusCode: 422, detail: { code: 'hold_value_invalid', fields: ['usage'] } });
    expect(results[5]).toMatchObject({ ok: false, statusCode: 422, detail: { code: 'hold_patch_invalid', missing: ['usage'], extra: [] } });
    expect(results[6]).toEqual({ runId: r2.id, ok: true, status: 'rejected' });
    expect(results[7]).toMatchObject({
      runId: r1.id,
      ok: false,
      statusCode: 409,
      detail: { code: 'invalid_transition', status: 'completed' },
    });
    expect(results[8]).toEqual({
      runId: null,
      ok: false,
      statusCode: 422,
      detail: [{ type: 'missing', loc: ['body', 'decisions', 8, 'runId'], msg: 'Field required', input: null }],
    });

    const one = (await h.request('GET', `/v1/runs/${r1.id}`, { token: owner.token })).body;
    expect(one).toMatchObject({
      status: 'completed',
      decisions: [{ decision: 'approve', note: 'batch ok', patch: { usage: 'social' }, who: reviewer.userId }],
    });
    expect((await artifactOf(r1)).content.hold).toEqual({ usage: 'social' });
    const two = (await h.request('GET', `/v1/runs/${r2.id}`, { token: owner.token })).body;
    expect(two).toMatchObject({ status: 'rejected', decisions: [{ decision: 'reject', note: 'off-brand' }] });
    expect((await artifactOf(r2)).status).toBe('rejected');
  });
});
