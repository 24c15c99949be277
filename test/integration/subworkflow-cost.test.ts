import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncBuiltinWorkflows } from '@atelier/db';
import { type Harness, type TestUser, registerUser, startHarness, waitForOrder, waitForRun } from '../support/harness';

/**
 * A parent run shows what its sub-workflow children spent (on the subWorkflow step and in its total),
 * while every sum across runs (GET /v1/costs, budgets, an order's cost) counts each dollar once: a child
 * is billed on its own run.
 */
let h: Harness;

function workflow(id: string, runtimeSteps: unknown[]) {
  return {
    id,
    name: id,
    version: '2026.11.01',
    artifactClass: 'knowledge',
    cadence: 'on-demand',
    intakeSchema: { fields: [{ name: 'text', type: 'string', required: true }] },
    runtimeSteps,
    gates: [],
    providers: { textGenerator: 'local/text-1' },
    budgetPolicy: {},
    artifactSchema: { artifactClass: 'knowledge', artifactType: 'article', files: ['application/json'], metadata: [] },
    outputShape: [{ artifactClass: 'knowledge', artifactType: 'article' }],
  };
}

const write = (id: string) => ({ id, name: `Write ${id}`, kind: 'llm', role: 'textGenerator', prompt: 'Write about "{{intake.text}}"' });
const child = (templateId: string) => ({
  id: 'child',
  name: `Run ${templateId}`,
  kind: 'subWorkflow',
  templateId,
  templateVersion: '2026.11.01',
  intakeMapping: { text: 'intake.text' },
});

// Three levels: the top run's child has a child of its own, and every level spends on its own step.
const WORKFLOWS = [
  workflow('plan-cost-leaf', [write('leaf')]),
  workflow('compose-cost-middle', [child('plan-cost-leaf'), write('middle')]),
  workflow('compose-cost-top', [child('compose-cost-middle'), write('top')]),
  workflow('plan-cost-broken', [write('spend'), { id: 'break', name: 'Break', kind: 'code', expression: '$error("the leaf broke")' }]),
  workflow('compose-cost-over-broken', [write('before'), child('plan-cost-broken')]),
];

beforeAll(async () => {
  h = await startHarness();
  await syncBuiltinWorkflows(h.db, WORKFLOWS as never);
});
afterAll(() => h?.stop());

async function settledRun(u: TestUser, templateId: string) {
  const created = await h.request('POST', '/v1/runs', { token: u.token, body: { templateId, intake: { text: 'tide pools' } } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return waitForRun(h, u.token, created.body.id);
}

/** The run's only sub-workflow child, as GET /v1/runs/{id} shows it. */
async function childOf(u: TestUser, runId: string) {
  const row = await h.db.selectFrom('runs').select('id').where('parent_run_id', '=', runId).executeTakeFirstOrThrow();
  return (await h.request('GET', `/v1/runs/${row.id}`, { token: u.token })).body;
}

const stepCost = (run: any, id: string) => run.runSteps.find((s: any) => s.id === id).costActualUsd;

/** The three runs of compose-cost-top, settled, top first. */
async function topTree(u: TestUser) {
  const top = await settledRun(u, 'compose-cost-top');
  expect(top.status).toBe('completed');
  const middle = await childOf(u, top.id);
  const leaf = await childOf(u, middle.id);
  return [top, middle, leaf];
}

describe('a run with sub-workflows', () => {
  it('shows each child’s total on its subWorkflow step and in its own total, recursively', async () => {
    const u = await registerUser(h);
    const [top, middle, leaf] = await topTree(u);
    for (const run of [top, middle, leaf]) expect(run.totalCosts.ownActualUsd).toBeGreaterThan(0);

    expect(leaf.totalCosts.actualUsd).toBe(leaf.totalCosts.ownActualUsd);
    expect(stepCost(middle, 'child')).toBeCloseTo(leaf.totalCosts.actualUsd, 6);
    expect(middle.totalCosts.ownActualUsd).toBeCloseTo(stepCost(middle, 'middle'), 6);
    expect(middle.totalCosts.actualUsd).toBeCloseTo(middle.totalCosts.ownActualUsd + leaf.totalCosts.actualUsd, 6);

    expect(stepCost(top, 'child')).toBeCloseTo(middle.totalCosts.actualUsd, 6);
    expect(top.totalCosts.ownActualUsd).toBeCloseTo(stepCost(top, 'top'), 6);
    expect(top.totalCosts.actualUsd).toBeCloseTo(
      top.totalCosts.ownActualUsd + middle.totalCosts.ownActualUsd + leaf.totalCosts.ownActualUsd,
      6,
    );
  });

  it('is counted once in GET /v1/costs: each run adds its own spend', async () => {
    const u = await registerUser(h);
    const runs = await topTree(u);
    const own = runs.reduce((sum, r) => sum + r.totalCosts.ownActualUsd, 0);
    expect(runs[0].totalCosts.actualUsd).toBeCloseTo(own, 6);
    for (const groupBy of ['workflow', 'day', 'project', 'provider', 'model']) {
      const res = await h.request('GET', `/v1/costs?groupBy=${groupBy}&workspaceId=${u.workspaceId}`, { token: u.token });
      expect(res.status).toBe(200);
      expect(res.body.totalUsd, groupBy).toBeCloseTo(own, 6);
    }
    const byWorkflow = await h.request('GET', `/v1/costs?groupBy=workflow&workspaceId=${u.workspaceId}`, { token: u.token });
    expect(byWorkflow.body.items.find((i: any) => i.key === 'compose-cost-top').actualUsd).toBeCloseTo(runs[0].totalCosts.ownActualUsd, 6);
  });

  it('leaves room in a budget that just fits the real spend', async () => {
    const u = await registerUser(h);
    const runs = await topTree(u);
    const own = runs.reduce((sum, r) => sum + r.totalCosts.ownActualUsd, 0);
    const estimate = runs[0].totalCosts.estimatedUsd;
    // Room for one more top run's estimate and half the leaf's spend: counting a child again through its
    // parent would add at least the whole leaf, and refuse the run.
    const limitUsd = own + estimate + runs[2].totalCosts.ownActualUsd / 2;
    const budget = await h.request('POST', '/v1/budgets', {
      token: u.token,
      body: { workspaceId: u.workspaceId, scope: 'workspace', period: 'month', limitUsd, enforcementMode: 'hard_stop' },
    });
    expect(budget.status, JSON.stringify(budget.body)).toBe(201);
    expect(budget.body.spendUsd).toBeCloseTo(own, 6);
    const next = await h.request('POST', '/v1/runs', {
      token: u.token,
      body: { templateId: 'compose-cost-top', intake: { text: 'kelp' } },
    });
    expect(next.status, JSON.stringify(next.body)).toBe(201);
  });

  it('shows a failed child’s spend on the parent’s failed step, still counted once', async () => {
    const u = await registerUser(h);
    const parent = await settledRun(u, 'compose-cost-over-broken');
    expect(parent).toMatchObject({ status: 'failed', errorCode: 'sub_workflow_failed' });
    const broken = await childOf(u, parent.id);
    expect(broken.status).toBe('failed');
    expect(broken.totalCosts.actualUsd).toBeGreaterThan(0);
    expect(parent.runSteps.find((s: any) => s.id === 'child')).toMatchObject({ status: 'failed' });
    expect(stepCost(parent, 'child')).toBeCloseTo(broken.totalCosts.actualUsd, 6);
    expect(parent.totalCosts.actualUsd).toBeCloseTo(parent.totalCosts.ownActualUsd + broken.totalCosts.actualUsd, 6);
    const costs = await h.request('GET', `/v1/costs?workspaceId=${u.workspaceId}`, { token: u.token });
    expect(costs.body.totalUsd).toBeCloseTo(parent.totalCosts.ownActualUsd + broken.totalCosts.ownActualUsd, 6);
  });

  it('counts an order child’s sub-workflows once in the order’s actual cost', async () => {
    const u = await registerUser(h);
    const order = await h.request('POST', '/v1/orders', {
      token: u.token,
      body: { workflowId: 'compose-cost-middle', variationSpec: { resolver: 'list', params: { items: [{ text: 'reefs' }] } } },
    });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    await h.request('POST', `/v1/orders/${order.body.id}/start`, { token: u.token });
    const settled = await waitForOrder(h, u.token, order.body.id);
    expect(settled.status).toBe('completed');
    const [row] = await h.db.selectFrom('runs').select('id').where('parent_order_id', '=', order.body.id).execute();
    const middle = (await h.request('GET', `/v1/runs/${row!.id}`, { token: u.token })).body;
    const leaf = await childOf(u, middle.id);
    expect(settled.actualCostUsd).toBeCloseTo(middle.totalCosts.ownActualUsd + leaf.totalCosts.ownActualUsd, 6);
    const costs = await h.request('GET', `/v1/costs?workspaceId=${u.workspaceId}`, { token: u.token });
    expect(costs.body.totalUsd).toBeCloseTo(settled.actualCostUsd, 6);
  });
});
