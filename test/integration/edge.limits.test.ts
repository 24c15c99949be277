import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '@atelier/contracts/common';
import { type Harness, type TestUser, registerUser, startHarness } from '../support/harness';

/**
 * The size caps on authoring and intake (docs/operations.md, "Limits"): one past each is refused with the
 * contract's 422, and exactly at it is accepted. No worker: nothing here needs a run to execute.
 */
let h: Harness;
let user: TestUser;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  user = await registerUser(h);
});
afterAll(() => h?.stop());

const post = (path: string, body: unknown) => h.request('POST', path, { token: user.token, body });

/** A valid definition with `steps` identity code steps, `gates` unreferenced budget gates and `fields` intake fields. */
function definition(id: string, size: { steps?: number; gates?: number; fields?: number } = {}) {
  const extraFields = Array.from({ length: (size.fields ?? 2) - 2 }, (_, i) => ({ name: `extra${i}`, type: 'string' }));
  return {
    id,
    name: 'Limit notes',
    artifactClass: 'knowledge',
    version: '2026.11.01',
    cadence: 'on-demand',
    intakeSchema: {
      fields: [{ name: 'topic', type: 'string', required: true }, { name: 'n', type: 'integer' }, ...extraFields],
    },
    runtimeSteps: Array.from({ length: size.steps ?? 1 }, (_, i) => ({
      id: `step-${i + 1}`,
      name: `Pass it on (${i + 1})`,
      kind: 'code',
      function: 'identity',
      inputPath: i === 0 ? 'intake' : `step-${i}`,
    })),
    gates: Array.from({ length: size.gates ?? 0 }, (_, i) => ({
      id: `budget-${i}`,
      name: 'Budget',
      type: 'budget',
      inputs: [],
      outputs: [],
    })),
    providers: {},
    budgetPolicy: {},
    artifactSchema: { artifactClass: 'knowledge', artifactType: 'article', files: ['application/json'], metadata: [] },
    outputShape: [{ artifactClass: 'knowledge', artifactType: 'article' }],
  };
}

/** A 422 in the request-validation shape, one entry at `loc`, saying how long the list may be. */
function expectTooMany(res: { status: number; body: any }, loc: Array<string | number>) {
  expect(res.status, JSON.stringify(res.body).slice(0, 400)).toBe(422);
  expect(res.body.detail).toEqual([expect.objectContaining({ type: 'too_big', loc, msg: expect.any(String) })]);
  expect(res.body.detail[0]).toHaveProperty('input');
}

describe('workflow definitions', () => {
  it(`refuses a draft of ${LIMITS.steps + 1} steps with 422 and saves one of ${LIMITS.steps}`, async () => {
    expectTooMany(await post('/v1/workflows', { definition: definition('plan-steps-over', { steps: LIMITS.steps + 1 }) }), [
      'body',
      'definition',
      'runtimeSteps',
    ]);
    const at = await post('/v1/workflows', { definition: definition('plan-steps-at', { steps: LIMITS.steps }) });
    expect(at.status, JSON.stringify(at.body).slice(0, 400)).toBe(201);
    expect(at.body.definition.runtimeSteps).toHaveLength(LIMITS.steps);
  });

  it(`refuses ${LIMITS.gates + 1} gates and ${LIMITS.intakeFields + 1} intake fields, and saves ${LIMITS.gates} and ${LIMITS.intakeFields}`, async () => {
    expectTooMany(await post('/v1/workflows', { definition: definition('plan-gates-over', { gates: LIMITS.gates + 1 }) }), [
      'body',
      'definition',
      'gates',
    ]);
    expectTooMany(await post('/v1/workflows', { definition: definition('plan-fields-over', { fields: LIMITS.intakeFields + 1 }) }), [
      'body',
      'definition',
      'intakeSchema',
      'fields',
    ]);
    const at = await post('/v1/workflows', {
      definition: definition('plan-both-at', { gates: LIMITS.gates, fields: LIMITS.intakeFields }),
    });
    expect(at.status, JSON.stringify(at.body).slice(0, 400)).toBe(201);
  });

  it('bounds the steps of a dry run and of an estimate the same way', async () => {
    const over = definition('plan-dry-over', { steps: LIMITS.steps + 1 });
    expectTooMany(await post('/v1/workflows/dry-run', over), ['body', 'runtimeSteps']);
    expectTooMany(await post('/v1/workflows/estimate', { runtimeSteps: over.runtimeSteps, providers: {} }), ['body', 'runtimeSteps']);
    const at = definition('plan-dry-at', { steps: LIMITS.steps });
    const dry = await post('/v1/workflows/dry-run', at);
    expect(dry.status).toBe(200);
    expect(dry.body.stepCount).toBe(LIMITS.steps);
    expect((await post('/v1/workflows/estimate', { runtimeSteps: at.runtimeSteps, providers: {} })).status).toBe(200);
  });
});

describe('intakes', () => {
  const run = (intake: Record<string, unknown>) => post('/v1/runs', { templateId: 'plan-research-report', intake });

  it(`refuses a run whose intake has a string past ${LIMITS.intakeString} characters with intake_invalid naming it`, async () => {
    const over = await run({ topic: 'x'.repeat(LIMITS.intakeString + 1) });
    expect(over.status).toBe(422);
    expect(over.body.detail).toEqual({
      error: 'intake_invalid',
      code: 'intake_invalid',
      fields: [`topic is ${(LIMITS.intakeString + 1).toLocaleString('en-US')} characters long; at most 65,536 are allowed`],
    });
    // Nested strings, and keys the workflow does not know, count too.
    const nested = await run({ topic: 'ok', notes: { list: ['y'.repeat(LIMITS.intakeString + 1)] } });
    expect(nested.status).toBe(422);
    expect(nested.body.detail.fields[0]).toMatch(/^notes\.list\[0\] is 65,537 characters long/);
    expect((await run({ topic: 'x'.repeat(LIMITS.intakeString) })).status).toBe(201);
  });

  it(`refuses a run whose intake is past ${LIMITS.intakeBytes} bytes as JSON, and takes one just under`, async () => {
    // Strings within their own bound, together past the intake's.
    const chunk = 'z'.repeat(60_000);
    const over = await run({ topic: chunk, notes: [chunk, chunk, chunk, chunk] });
    expect(over.status).toBe(422);
    expect(over.body.detail.code).toBe('intake_invalid');
    expect(over.body.detail.fields).toEqual([
      expect.stringMatching(/^the intake is 300,0\d\d bytes as JSON; at most 262,144 are allowed$/),
    ]);
    // Multi-byte text counts in UTF-8 bytes: 2 bytes a character here.
    const wide = await run({ topic: 'é'.repeat(60_000), notes: ['é'.repeat(60_000), 'é'.repeat(20_000)] });
    expect(wide.status).toBe(422);
    const under = LIMITS.intakeBytes - JSON.stringify({ topic: '', notes: ['', '', '', ''] }).length;
    const parts = [60_000, 60_000, 60_000, 60_000, under - 240_000];
    const at = await run({ topic: 'z'.repeat(parts[0]!), notes: parts.slice(1).map((n) => 'z'.repeat(n)) });
    expect(at.status, JSON.stringify(at.body).slice(0, 300)).toBe(201);
  });

  it('reports an oversized intake in a dry run as an error, not a 422', async () => {
    const res = await post('/v1/workflows/dry-run', {
      ...definition('plan-dry-intake'),
      intake: { topic: 'x'.repeat(LIMITS.intakeString + 1) },
    });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(false);
    expect(res.body.errors).toContain('intake: topic is 65,537 characters long; at most 65,536 are allowed');
  });
});

describe('orders', () => {
  const order = (body: Record<string, unknown>) => post('/v1/orders', { workflowId: 'plan-research-report', ...body });
  const list = (n: number) => ({ resolver: 'list', params: { items: Array.from({ length: n }, (_, i) => ({ topic: `child ${i}` })) } });

  it(`refuses ${LIMITS.variations + 1} children with 422 and plans ${LIMITS.variations}`, async () => {
    expectTooMany(await order({ variationSpec: list(LIMITS.variations + 1) }), ['body', 'variationSpec', 'params', 'items']);
    const matrix = await order({
      variationSpec: {
        resolver: 'matrix',
        params: { axes: { topic: Array.from({ length: 101 }, (_, i) => `t${i}`), depth: Array(100).fill('brief') } },
      },
    });
    expect(matrix.status).toBe(422);
    expect(matrix.body.detail).toMatchObject({ code: 'variations_invalid', message: 'the matrix makes more than 10000 variations' });
    const at = await order({ variationSpec: list(LIMITS.variations) });
    expect(at.status, JSON.stringify(at.body).slice(0, 300)).toBe(201);
    expect(at.body.targetCount).toBe(LIMITS.variations);
  }, 60_000);

  it('refuses an intakeBase with a string past its bound, for every child, with intake_invalid', async () => {
    const res = await order({
      intakeBase: { topic: 'x'.repeat(LIMITS.intakeString + 1) },
      variationSpec: { resolver: 'list', params: { items: [{ depth: 'brief' }] } },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail.code).toBe('intake_invalid');
    expect(res.body.detail.fields).toEqual(['variation 0: topic is 65,537 characters long; at most 65,536 are allowed']);
  });

  it(`refuses an order whose children's intakes come to more than ${LIMITS.orderIntakeBytes} bytes (intakeBase copied into each)`, async () => {
    const authored = await post('/v1/workflows', { definition: definition('plan-order-bytes') });
    expect(authored.status).toBe(201);
    expect((await post('/v1/workflows/plan-order-bytes/publish', { version: '2026.11.01' })).status).toBe(200);
    const intakeBase = { topic: 'x'.repeat(65_000) };
    const children = (n: number) => ({ resolver: 'list', params: { items: Array.from({ length: n }, (_, i) => ({ n: i })) } });
    const over = await post('/v1/orders', { workflowId: 'plan-order-bytes', intakeBase, variationSpec: children(520) });
    expect(over.status).toBe(422);
    expect(over.body.detail).toMatchObject({
      code: 'variations_invalid',
      message: expect.stringMatching(/at most 33,554,432 are allowed per order$/),
    });
    const at = await post('/v1/orders', { workflowId: 'plan-order-bytes', intakeBase, variationSpec: children(500) });
    expect(at.status, JSON.stringify(at.body).slice(0, 300)).toBe(201);
    expect(at.body.targetCount).toBe(500);
  }, 60_000);
});
