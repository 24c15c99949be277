import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, registerUser, startHarness } from '../support/harness';

/** Dry runs and estimates of drafts over HTTP: nothing is saved or run, so no worker is needed. */
let h: Harness;
let owner: TestUser;

const steps = [
  { id: 'step-1', name: 'Write notes', kind: 'llm', role: 'textGenerator', prompt: 'Garden notes on {{intake.topic}}' },
  { id: 'step-2', name: 'Keep the notes', kind: 'code', function: 'identity', inputPath: 'step-1' },
];
const intakeSchema = {
  fields: [
    { name: 'topic', type: 'string', required: true },
    { name: 'depth', type: 'enum', options: ['brief', 'deep'], default: 'brief' },
  ],
};
const providers = { textGenerator: 'local/text-1' };

function garden(version: string, extra: Record<string, unknown> = {}) {
  return {
    id: 'plan-garden-notes',
    name: 'Garden notes',
    artifactClass: 'knowledge',
    version,
    cadence: 'on-demand',
    intakeSchema,
    runtimeSteps: steps,
    gates: [],
    providers,
    budgetPolicy: { perRunCapUsd: 0.1 },
    artifactSchema: { artifactClass: 'knowledge', artifactType: 'article', files: ['application/json'], metadata: [] },
    outputShape: [{ artifactClass: 'knowledge', artifactType: 'article' }],
    ...extra,
  };
}

const dryRun = (body: unknown) => h.request('POST', '/v1/workflows/dry-run', { token: owner.token, body });
const estimate = (body: unknown) => h.request('POST', '/v1/workflows/estimate', { token: owner.token, body });

beforeAll(async () => {
  h = await startHarness({ worker: false });
  owner = await registerUser(h);
});
afterAll(() => h?.stop());

describe('POST /v1/workflows/dry-run', () => {
  it('checks a partial draft: steps with their models, the resolved intake, an estimate; absent template fields are warnings', async () => {
    const res = await dryRun({ intakeSchema, runtimeSteps: steps, providers, intake: { topic: 'roses' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, stepCount: 2, errors: [] });
    expect(res.body.steps).toEqual([
      { id: 'step-1', name: 'Write notes', kind: 'llm', role: 'textGenerator', model: 'local/text-1' },
      { id: 'step-2', name: 'Keep the notes', kind: 'code', role: null, model: null },
    ]);
    expect(res.body.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^id: is required but missing/),
        expect.stringMatching(/^cadence: is required but missing/),
      ]),
    );
    expect(res.body.estimate).toEqual({
      estimatedCost: { min: 0.0004, typical: 0.00165, max: 0.007, currency: 'USD' },
      perRunCapUsd: null,
      highCost: false,
    });
  });

  it('answers the contract quirk: a templateId and an intake instead of a definition pass with zero steps and a warning', async () => {
    const res = await dryRun({ templateId: 'plan-research-report', intake: { topic: 'soil' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ok: true,
      stepCount: 0,
      steps: [],
      errors: [],
      estimate: { estimatedCost: { typical: 0 }, highCost: false },
    });
    expect(res.body.warnings).toContain('the template has no runtime steps');
  });

  it('reports definition and intake problems together, as sentences', async () => {
    const res = await dryRun({
      intakeSchema,
      runtimeSteps: [
        ...steps,
        { id: 'step-3', name: 'Broken', kind: 'magic' },
        { id: 'step-4', name: 'Judge', kind: 'llm', role: 'classifier', gateId: 'ghost' },
      ],
      providers: { ...providers, imageGenerator: 'acme/none' },
      gates: [
        { id: 'g', name: 'G', type: 'quality', inputs: [], outputs: [], unlocks: ['nope'] },
        { id: 'g', name: 'G2', type: 'quality', inputs: [], outputs: [] },
      ],
      intake: { depth: 'huge', extra: 1 },
    });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(false);
    expect(res.body.stepCount).toBe(4);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        'runtimeSteps.2.kind: must be one of llm, image, tool, subWorkflow, agent, code (got "magic")',
        'gate id "g" is used more than once',
        'gate "g" unlocks "nope", which is not a gate of this workflow',
        'provider binding imageGenerator: acme/none is not a registered model (see GET /v1/models)',
        'step 4 ("step-4"): role "classifier" has no model in providers',
        'step 4 ("step-4"): gate "ghost" is not a gate of this workflow',
        'intake: topic is required',
        'intake: depth must be one of brief, deep (got "huge")',
      ]),
    );
    expect(res.body.warnings).toContain('intake: "extra" is not an intake field and would be ignored');
  });

  it('flags a high cost above the per-run cap, and above 1 USD without a cap', async () => {
    const images = Array.from({ length: 3 }, (_, i) => ({ id: `img-${i}`, name: 'Draw', kind: 'image', role: 'imageGenerator' }));
    const capped = await dryRun({
      runtimeSteps: images,
      providers: { imageGenerator: 'local/image-1' },
      budgetPolicy: { perRunCapUsd: 0.05 },
    });
    expect(capped.body.estimate).toEqual({
      estimatedCost: { min: 0.06, typical: 0.06, max: 0.06, currency: 'USD' },
      perRunCapUsd: 0.05,
      highCost: true,
    });
    expect(capped.body.ok).toBe(true);
    expect(capped.body.warnings).toEqual(
      expect.arrayContaining([expect.stringMatching(/^high cost: .* above the per-run cap of 0.05 USD$/)]),
    );
    const clips = Array.from({ length: 6 }, (_, i) => ({ id: `clip-${i}`, name: 'Film', kind: 'image', role: 'videoGenerator' }));
    const uncapped = await dryRun({ runtimeSteps: clips, providers: { videoGenerator: 'local/video-1' } });
    expect(uncapped.body.estimate).toMatchObject({ estimatedCost: { typical: 1.2 }, perRunCapUsd: null, highCost: true });
  });

  it('refuses to dry-run published workflows (409): a built-in, or a published version of the workspace', async () => {
    const builtin = await dryRun({ ...garden('2026.12.01'), id: 'plan-research-report', intake: { topic: 'x' } });
    expect(builtin.status).toBe(409);
    expect(builtin.body.detail).toMatchObject({
      code: 'workflow_published',
      id: 'plan-research-report',
      message: expect.stringMatching(/published workflows cannot be dry-run/),
    });

    expect((await h.request('POST', '/v1/workflows', { token: owner.token, body: { definition: garden('2026.11.01') } })).status).toBe(201);
    expect(
      (await h.request('POST', '/v1/workflows/plan-garden-notes/publish', { token: owner.token, body: { version: '2026.11.01' } })).status,
    ).toBe(200);
    const published = await dryRun({ ...garden('2026.11.01'), intake: { topic: 'x' } });
    expect(published.status).toBe(409);
    expect(published.body.detail).toMatchObject({ code: 'workflow_published', version: '2026.11.01' });

    const next = await dryRun({ ...garden('2026.11.02'), intake: { topic: 'x' } });
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({ ok: true, stepCount: 2, errors: [], warnings: [] });
    const older = await dryRun({ ...garden('2026.10.01'), intake: { topic: 'x' } });
    expect(older.body).toMatchObject({ ok: false, errors: ['version "2026.10.01" must be later than the previous version "2026.11.01"'] });

    const draftCount = await h.db.selectFrom('workflow_versions').selectAll().where('workflow_id', '=', 'plan-garden-notes').execute();
    expect(draftCount.map((v) => v.version)).toEqual(['2026.11.01']);
  });

  it('needs credentials', async () => {
    expect((await h.request('POST', '/v1/workflows/dry-run', { body: { runtimeSteps: steps } })).status).toBe(401);
    expect((await h.request('POST', '/v1/workflows/estimate', { body: { runtimeSteps: steps, providers } })).status).toBe(401);
  });
});

describe('POST /v1/workflows/estimate', () => {
  it('prices the steps on their bindings', async () => {
    const res = await estimate({
      runtimeSteps: [...steps, { id: 'img', name: 'Draw', kind: 'image', role: 'imageGenerator' }],
      providers: { ...providers, imageGenerator: 'local/image-1' },
      budgetPolicy: { perRunCapUsd: 0.01 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      estimatedCost: { min: 0.0204, typical: 0.02165, max: 0.027, currency: 'USD' },
      perRunCapUsd: 0.01,
      highCost: true,
      steps: [
        { id: 'step-1', typicalUsd: 0.00165 },
        { id: 'step-2', typicalUsd: 0 },
        { id: 'img', typicalUsd: 0.02 },
      ],
    });
  });

  it('refuses unknown models, unbound roles and malformed steps with 422 workflow_invalid', async () => {
    const res = await estimate({
      runtimeSteps: [...steps, { id: 'x', name: 'X', kind: 'teleport' }, { id: 'y', name: 'Y', kind: 'image', role: 'imageGenerator' }],
      providers: { textGenerator: 'acme/writer-9' },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual({
      error: 'workflow_invalid',
      code: 'workflow_invalid',
      errors: [
        'runtimeSteps.2.kind: must be one of llm, image, tool, subWorkflow, agent, code (got "teleport")',
        'provider binding textGenerator: acme/writer-9 is not a registered model (see GET /v1/models)',
        'step 3 ("y"): role "imageGenerator" has no model in providers',
      ],
    });
    const shapeless = await estimate({ runtimeSteps: steps });
    expect(shapeless.status).toBe(422);
    expect(shapeless.body.detail[0]).toMatchObject({ type: 'missing', loc: ['body', 'providers'] });
  });

  it('refuses to estimate a published catalog workflow (409)', async () => {
    const res = await estimate({ id: 'compose-article', runtimeSteps: steps, providers });
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatchObject({ code: 'workflow_published' });
  });
});

describe('generated bad definitions over HTTP (seeded)', () => {
  let seed = 1234;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const MUTATIONS: Array<(d: any) => void> = [
    (d) => delete d[pick(['name', 'artifactClass', 'version', 'cadence', 'gates', 'providers', 'outputShape', 'artifactSchema'])],
    (d) => (d[pick(['name', 'version', 'runtimeSteps', 'gates', 'providers', 'budgetPolicy'])] = pick([42, 'text', true])),
    (d) =>
      Array.isArray(d.runtimeSteps) && d.runtimeSteps[0] ? (d.runtimeSteps[0].kind = pick(['spell', '', 'LLM'])) : (d.runtimeSteps = []),
    (d) =>
      (d.gates = [
        { id: 'g', name: 'G', type: 'budget', inputs: [], outputs: [] },
        { id: 'g', name: 'G', type: 'budget', inputs: [], outputs: [] },
      ]),
    (d) => (d.gates = [{ id: 'g', name: 'G', type: 'budget', inputs: [], outputs: [], unlocks: ['ghost'] }]),
    (d) => (d.intakeSchema.fields[0].type = pick(['text', 'date', 7])),
    (d) => (d.providers = { textGenerator: pick(['nobody/none', 'local/video-1']) }),
    (d) => (d.version = pick(['2026.13.01', 'v2', '2026-11-01'])),
  ];

  it('refuses every mutant with 422 workflow_invalid and plain-language errors; dry runs of them never fail', async () => {
    for (let i = 0; i < 40; i++) {
      const def: any = JSON.parse(JSON.stringify(garden('2026.11.20', { id: 'plan-mutant-notes' })));
      for (let n = 1 + Math.floor(next() * 3); n > 0; n--) pick(MUTATIONS)(def);
      const res = await h.request('POST', '/v1/workflows', { token: owner.token, body: { definition: def } });
      expect(res.status, JSON.stringify(def)).toBe(422);
      expect(res.body.detail.error, JSON.stringify(res.body)).toBe('workflow_invalid');
      expect(res.body.detail.errors.length).toBeGreaterThan(0);
      expect(res.body.detail.errors.every((e: unknown) => typeof e === 'string' && !e.includes('[object') && !/^\s*[[{]/.test(e))).toBe(
        true,
      );
      const dry = await dryRun({ ...def, intake: { topic: 'x' } });
      expect(dry.status).toBe(200);
    }
    expect((await h.request('GET', '/v1/workflows/plan-mutant-notes', { token: owner.token })).status).toBe(404);
  });
});
