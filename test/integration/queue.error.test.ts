import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, createApiKey, registerUser, startHarness, waitForRun } from '../support/harness';

let h: Harness;
let owner: TestUser;
let outsider: TestUser;
let held: any;
let finished: any;

async function finishedRun(templateId: string, intake: Record<string, unknown>) {
  const created = await h.request('POST', '/v1/runs', { token: owner.token, body: { templateId, intake } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return waitForRun(h, owner.token, created.body.id);
}

beforeAll(async () => {
  h = await startHarness();
  owner = await registerUser(h, 'Owner');
  outsider = await registerUser(h, 'Outsider');
  [held, finished] = await Promise.all([
    finishedRun('generate-product-shot', { product: 'a stoneware mug' }),
    finishedRun('plan-research-report', { topic: 'glazes' }),
  ]);
  expect(held.status).toBe('review');
  expect(finished.status).toBe('completed');
});
afterAll(() => h?.stop());

const decide = (token: string | undefined, runId: string, body: unknown) =>
  h.request('POST', `/v1/queue/${runId}/decision`, { token, body });
const batch = (token: string | undefined, body: unknown) => h.request('POST', '/v1/queue/decisions', { token, body });

async function expectUntouched() {
  const run = (await h.request('GET', `/v1/runs/${held.id}`, { token: owner.token })).body;
  expect(run.status).toBe('review');
  expect(run.decisions).toEqual([]);
  const artifact = (await h.request('GET', `/v1/artifacts/${held.artifactId}`, { token: owner.token })).body;
  expect(artifact.status).toBe('review');
  expect(artifact.content.hold).toBeUndefined();
}

describe('approval refusals', () => {
  it('blocks approval while a QA check fails or is pending, naming the blocking checks', async () => {
    const qa = {
      status: 'failed',
      checks: [
        { id: 'framing', label: 'Product fully in frame', status: 'pass', detail: 'ok' },
        { id: 'colour', label: 'Brand colours', status: 'fail', detail: 'background too cold' },
        { id: 'legal', label: 'Logo clearance', status: 'pending', detail: 'awaiting legal' },
      ],
    };
    await h.db
      .updateTable('artifacts')
      .set({ qa: JSON.stringify(qa) })
      .where('id', '=', held.artifactId)
      .execute();
    try {
      const res = await decide(owner.token, held.id, { decision: 'approve', patch: { usage: 'web' } });
      expect(res.status).toBe(409);
      expect(res.body.detail).toEqual({
        code: 'approval_blocked',
        checks: [qa.checks[1], qa.checks[2]],
        message: 'approval is blocked by QA: Brand colours is fail; Logo clearance is pending',
      });
      const queued = await h.request('GET', '/v1/queue', { token: owner.token });
      expect(queued.body.items[0].qa).toEqual(qa);
      await expectUntouched();
    } finally {
      await h.db
        .updateTable('artifacts')
        .set({ qa: JSON.stringify({ status: 'passed', checks: [] }) })
        .where('id', '=', held.artifactId)
        .execute();
    }
  });

  it('needs a patch releasing the hold: missing fields are named', async () => {
    for (const body of [{ decision: 'approve' }, { decision: 'approve', patch: {} }, { decision: 'approve', patch: null }]) {
      const res = await decide(owner.token, held.id, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail).toMatchObject({ code: 'hold_patch_invalid', missing: ['usage'], extra: [] });
      expect(res.body.detail.message).toMatch(/exactly the held fields \(usage\): missing usage/);
    }
    await expectUntouched();
  });

  it('refuses fields the hold did not declare, alone or with missing ones', async () => {
    const extra = await decide(owner.token, held.id, { decision: 'approve', patch: { usage: 'web', colour: 'red' } });
    expect(extra.status).toBe(422);
    expect(extra.body.detail).toMatchObject({
      code: 'hold_patch_invalid',
      missing: [],
      extra: ['colour'],
      message: expect.stringContaining('colour'),
    });
    const both = await decide(owner.token, held.id, { decision: 'approve', patch: { colour: 'red' } });
    expect(both.status).toBe(422);
    expect(both.body.detail).toMatchObject({ code: 'hold_patch_invalid', missing: ['usage'], extra: ['colour'] });
    await expectUntouched();
  });

  it('refuses an uncategorized or wrongly typed value, naming the field', async () => {
    const uncategorized = await decide(owner.token, held.id, { decision: 'approve', patch: { usage: 'billboard' } });
    expect(uncategorized.status).toBe(422);
    expect(uncategorized.body.detail).toEqual({
      code: 'hold_value_invalid',
      fields: ['usage'],
      errors: ['usage must be one of web, print, social, internal (got "billboard")'],
      message: 'uncategorized value: usage must be one of web, print, social, internal (got "billboard")',
    });
    const typed = await decide(owner.token, held.id, { decision: 'approve', patch: { usage: 3 } });
    expect(typed.status).toBe(422);
    expect(typed.body.detail).toMatchObject({ code: 'hold_value_invalid', fields: ['usage'] });
    await expectUntouched();
  });

  it('refuses a gate the run does not wait on with 409 gate_mismatch', async () => {
    const res = await decide(owner.token, held.id, { decision: 'reject', gateId: 'legal-approval' });
    expect(res.status).toBe(409);
    expect(res.body.detail).toEqual({
      code: 'gate_mismatch',
      gateId: 'legal-approval',
      reviewGateId: 'client-approval',
      message: `run ${held.id} waits on gate "client-approval", not "legal-approval"`,
    });
    await expectUntouched();
  });

  it('refuses a decision on a run that is not in review with 409 invalid_transition naming its status', async () => {
    for (const decision of ['approve', 'reject', 'request_changes']) {
      const res = await decide(owner.token, finished.id, { decision });
      expect(res.status).toBe(409);
      expect(res.body.detail).toEqual({
        code: 'invalid_transition',
        status: 'completed',
        message: `run ${finished.id} is completed, not in review`,
      });
    }
    const run = (await h.request('GET', `/v1/runs/${finished.id}`, { token: owner.token })).body;
    expect(run).toMatchObject({ status: 'completed', decisions: [] });
  });
});

describe('request validation', () => {
  it('answers a missing or unknown decision and a non-object patch with 422 entries', async () => {
    const missing = await decide(owner.token, held.id, { note: 'hm' });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'decision'], input: null })]);
    const unknown = await decide(owner.token, held.id, { decision: 'maybe' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0]).toMatchObject({ loc: ['body', 'decision'], input: 'maybe' });
    const patch = await decide(owner.token, held.id, { decision: 'approve', patch: ['web'] });
    expect(patch.status).toBe(422);
    expect(patch.body.detail[0].loc).toEqual(['body', 'patch']);
    const raw = await h.request('POST', `/v1/queue/${held.id}/decision`, { token: owner.token, rawBody: '{"decision": ' });
    expect(raw.status).toBe(422);
    await expectUntouched();
  });

  it('answers a batch entry missing its decision with exactly the entry the single endpoint gives, located in the batch', async () => {
    const single = await decide(owner.token, held.id, { note: 'hm' });
    expect(single.status).toBe(422);
    expect(single.body.detail).toEqual([{ type: 'missing', loc: ['body', 'decision'], msg: 'Field required', input: null }]);
    const res = await batch(owner.token, { decisions: [{ runId: held.id, note: 'hm' }] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      results: [
        { runId: held.id, ok: false, statusCode: 422, detail: [{ ...single.body.detail[0], loc: ['body', 'decisions', 0, 'decision'] }] },
      ],
      succeeded: 0,
      failed: 1,
    });
    await expectUntouched();
  });

  it('takes 1 to 100 batch entries', async () => {
    for (const body of [
      {},
      { decisions: [] },
      { decisions: Array.from({ length: 101 }, () => ({ runId: held.id, decision: 'reject' })) },
    ]) {
      const res = await batch(owner.token, body);
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc.slice(0, 2)).toEqual(['body', 'decisions']);
    }
    const notAnObject = await batch(owner.token, { decisions: ['nope'] });
    expect(notAnObject.body).toEqual({
      results: [
        {
          runId: null,
          ok: false,
          statusCode: 422,
          detail: [expect.objectContaining({ type: 'invalid_type', loc: ['body', 'decisions', 0], input: 'nope' })],
        },
      ],
      succeeded: 0,
      failed: 1,
    });
    await expectUntouched();
  });
});

describe('who may see and decide', () => {
  it('needs credentials on every queue endpoint', async () => {
    expect((await h.request('GET', '/v1/queue')).status).toBe(401);
    expect((await h.request('GET', '/v1/queue/count')).status).toBe(401);
    expect((await decide(undefined, held.id, { decision: 'reject' })).status).toBe(401);
    expect((await batch(undefined, { decisions: [{ runId: held.id, decision: 'reject' }] })).status).toBe(401);
    expect((await decide('atl_not-a-real-key', held.id, { decision: 'reject' })).status).toBe(401);
  });

  it('reports runs and workspaces of others as not found', async () => {
    const foreign = await decide(outsider.token, held.id, { decision: 'reject' });
    expect(foreign.status).toBe(404);
    expect(foreign.body.detail).toBe(`run ${held.id} not found`);
    expect((await decide(owner.token, 'run-00000000', { decision: 'reject' })).status).toBe(404);
    expect((await h.request('GET', `/v1/queue?workspaceId=${owner.workspaceId}`, { token: outsider.token })).status).toBe(404);
    expect((await h.request('GET', `/v1/queue/count?workspaceId=${owner.workspaceId}`, { token: outsider.token })).status).toBe(404);
    expect((await h.request('GET', '/v1/queue', { token: outsider.token })).body).toEqual({ items: [], total: 0 });
    const inBatch = await batch(outsider.token, { decisions: [{ runId: held.id, decision: 'reject' }] });
    expect(inBatch.body).toEqual({
      results: [{ runId: held.id, ok: false, statusCode: 404, detail: `run ${held.id} not found` }],
      succeeded: 0,
      failed: 1,
    });
    await expectUntouched();
  });

  it('forbids a key bound to another workspace (403), and lets it work in its own', async () => {
    const other = await h.request('POST', '/v1/workspaces', { token: owner.token, body: { name: 'Second studio' } });
    expect(other.status).toBe(201);
    const key = await createApiKey(h, owner, other.body.id);
    expect((await decide(key, held.id, { decision: 'reject' })).status).toBe(403);
    expect((await h.request('GET', `/v1/queue?workspaceId=${owner.workspaceId}`, { token: key })).status).toBe(403);
    expect((await h.request('GET', `/v1/queue/count?workspaceId=${owner.workspaceId}`, { token: key })).status).toBe(403);
    expect((await h.request('GET', '/v1/queue/count', { token: key })).body).toEqual({ count: 0 });
    const inBatch = await batch(key, { decisions: [{ runId: held.id, decision: 'reject' }] });
    expect(inBatch.body.results[0]).toMatchObject({ ok: false, statusCode: 403 });
    await expectUntouched();
  });
});

describe('the published contract', () => {
  it('documents the queue endpoints, the oldest-first order and the batch entry shape', async () => {
    const spec = (await h.request('GET', '/openapi.json')).body;
    expect(spec.paths['/v1/queue'].get.summary).toMatch(/oldest first/);
    expect(spec.paths['/v1/queue/count'].get.security).toEqual([{ bearer: [] }]);
    expect(spec.paths['/v1/queue/{run_id}/decision'].post.responses).toHaveProperty('409');
    expect(spec.paths['/v1/queue/decisions'].post).toBeDefined();
    expect(spec.paths['/v1/queue/decisions'].post.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/QueueBatchRequest',
    );
    expect(spec.components.schemas.QueueBatchRequest.properties.decisions.items.allOf).toEqual([
      { $ref: '#/components/schemas/QueueDecisionEntry' },
    ]);
    const entry = JSON.stringify(spec.components.schemas.QueueDecisionEntry);
    expect(entry).toContain('#/components/schemas/QueueDecisionRequest');
    expect(entry).toContain('runId');
    expect(spec.components.schemas.QueueDecisionRequest.required).toEqual(['decision']);
    expect(spec.components.schemas.QueueItem.properties).toHaveProperty('holdFields');
  });
});
