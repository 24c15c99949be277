import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';

/**
 * POST /v1/runs/{run_id}/rerun against the real gateway, worker and PostgreSQL: a rerun pins the original's
 * version after a newer one went live and completes; its intake overrides are validated as POST /v1/runs
 * validates an intake; a dry run creates nothing; budgets refuse it as they refuse a run; another
 * workspace's run is not found; and the rerun is linked to its original (rerunOf, and the list filter).
 */
let h: Harness;
let owner: TestUser;
const workflowId = `plan-rerun-notes-${randomBytes(3).toString('hex')}`;

/** A workspace workflow whose versions differ in their prompt, so each version's runs are told apart. */
function notes(version: string) {
  return {
    id: workflowId,
    name: 'Rerun notes',
    artifactClass: 'knowledge',
    version,
    cadence: 'on-demand',
    intakeSchema: {
      fields: [
        { name: 'topic', type: 'string', required: true },
        { name: 'tone', type: 'string', required: false, default: 'plain' },
      ],
    },
    runtimeSteps: [
      { id: 'step-1', name: 'Write notes', kind: 'llm', role: 'textGenerator', prompt: `${version}: notes on {{intake.topic}}` },
    ],
    gates: [],
    providers: { textGenerator: 'local/text-1' },
    budgetPolicy: { perRunCapUsd: 0.1 },
    artifactSchema: { artifactClass: 'knowledge', artifactType: 'article', files: ['application/json'], metadata: [] },
    outputShape: [{ artifactClass: 'knowledge', artifactType: 'article' }],
  };
}

async function publish(version: string): Promise<void> {
  const saved = await h.request('POST', '/v1/workflows', { token: owner.token, body: { definition: notes(version) } });
  expect(saved.status, JSON.stringify(saved.body)).toBeLessThan(300);
  const published = await h.request('POST', `/v1/workflows/${workflowId}/publish`, { token: owner.token, body: { version } });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
}

const rerun = (runId: string, body?: unknown, who: TestUser = owner, headers?: Record<string, string>) =>
  h.request('POST', `/v1/runs/${runId}/rerun`, {
    token: who.token,
    ...(body === undefined ? {} : { body }),
    ...(headers ? { headers } : {}),
  });
const countRuns = async () =>
  Number(
    (
      await h.db
        .selectFrom('runs')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

let original: any;

beforeAll(async () => {
  h = await startHarness();
  owner = await registerUser(h);
  await publish('2026.11.01');
  const created = await h.request('POST', '/v1/runs', {
    token: owner.token,
    body: { templateId: workflowId, intake: { topic: 'moss' }, priority: 'high' },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  original = await waitForRun(h, owner.token, created.body.id);
  expect(original).toMatchObject({ status: 'completed', workflowVersion: '2026.11.01', rerunOf: null });
  await publish('2026.11.02');
}, 60_000);
afterAll(() => h?.stop());

describe('POST /v1/runs/{run_id}/rerun', () => {
  it('runs the original pinned version again after a newer one went live, linked to the original', async () => {
    // The live version is the newer one: a plain run pins it.
    const fresh = await h.request('POST', '/v1/runs', { token: owner.token, body: { templateId: workflowId, intake: { topic: 'moss' } } });
    expect(fresh.body.workflowVersion).toBe('2026.11.02');

    // No body at all is a rerun as it was.
    const again = await rerun(original.id);
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body).toMatchObject({ status: 'pending', workflowVersion: '2026.11.01', rerunOf: original.id, intake: original.intake });
    const done = await waitForRun(h, owner.token, again.body.id);
    expect(done).toMatchObject({ status: 'completed', workflowVersion: '2026.11.01', rerunOf: original.id });
    // The same version and intake: the same inputs, by the contract's hash.
    expect(done.specVersionHash).toBe(original.specVersionHash);
    const stored = await h.db.selectFrom('runs').select(['priority', 'bindings']).where('id', '=', done.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ priority: 'high', bindings: { textGenerator: 'local/text-1' } });

    const reruns = await h.request('GET', `/v1/runs?rerunOf=${original.id}`, { token: owner.token });
    expect(reruns.status).toBe(200);
    expect(reruns.body.items.map((r: any) => r.id)).toEqual([again.body.id]);
    expect(reruns.body.total).toBe(1);
    const all = await h.request('GET', '/v1/runs', { token: owner.token });
    expect(all.body.items.find((r: any) => r.id === fresh.body.id)).toMatchObject({ rerunOf: null });
  }, 60_000);

  it('merges an intake override over the original intake, validated as POST /v1/runs validates it', async () => {
    const merged = await rerun(original.id, { intake: { tone: 'wry' } });
    expect(merged.status, JSON.stringify(merged.body)).toBe(201);
    expect(merged.body.intake).toEqual({ topic: 'moss', tone: 'wry' });
    expect(merged.body.specVersionHash).not.toBe(original.specVersionHash);

    const before = await countRuns();
    const invalid = await rerun(original.id, { intake: { topic: 42 } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail).toMatchObject({ error: 'intake_invalid', fields: [expect.stringContaining('topic')] });
    const badBinding = await rerun(original.id, { providers: { textGenerator: 'nobody/nothing' } });
    expect(badBinding.status).toBe(400);
    expect(badBinding.body.detail).toMatchObject({ code: 'invalid_provider_override', role: 'textGenerator' });
    expect(await countRuns()).toBe(before);
  });

  it('prices a dry run like a run and creates nothing', async () => {
    const before = await countRuns();
    const dry = await rerun(original.id, { dryRun: true, intake: { tone: 'dry' } });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.estimate).toEqual({
      min: expect.any(Number),
      typical: original.totalCosts.estimatedUsd,
      max: expect.any(Number),
      currency: 'USD',
    });
    expect(dry.body.wouldCreate).toEqual({
      templateId: workflowId,
      workflowVersion: '2026.11.01',
      intake: { topic: 'moss', tone: 'dry' },
      workspaceId: owner.workspaceId,
      projectId: null,
      providers: { textGenerator: 'local/text-1' },
      priority: 'high',
      rerunOf: original.id,
    });
    // A dry run is refused as the rerun would be.
    expect((await rerun(original.id, { dryRun: true, intake: { topic: '' } })).status).toBe(422);
    expect(await countRuns()).toBe(before);
  });

  it('is refused with 402 when a budget would be breached; a dry run says so without recording a refusal', async () => {
    const cap = await h.request('POST', '/v1/budgets', {
      token: owner.token,
      body: {
        workspaceId: owner.workspaceId,
        scope: 'workspace',
        period: 'month',
        limitUsd: 100,
        enforcementMode: 'hard_stop',
        perRunCapUsd: original.totalCosts.estimatedUsd / 2,
      },
    });
    expect(cap.status).toBe(201);
    try {
      const before = await countRuns();
      const dry = await rerun(original.id, { dryRun: true });
      expect(dry.status).toBe(402);
      expect(dry.body.detail).toMatchObject({ code: 'budget_exceeded', reason: 'per_run_cap_exceeded', budgetId: cap.body.id });
      const refusalsOf = async () =>
        (await h.request('GET', `/v1/budgets/${cap.body.id}/refusals`, { token: owner.token })).body.total as number;
      expect(await refusalsOf()).toBe(0);

      const refused = await rerun(original.id);
      expect(refused.status).toBe(402);
      expect(refused.body.detail).toEqual({
        code: 'budget_exceeded',
        reason: 'per_run_cap_exceeded',
        budgetId: cap.body.id,
        scope: 'workspace',
        enforcementMode: 'hard_stop',
        limitUsd: 100,
        spendUsd: expect.any(Number),
        runEstimateUsd: original.totalCosts.estimatedUsd,
        remainingUsd: expect.any(Number),
      });
      expect(await refusalsOf()).toBe(1);
      expect(await countRuns()).toBe(before);
    } finally {
      await h.request('PATCH', `/v1/budgets/${cap.body.id}`, { token: owner.token, body: { perRunCapUsd: null } });
    }
  });

  it("answers 404 for another workspace's run, or none", async () => {
    const stranger = await registerUser(h, 'Stranger');
    for (const body of [undefined, { dryRun: true }]) {
      const theirs = await rerun(original.id, body, stranger);
      expect(theirs.status).toBe(404);
      expect(theirs.body.detail).toBe(`run ${original.id} not found`);
    }
    expect((await rerun('run-00000000')).status).toBe(404);
  });

  it('creates one rerun per Idempotency-Key, and tells reruns of other runs apart', async () => {
    const key = `rerun-${Date.now()}`;
    const first = await rerun(original.id, { intake: { tone: 'keyed' } }, owner, { 'idempotency-key': key });
    const again = await rerun(original.id, { intake: { tone: 'keyed' } }, owner, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    // The same key and body for another original is another request.
    const other = await rerun(first.body.id, { intake: { tone: 'keyed' } }, owner, { 'idempotency-key': key });
    expect(other.status).toBe(422);
    expect(other.body.detail).toMatchObject({ code: 'idempotency_key_reused' });
  });

  it("reruns an order's child as a standalone run of its workspace", async () => {
    const order = await h.request('POST', '/v1/orders', {
      token: owner.token,
      body: { workflowId, variationSpec: { resolver: 'list', params: { items: [{ topic: 'tides' }] } } },
    });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const children = await h.request('GET', `/v1/runs?parentOrderId=${order.body.id}`, { token: owner.token });
    const child = children.body.items[0];
    expect(child).toMatchObject({ status: 'planned', parentOrderId: order.body.id });
    const standalone = await rerun(child.id);
    expect(standalone.status, JSON.stringify(standalone.body)).toBe(201);
    expect(standalone.body).toMatchObject({ parentOrderId: null, parentRunId: null, orderDedupeKey: null, rerunOf: child.id });
    expect(standalone.body.intake).toMatchObject({ topic: 'tides' });
  });
});
