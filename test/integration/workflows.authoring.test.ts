import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';

/**
 * The visibility ladder over HTTP with a worker running: a workspace authors a draft, runs of it are
 * recorded but never executed, publishing it internal makes it runnable but never public, later
 * versions leave earlier runs pinned, deprecation refuses new runs; members and outsiders are kept out.
 */
let h: Harness;
let owner: TestUser;
let member: TestUser;
let outsider: TestUser;

const ID = 'plan-garden-notes';

function garden(version: string, extra: Record<string, unknown> = {}) {
  return {
    id: ID,
    name: 'Garden notes',
    description: 'Notes on a garden topic',
    artifactClass: 'knowledge',
    version,
    cadence: 'on-demand',
    intakeSchema: { fields: [{ name: 'topic', type: 'string', required: true, description: 'What to write notes on' }] },
    runtimeSteps: [
      { id: 'step-1', name: 'Write notes', kind: 'llm', role: 'textGenerator', prompt: 'Write short garden notes on {{intake.topic}}' },
      { id: 'step-2', name: 'Keep the notes', kind: 'code', function: 'identity', inputPath: 'step-1' },
    ],
    gates: [],
    providers: { textGenerator: 'local/text-1' },
    budgetPolicy: { perRunCapUsd: 0.1 },
    artifactSchema: { artifactClass: 'knowledge', artifactType: 'article', files: ['application/json'], metadata: [] },
    outputShape: [{ artifactClass: 'knowledge', artifactType: 'article' }],
    ...extra,
  };
}

const author = (user: TestUser, definition: unknown, workspaceId?: string) =>
  h.request('POST', '/v1/workflows', { token: user.token, body: { definition, ...(workspaceId ? { workspaceId } : {}) } });
const publish = (user: TestUser, version: string, visibility = 'internal') =>
  h.request('POST', `/v1/workflows/${ID}/publish`, { token: user.token, body: { version, visibility } });
const startRun = (user: TestUser, templateId = ID) =>
  h.request('POST', '/v1/runs', { token: user.token, body: { templateId, intake: { topic: 'tomatoes' } } });

beforeAll(async () => {
  h = await startHarness();
  [owner, member, outsider] = await Promise.all([registerUser(h, 'Owner'), registerUser(h, 'Member'), registerUser(h, 'Outsider')]);
  const added = await h.request('POST', `/v1/workspaces/${owner.workspaceId}/members`, {
    token: owner.token,
    body: { email: member.email, role: 'member' },
  });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
});
afterAll(() => h?.stop());

describe('the visibility ladder', () => {
  let draftRunId = '';
  let firstRunId = '';

  it('refuses a member who tries to author: only owners and admins change workflows', async () => {
    const res = await author(member, garden('2026.11.01'), owner.workspaceId);
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatchObject({ code: 'admin_required' });
  });

  it('creates the workflow as a draft (201), then replaces the draft (200)', async () => {
    const created = await author(owner, garden('2026.11.01', { name: 'Garden jottings' }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      id: ID,
      name: 'Garden jottings',
      workspaceId: owner.workspaceId,
      builtin: false,
      status: 'active',
      visibility: 'draft',
      liveVersion: null,
      draftVersion: '2026.11.01',
    });
    expect(created.body.versions).toEqual([
      expect.objectContaining({ version: '2026.11.01', state: 'draft', visibility: 'draft', publishedAt: null }),
    ]);

    const replaced = await author(owner, garden('2026.11.01'));
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ name: 'Garden notes', definitionVersion: '2026.11.01' });
    expect(replaced.body.versions).toHaveLength(1);
    expect(replaced.body.definition.runtimeSteps[0].prompt).toBe('Write short garden notes on {{intake.topic}}');
  });

  it('records a run of the draft as failed draft_not_executed, and never executes it', async () => {
    const created = await startRun(owner);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    draftRunId = created.body.id;
    const run = (await h.request('GET', `/v1/runs/${draftRunId}`, { token: owner.token })).body;
    expect(run).toMatchObject({ status: 'failed', errorCode: 'draft_not_executed', workflowVersion: '2026.11.01' });
    expect(run.notExecutedReason).toMatch(/draft/);
    expect(run.runSteps.map((s: any) => s.status)).toEqual(['pending', 'pending']);
    await new Promise((r) => setTimeout(r, 500));
    expect(await h.db.selectFrom('run_steps').selectAll().where('run_id', '=', draftRunId).execute()).toEqual([]);
    expect((await h.request('GET', `/v1/runs/${draftRunId}`, { token: owner.token })).body.status).toBe('failed');
  });

  it('keeps drafts out of the public catalog', async () => {
    const catalog = await h.request('GET', '/v1/catalog/workflows?limit=100');
    expect(catalog.body.items.map((w: any) => w.id)).not.toContain(ID);
    expect((await h.request('GET', `/v1/catalog/workflows/${ID}`)).status).toBe(404);
  });

  it('refuses to publish a workspace workflow as public', async () => {
    const res = await publish(owner, '2026.11.01', 'public');
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'visibility'], input: 'public' });
  });

  it('publishes internal: the run executes and completes, and the workflow stays out of the public catalog', async () => {
    const res = await publish(owner, '2026.11.01');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ visibility: 'internal', liveVersion: '2026.11.01', draftVersion: null });
    expect(res.body.versions[0]).toMatchObject({
      version: '2026.11.01',
      state: 'published',
      visibility: 'internal',
      publishedAt: expect.any(String),
    });

    const created = await startRun(owner);
    expect(created.status).toBe(201);
    firstRunId = created.body.id;
    const run = await waitForRun(h, owner.token, firstRunId);
    expect(run).toMatchObject({ status: 'completed', workflowVersion: '2026.11.01' });
    expect(run.runSteps.map((s: any) => [s.kind, s.status])).toEqual([
      ['llm', 'completed'],
      ['code', 'completed'],
    ]);

    const catalog = await h.request('GET', '/v1/catalog/workflows?limit=100');
    expect(catalog.body.items.map((w: any) => w.id)).toContain('plan-research-report');
    expect(catalog.body.items.map((w: any) => w.id)).not.toContain(ID);
    expect((await h.request('GET', `/v1/catalog/workflows/${ID}`)).status).toBe(404);
  });

  it('freezes published versions: the same version cannot be saved or published again (409)', async () => {
    const saved = await author(owner, garden('2026.11.01', { name: 'Changed' }));
    expect(saved.status).toBe(409);
    expect(saved.body.detail).toMatchObject({ code: 'version_frozen', version: '2026.11.01' });
    const republished = await publish(owner, '2026.11.01');
    expect(republished.status).toBe(409);
    expect(republished.body.detail).toMatchObject({ code: 'version_frozen' });
    const stored = await h.request('GET', `/v1/workflows/${ID}`, { token: owner.token });
    expect(stored.body.name).toBe('Garden notes');
  });

  it('refuses a version that does not sort after the published one (422)', async () => {
    const res = await author(owner, garden('2026.10.31'));
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual({
      error: 'workflow_invalid',
      code: 'workflow_invalid',
      errors: ['version "2026.10.31" must be later than the previous version "2026.11.01"'],
    });
  });

  it('keeps earlier runs pinned when a new version is published; new runs get the new one', async () => {
    const drafted = await author(
      owner,
      garden('2026.11.02', {
        runtimeSteps: [
          ...garden('x').runtimeSteps,
          { id: 'step-3', name: 'Again', kind: 'code', function: 'identity', inputPath: 'step-2' },
        ],
      }),
    );
    expect(drafted.status).toBe(200);
    expect(drafted.body).toMatchObject({ liveVersion: '2026.11.01', draftVersion: '2026.11.02', definitionVersion: '2026.11.01' });

    const beforePublish = await waitForRun(h, owner.token, (await startRun(owner)).body.id);
    expect(beforePublish).toMatchObject({ status: 'completed', workflowVersion: '2026.11.01' });

    expect((await h.request('POST', `/v1/workflows/${ID}/publish`, { token: owner.token, body: { version: '2026.11.03' } })).status).toBe(
      404,
    );
    const published = await publish(owner, '2026.11.02');
    expect(published.status).toBe(200);
    expect(published.body.versions.map((v: any) => [v.version, v.state])).toEqual([
      ['2026.11.02', 'published'],
      ['2026.11.01', 'published'],
    ]);

    const after = await waitForRun(h, owner.token, (await startRun(owner)).body.id);
    expect(after).toMatchObject({ status: 'completed', workflowVersion: '2026.11.02' });
    expect(after.runSteps).toHaveLength(3);
    const first = (await h.request('GET', `/v1/runs/${firstRunId}`, { token: owner.token })).body;
    expect(first).toMatchObject({ workflowVersion: '2026.11.01', status: 'completed' });
    expect(first.runSteps).toHaveLength(2);
    expect(first.specVersionHash).not.toBe(after.specVersionHash);

    const versions = await h.request('GET', `/v1/workflows/${ID}/versions`, { token: member.token });
    expect(versions.body).toMatchObject({ total: 2, items: [{ version: '2026.11.02' }, { version: '2026.11.01' }] });
  });

  it('lists what the workspace can run: its own workflows and the built-ins', async () => {
    const mine = await h.request('GET', `/v1/workflows?limit=100&workspaceId=${owner.workspaceId}`, { token: member.token });
    expect(mine.status).toBe(200);
    const ids = mine.body.items.map((w: any) => w.id);
    expect(ids).toEqual(expect.arrayContaining([ID, 'plan-research-report', 'compose-article']));
    expect(mine.body.total).toBe(ids.length);
    expect(mine.body.items.find((w: any) => w.id === ID)).toMatchObject({
      visibility: 'internal',
      liveVersion: '2026.11.02',
      builtin: false,
    });
    const paged = await h.request('GET', `/v1/workflows?limit=1&offset=1&workspaceId=${owner.workspaceId}`, { token: member.token });
    const ownDefault = await h.request('GET', '/v1/workflows?limit=100', { token: member.token });
    expect(ownDefault.body.items.map((w: any) => w.id)).not.toContain(ID);
    expect(paged.body).toMatchObject({ total: ids.length, items: [{ id: ids[1] }] });

    const theirs = await h.request('GET', '/v1/workflows?limit=100', { token: outsider.token });
    expect(theirs.body.items.map((w: any) => w.id)).not.toContain(ID);
    expect(theirs.body.items.map((w: any) => w.id)).toContain('plan-research-report');
  });

  it('shows built-ins in full to any signed-in caller', async () => {
    const res = await h.request('GET', '/v1/workflows/plan-research-report', { token: outsider.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ builtin: true, workspaceId: null, visibility: 'public', liveVersion: '2026.11.01' });
    expect(res.body.definition.runtimeSteps[0].prompt).toMatch(/careful researcher/);
    expect(res.body.definition.providers).toEqual({ researcher: 'local/text-1', textGenerator: 'local/text-1' });
  });

  it('hides the workflow from another workspace: it can neither see, run nor change it (404), nor take its id (409)', async () => {
    for (const path of [`/v1/workflows/${ID}`, `/v1/workflows/${ID}/versions`]) {
      expect((await h.request('GET', path, { token: outsider.token })).status).toBe(404);
    }
    expect((await startRun(outsider)).status).toBe(404);
    expect(
      (await h.request('POST', `/v1/workflows/${ID}/publish`, { token: outsider.token, body: { version: '2026.11.02' } })).status,
    ).toBe(404);
    expect(
      (
        await h.request('POST', `/v1/workflows/${ID}/deprecate`, {
          token: outsider.token,
          body: { supersededById: 'plan-research-report' },
        })
      ).status,
    ).toBe(404);
    const taken = await author(outsider, garden('2026.12.01'));
    expect(taken.status).toBe(409);
    expect(taken.body.detail).toMatchObject({ code: 'workflow_id_taken', id: ID });
    const builtin = await author(outsider, { ...garden('2026.12.01'), id: 'plan-research-report' });
    expect(builtin.status).toBe(409);
    expect(builtin.body.detail).toMatchObject({ code: 'workflow_id_taken' });
  });

  it('deprecates: a member cannot, a missing successor is refused, and then new runs are refused naming the successor', async () => {
    const byMember = await h.request('POST', `/v1/workflows/${ID}/deprecate`, {
      token: member.token,
      body: { supersededById: 'plan-research-report' },
    });
    expect(byMember.status).toBe(403);
    expect(byMember.body.detail).toMatchObject({ code: 'admin_required' });
    const builtin = await h.request('POST', '/v1/workflows/plan-research-report/deprecate', {
      token: owner.token,
      body: { supersededById: ID },
    });
    expect(builtin.status).toBe(403);
    const missing = await h.request('POST', `/v1/workflows/${ID}/deprecate`, {
      token: owner.token,
      body: { supersededById: 'plan-nothing-here' },
    });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toMatchObject({ code: 'invalid_successor' });

    const res = await h.request('POST', `/v1/workflows/${ID}/deprecate`, {
      token: owner.token,
      body: { supersededById: 'plan-research-report' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'deprecated', supersededById: 'plan-research-report' });
    const refused = await startRun(owner);
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatchObject({ code: 'template_deprecated', templateId: ID, supersededBy: 'plan-research-report' });
    const earlier = (await h.request('GET', `/v1/runs/${draftRunId}`, { token: owner.token })).body;
    expect(earlier).toMatchObject({ status: 'failed', errorCode: 'draft_not_executed' });
  });
});

describe('validation of authored definitions', () => {
  it('reports every broken rule at once, each as a plain-language sentence', async () => {
    const def = garden('2026.02.30', {
      id: 'create-garden-notes',
      intakeSchema: {
        fields: [
          { name: 'mood', type: 'enum' },
          { name: 'photo', type: 'artifactReference' },
        ],
      },
      runtimeSteps: [
        { id: 'step-1', name: 'Write', kind: 'llm', role: 'writer', gateId: 'approve' },
        { id: 'step-1', name: 'Judge', kind: 'llm', role: 'textGenerator', gateId: 'ghost-gate', requireTrue: 'ok', suppliedBy: 'nothing' },
        { id: 'step-3', name: 'Code', kind: 'code' },
        { id: 'step-4', name: 'Tool', kind: 'tool' },
        { id: 'step-5', name: 'Child', kind: 'subWorkflow' },
        { id: 'step-6', name: 'Spell', kind: 'magic' },
      ],
      gates: [
        { id: 'approve', name: 'Approve', type: 'approval', inputs: [], outputs: [], unlocks: ['nowhere'] },
        { id: 'approve', name: 'Approve again', type: 'approval', inputs: [], outputs: [] },
      ],
      providers: { textGenerator: 'local/image-1', imageGenerator: 'acme/paint-9' },
      outputShape: [{ artifactClass: 'knowledge', artifactType: 'hologram' }],
    });
    const res = await author(owner, def);
    expect(res.status).toBe(422);
    expect(res.body.detail.error).toBe('workflow_invalid');
    const errors: string[] = res.body.detail.errors;
    const expected = [
      /^runtimeSteps\.5\.kind: must be one of llm, image, tool, subWorkflow, agent, code \(got "magic"\)$/,
      /^id "create-garden-notes" must start with one of the verbs/,
      /^version "2026\.02\.30" must be date-tagged as YYYY\.MM\.DD$/,
      /^gate id "approve" is used more than once$/,
      /^gate "approve" unlocks "nowhere", which is not a gate of this workflow$/,
      /^outputShape knowledge\/hologram is not a registered artifact type$/,
      /^provider binding textGenerator: local\/image-1 is an? image model; role textGenerator needs a text model$/,
      /^provider binding imageGenerator: acme\/paint-9 is not a registered model/,
      /step 2 \("step-1"\): step id is used more than once$/,
      /step 1 \("step-1"\): role "writer" has no model in providers$/,
      /step 2 \("step-1"\): gate "ghost-gate" is not a gate of this workflow$/,
      /step 3 \("step-3"\): a code step needs a function or an expression$/,
      /step 4 \("step-4"\): a tool step needs a tool name$/,
      /step 5 \("step-5"\): a subWorkflow step needs templateId, templateVersion and intakeMapping$/,
      /suppliedBy names "nothing", which is not an intake field$/,
      /requireTrue needs a jsonSchema/,
      /an approval gate ends the run in review, so it must judge the last step$/,
      /^intake field "mood" is an enum without options$/,
      /^intake field "photo" is an artifactReference without an artifactClass$/,
    ];
    for (const pattern of expected)
      expect(
        errors.some((e) => pattern.test(e)),
        `${pattern} in ${errors.join(' | ')}`,
      ).toBe(true);
    expect(errors.every((e) => typeof e === 'string' && !e.startsWith('{'))).toBe(true);
    expect((await h.request('GET', '/v1/workflows/create-garden-notes', { token: owner.token })).status).toBe(404);
  });

  it('reports absent required fields and wrong types alongside the rules', async () => {
    const { cadence: _c, ...def } = garden('2026.11.05', { id: 'plan-broken-notes', name: 7, runtimeSteps: [] }) as Record<string, unknown>;
    const res = await author(owner, def);
    expect(res.status).toBe(422);
    expect(res.body.detail.errors).toEqual([
      'name: must be text (got 7)',
      'cadence: is required but missing',
      'runtimeSteps must name at least one step',
    ]);
  });

  it('answers a definition that is not an object with the request-validation shape', async () => {
    const res = await h.request('POST', '/v1/workflows', { token: owner.token, body: { definition: 'plan-garden-notes' } });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'definition'] });
  });
});
