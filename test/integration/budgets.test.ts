import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';

let h: Harness;

beforeAll(async () => {
  // Slow models keep runs unsettled during a burst, so each one counts at its estimate.
  h = await startHarness({ localLatencyMs: 1500 });
});
afterAll(() => h?.stop());

const RUN = { templateId: 'plan-research-report', intake: { topic: 'budgets' } };
const budget = (u: TestUser, body: Record<string, unknown>) =>
  h.request('POST', '/v1/budgets', { token: u.token, body: { workspaceId: u.workspaceId, scope: 'workspace', period: 'month', ...body } });
const run = (u: TestUser, extra: Record<string, unknown> = {}) =>
  h.request('POST', '/v1/runs', { token: u.token, body: { ...RUN, ...extra } });

async function runEstimate(u: TestUser): Promise<number> {
  const created = await run(u);
  // Cancelled once running, the run keeps what its first step spent (a pending run would cost nothing).
  await waitForRun(h, u.token, created.body.id, (r) => r.status === 'running');
  await h.request('POST', `/v1/runs/${created.body.id}/cancel`, { token: u.token });
  // Settled, the cancelled run counts at its actual cost from now on, so spend holds still below.
  await waitForRun(h, u.token, created.body.id);
  return created.body.totalCosts.estimatedUsd;
}

describe('budgets', () => {
  it('are created, listed, read and changed by owners, with their spend', async () => {
    const u = await registerUser(h);
    const created = await budget(u, { limitUsd: 5, enforcementMode: 'hard_stop', name: 'monthly' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^budget-[0-9a-f]{16}$/),
      scope: 'workspace',
      limitUsd: 5,
      spendUsd: 0,
      remainingUsd: 5,
      period: 'month',
    });
    const list = await h.request('GET', `/v1/budgets?workspaceId=${u.workspaceId}`, { token: u.token });
    expect(list.body.items.map((b: any) => b.id)).toEqual([created.body.id]);
    const patched = await h.request('PATCH', `/v1/budgets/${created.body.id}`, {
      token: u.token,
      body: { limitUsd: 7, enforcementMode: 'allow_overage', overageUsd: 1 },
    });
    expect(patched.body).toMatchObject({ limitUsd: 7, enforcementMode: 'allow_overage', overageUsd: 1 });
    const stranger = await registerUser(h, 'Stranger');
    expect((await h.request('GET', `/v1/budgets/${created.body.id}`, { token: stranger.token })).status).toBe(404);
  });

  it('refuse bad definitions with 422', async () => {
    const u = await registerUser(h);
    for (const [body, loc] of [
      [{ limitUsd: -1, enforcementMode: 'hard_stop' }, ['body', 'limitUsd']],
      [{ limitUsd: 'lots', enforcementMode: 'hard_stop' }, ['body', 'limitUsd']],
      [{ limitUsd: 1, enforcementMode: 'allow_overage' }, ['body', 'overageUsd']],
      [{ limitUsd: 1, enforcementMode: 'hard_stop', scope: 'project' }, ['body', 'projectId']],
      [{ limitUsd: 1, enforcementMode: 'whenever' }, ['body', 'enforcementMode']],
    ] as const) {
      const res = await budget(u, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail.map((d: any) => d.loc)).toContainEqual(loc);
    }
  });

  it('refuse runs with each reason of the contract, record every refusal, and let notify_only through', async () => {
    const u = await registerUser(h);
    const estimate = await runEstimate(u);
    const spend = estimate;

    const cap = await budget(u, { limitUsd: 100, enforcementMode: 'hard_stop', perRunCapUsd: estimate / 2 });
    const capped = await run(u);
    expect(capped.status).toBe(402);
    expect(capped.body.detail).toMatchObject({
      code: 'budget_exceeded',
      reason: 'per_run_cap_exceeded',
      budgetId: cap.body.id,
      scope: 'workspace',
      enforcementMode: 'hard_stop',
      limitUsd: 100,
      runEstimateUsd: estimate,
    });
    await h.request('PATCH', `/v1/budgets/${cap.body.id}`, { token: u.token, body: { perRunCapUsd: null, limitUsd: 0 } });

    const hard = await run(u);
    expect(hard.status).toBe(402);
    expect(hard.body.detail).toMatchObject({ reason: 'hard_stop', limitUsd: 0, remainingUsd: 0 });
    expect(hard.body.detail.spendUsd).toBeGreaterThan(0);
    expect(spend).toBeGreaterThan(0);

    await h.request('PATCH', `/v1/budgets/${cap.body.id}`, {
      token: u.token,
      body: { enforcementMode: 'allow_overage', overageUsd: estimate / 10 },
    });
    expect((await run(u)).body.detail.reason).toBe('allow_overage_exceeded');

    const current = (await h.request('GET', `/v1/budgets/${cap.body.id}`, { token: u.token })).body.spendUsd;
    await h.request('PATCH', `/v1/budgets/${cap.body.id}`, {
      token: u.token,
      body: { enforcementMode: 'allow_one_more', limitUsd: current + estimate / 10 },
    });
    expect((await run(u)).status).toBe(201);
    expect((await run(u)).body.detail.reason).toBe('allow_one_more_exhausted');

    await h.request('PATCH', `/v1/budgets/${cap.body.id}`, { token: u.token, body: { enforcementMode: 'notify_only', limitUsd: 0 } });
    expect((await run(u)).status).toBe(201);

    const refusals = await h.request('GET', `/v1/budgets/${cap.body.id}/refusals`, { token: u.token });
    expect(refusals.body.total).toBe(4);
    expect(refusals.body.items.map((r: any) => r.detail.reason)).toEqual([
      'allow_one_more_exhausted',
      'allow_overage_exceeded',
      'hard_stop',
      'per_run_cap_exceeded',
    ]);
    expect(refusals.body.items[0]).toMatchObject({ attempted: 'run', callerId: u.userId, callerVia: 'session' });
  });

  it('apply a project budget only to runs in that project', async () => {
    const u = await registerUser(h);
    const project = await h.request('POST', `/v1/workspaces/${u.workspaceId}/projects`, { token: u.token, body: { name: 'Tight' } });
    await budget(u, { scope: 'project', projectId: project.body.id, limitUsd: 0, enforcementMode: 'hard_stop' });
    expect((await run(u, { projectId: project.body.id })).status).toBe(402);
    expect((await run(u)).status).toBe(201);
  });

  it('are never overspent under 50 concurrent run creations, nor under concurrent order starts', async () => {
    const u = await registerUser(h);
    const estimate = await runEstimate(u);
    await new Promise((r) => setTimeout(r, 2000));
    const settled = (await h.request('GET', `/v1/runs?workspaceId=${u.workspaceId}`, { token: u.token })).body.items[0].totalCosts
      .actualUsd;
    const limit = settled + estimate * 3 + estimate / 2;
    const b = await budget(u, { limitUsd: limit, enforcementMode: 'hard_stop' });
    const burst = await Promise.all(Array.from({ length: 50 }, () => run(u)));
    expect(burst.filter((r) => r.status === 201)).toHaveLength(3);
    expect(burst.filter((r) => r.status === 402)).toHaveLength(47);
    const after = await h.request('GET', `/v1/budgets/${b.body.id}`, { token: u.token });
    expect(after.body.spendUsd).toBeLessThanOrEqual(limit);

    const o = await registerUser(h, 'Orders');
    const orders = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        h.request('POST', '/v1/orders', {
          token: o.token,
          body: {
            workflowId: 'plan-research-report',
            variationSpec: { resolver: 'list', params: { items: [{ topic: `o${i}` }, { topic: `p${i}` }] } },
          },
        }),
      ),
    );
    const perOrder = orders[0]!.body.estimatedCostUsd;
    await budget(o, { limitUsd: perOrder * 2 + perOrder / 2, enforcementMode: 'hard_stop' });
    const starts = await Promise.all(orders.map((x) => h.request('POST', `/v1/orders/${x.body.id}/start`, { token: o.token })));
    expect(starts.filter((r) => r.status === 200)).toHaveLength(2);
    expect(starts.filter((r) => r.status === 402).every((r) => r.body.detail.reason === 'hard_stop')).toBe(true);
  });
});

describe('costs', () => {
  it('roll up actual and estimated spend by workflow, day, project, provider and model', async () => {
    const u = await registerUser(h);
    const a = await run(u);
    const b = await h.request('POST', '/v1/runs', {
      token: u.token,
      body: { templateId: 'compose-brand-profile', intake: { notes: 'A quiet bookshop.' } },
    });
    const [ra, rb] = [await waitForRun(h, u.token, a.body.id), await waitForRun(h, u.token, b.body.id)];
    const total = ra.totalCosts.actualUsd + rb.totalCosts.actualUsd;
    const byWorkflow = await h.request('GET', `/v1/costs?groupBy=workflow&workspaceId=${u.workspaceId}`, { token: u.token });
    expect(byWorkflow.body.totalUsd).toBeCloseTo(total, 6);
    expect(byWorkflow.body.items.map((i: any) => i.key).sort()).toEqual(['compose-brand-profile', 'plan-research-report']);
    expect(byWorkflow.body.items.find((i: any) => i.key === 'plan-research-report')).toMatchObject({
      runs: 1,
      actualUsd: ra.totalCosts.actualUsd,
      estimatedUsd: ra.totalCosts.estimatedUsd,
    });
    for (const groupBy of ['day', 'project', 'provider', 'model']) {
      const res = await h.request('GET', `/v1/costs?groupBy=${groupBy}`, { token: u.token });
      expect(res.status).toBe(200);
      expect(res.body.totalUsd, groupBy).toBeCloseTo(total, 6);
    }
    const models = await h.request('GET', '/v1/costs?groupBy=model', { token: u.token });
    // A gate's classifier call is billed on the step it judged, under that step's model.
    expect(models.body.items.map((i: any) => i.key)).toEqual(['local/text-1']);
    const future = await h.request('GET', '/v1/costs?from=2099-01-01', { token: u.token });
    expect(future.body).toMatchObject({ totalUsd: 0, items: [] });
    expect((await h.request('GET', '/v1/costs?groupBy=colour', { token: u.token })).status).toBe(422);
    expect((await h.request('GET', '/v1/costs?from=2026-02-01&to=2026-01-01', { token: u.token })).status).toBe(422);
  });
});
