import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';

/** Brands over HTTP against the real stack: profiles, imports (real compose-brand-profile runs), publishing and font capture. */
let h: Harness;
let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let stranger: TestUser;
let fontServer: http.Server;
let fontBase: string;
const FONT_BYTES = randomBytes(4096);
let fontHits = 0;

const as = (u: TestUser) => ({
  get: (p: string) => h.request('GET', p, { token: u.token }),
  post: (p: string, body?: unknown) => h.request('POST', p, { token: u.token, body }),
  patch: (p: string, body: unknown, headers?: Record<string, string>) => h.request('PATCH', p, { token: u.token, body, headers }),
});

const profile = (extra: Record<string, unknown> = {}) => ({
  name: 'Northwind Coffee',
  voice: { tone: 'warm, plain-spoken', keywords: ['craft', 'origin', 'morning'] },
  visual: { colors: ['#1a2b3c', '#f5e6d3'], fonts: [{ family: 'Inter' }], logoArtifactId: null },
  audience: 'Home brewers who care where their beans come from',
  guidelines: 'Short sentences. Name the farm. Never say "artisanal".',
  ...extra,
});

async function newBrand(u: TestUser = owner, extra: Record<string, unknown> = {}, ws = owner.workspaceId) {
  const res = await as(u).post('/v1/brands', { workspaceId: ws, name: `Brand ${randomUUID().slice(0, 6)}`, profile: profile(extra) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

beforeAll(async () => {
  // Model calls take a moment, so an import is still running when a second one is asked for.
  h = await startHarness({ localLatencyMs: 400 });
  owner = await registerUser(h, 'Owner');
  admin = await registerUser(h, 'Admin');
  member = await registerUser(h, 'Member');
  stranger = await registerUser(h, 'Stranger');
  for (const [u, role] of [
    [admin, 'admin'],
    [member, 'member'],
  ] as const) {
    expect((await as(owner).post(`/v1/workspaces/${owner.workspaceId}/members`, { email: u.email, role })).status).toBe(201);
  }
  fontServer = http.createServer((req, res) => {
    if (req.url === '/fonts/brand.woff2') {
      fontHits++;
      res.writeHead(200, { 'content-type': 'font/woff2', 'content-length': String(FONT_BYTES.length) });
      res.end(FONT_BYTES);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('no such font');
  });
  await new Promise<void>((resolve) => fontServer.listen(0, '127.0.0.1', resolve));
  fontBase = `http://127.0.0.1:${(fontServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => fontServer?.close(resolve));
  await h?.stop();
});

describe('brands', () => {
  it('creates the brand project and its profile together; it is a project of kind brand; members read it', async () => {
    const brand = await newBrand(admin);
    expect(brand).toMatchObject({
      kind: 'brand',
      workspaceId: owner.workspaceId,
      archived: false,
      currentSnapshotId: null,
      activeImportRunId: null,
      profile: profile(),
    });
    expect(typeof brand.etag).toBe('string');
    const projects = await as(member).get(`/v1/workspaces/${owner.workspaceId}/projects?limit=100`);
    expect(projects.body.items.find((p: any) => p.id === brand.id)).toMatchObject({ kind: 'brand', name: brand.name });
    const read = await as(member).get(`/v1/brands/${brand.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(brand);
    expect(read.headers.get('etag')).toBe(`"${brand.etag}"`);
    // A profile needs only what it needs: the name defaults to the brand's, the rest to empty values.
    const bare = await as(owner).post('/v1/brands', { workspaceId: owner.workspaceId, name: 'Bare', profile: {} });
    expect(bare.status).toBe(201);
    expect(bare.body.profile).toEqual({
      name: 'Bare',
      voice: { tone: '', keywords: [] },
      visual: { colors: [], fonts: [], logoArtifactId: null },
      audience: '',
      guidelines: '',
    });
  });

  it('lists brands of a workspace with paging; workspaceId is required; archiving the project hides the brand', async () => {
    const ws = (await as(owner).post('/v1/workspaces', { name: 'Brand list' })).body.id;
    const a = await newBrand(owner, {}, ws);
    const b = await newBrand(owner, {}, ws);
    await as(owner).post(`/v1/workspaces/${ws}/projects`, { name: 'Not a brand' });
    const all = await as(owner).get(`/v1/brands?workspaceId=${ws}`);
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(2);
    expect(all.body.items.map((x: any) => x.id)).toEqual([b.id, a.id]);
    const page = await as(owner).get(`/v1/brands?workspaceId=${ws}&offset=1&limit=1`);
    expect(page.body).toMatchObject({ total: 2, items: [{ id: a.id }] });

    const missing = await as(owner).get('/v1/brands');
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toEqual([
      expect.objectContaining({ type: 'missing', loc: ['query', 'workspaceId'], msg: 'Field required' }),
    ]);
    expect((await as(owner).get(`/v1/brands?workspaceId=${ws}&limit=0`)).status).toBe(422);
    expect((await as(owner).get(`/v1/brands?workspaceId=${ws}&limit=101`)).status).toBe(422);

    const archived = await as(owner).patch(`/v1/workspaces/${ws}/projects/${a.id}`, { archived: true });
    expect(archived.body).toMatchObject({ kind: 'brand', archived: true });
    const live = await as(owner).get(`/v1/brands?workspaceId=${ws}`);
    expect(live.body).toMatchObject({ total: 1, items: [{ id: b.id }] });
    const withArchived = await as(owner).get(`/v1/brands?workspaceId=${ws}&includeArchived=true`);
    expect(withArchived.body.total).toBe(2);
    expect((await as(owner).get(`/v1/brands/${a.id}`)).body.archived).toBe(true);
  });

  it('refuses members writes (403 admin_required) and hides brands from other workspaces (404)', async () => {
    const brand = await newBrand();
    const create = await as(member).post('/v1/brands', { workspaceId: owner.workspaceId, name: 'Nope', profile: profile() });
    expect(create.status).toBe(403);
    expect(create.body.detail).toMatchObject({ code: 'admin_required' });
    for (const res of [
      await as(member).patch(`/v1/brands/${brand.id}`, { audience: 'x' }),
      await as(member).post(`/v1/brands/${brand.id}/import`, { notes: 'a coffee roaster' }),
      await as(member).post(`/v1/brands/${brand.id}/profile/publish`),
      await as(member).post(`/v1/brands/${brand.id}/profile/confirm`, { runId: 'run-00000000' }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.detail.code).toBe('admin_required');
    }
    for (const res of [
      await as(stranger).get(`/v1/brands/${brand.id}`),
      await as(stranger).get(`/v1/brands?workspaceId=${owner.workspaceId}`),
      await as(stranger).patch(`/v1/brands/${brand.id}`, { audience: 'x' }),
      await as(stranger).post(`/v1/brands/${brand.id}/profile/publish`),
      await as(stranger).post(`/v1/brands/${brand.id}/import`, { notes: 'x' }),
      await as(stranger).get(`/v1/brands/${brand.id}/snapshots`),
      await as(stranger).post('/v1/brands', { workspaceId: owner.workspaceId, name: 'Theirs', profile: profile() }),
    ]) {
      expect(res.status).toBe(404);
      expect(typeof res.body.detail).toBe('string');
    }
    // A plain project is not a brand.
    const project = await as(owner).post(`/v1/workspaces/${owner.workspaceId}/projects`, { name: 'Plain' });
    expect((await as(owner).get(`/v1/brands/${project.body.id}`)).status).toBe(404);
    expect((await as(owner).get(`/v1/brands/${randomUUID()}`)).status).toBe(404);
  });

  it('bounds every string and array of the profile', async () => {
    const long = (n: number) => 'x'.repeat(n);
    const cases = [
      { name: long(201) },
      { voice: { tone: long(501), keywords: [] } },
      { voice: { tone: 'ok', keywords: Array(21).fill('k') } },
      { visual: { colors: Array(13).fill('#000000'), fonts: [] } },
      { visual: { colors: ['red'], fonts: [] } },
      { visual: { colors: [], fonts: Array(9).fill({ family: 'A' }) } },
      { visual: { colors: [], fonts: [{ family: long(101) }] } },
      { visual: { colors: [], fonts: [{ family: 'A', url: 'ftp://example.com/a.woff2' }] } },
      { audience: long(2001) },
      { guidelines: long(10001) },
    ];
    for (const p of cases) {
      const res = await as(owner).post('/v1/brands', { workspaceId: owner.workspaceId, name: 'Bounded', profile: { ...profile(), ...p } });
      expect(res.status, JSON.stringify(p).slice(0, 120)).toBe(422);
      expect(Array.isArray(res.body.detail)).toBe(true);
    }
    const noWs = await as(owner).post('/v1/brands', { name: 'x', profile: profile() });
    expect(noWs.status).toBe(422);
    expect(noWs.body.detail[0]).toMatchObject({ type: 'missing', loc: ['body', 'workspaceId'] });
    const logo = await as(owner).post('/v1/brands', {
      workspaceId: owner.workspaceId,
      name: 'x',
      profile: profile({ visual: { colors: [], fonts: [], logoArtifactId: 'artifact-nope' } }),
    });
    expect(logo.status).toBe(422);
    expect(logo.body.detail).toMatchObject({ code: 'artifact_not_found' });
  });

  it('edits the working copy (voice and visual merge one level); a stale etag is 409 with the brand as it stands', async () => {
    const brand = await newBrand();
    const edited = await as(admin).patch(`/v1/brands/${brand.id}`, { voice: { tone: 'brisk' }, audience: 'Cafés', etag: brand.etag });
    expect(edited.status).toBe(200);
    expect(edited.body.profile).toEqual({ ...profile(), voice: { ...profile().voice, tone: 'brisk' }, audience: 'Cafés' });
    expect(edited.body.etag).not.toBe(brand.etag);
    const stale = await as(admin).patch(`/v1/brands/${brand.id}`, { audience: 'Offices' }, { 'if-match': `"${brand.etag}"` });
    expect(stale.status).toBe(409);
    expect(stale.body.detail).toMatchObject({ code: 'etag_mismatch', current: { id: brand.id, profile: { audience: 'Cafés' } } });
    const noEtag = await as(admin).patch(`/v1/brands/${brand.id}`, { visual: { colors: ['#000000'] } });
    expect(noEtag.body.profile.visual).toEqual({ ...profile().visual, colors: ['#000000'] });
  });
});

describe('imports', () => {
  it('runs compose-brand-profile as a run, one at a time per brand (two at once: exactly one 201), and never touches the working copy', async () => {
    const brand = await newBrand();
    const racing = await Promise.all([
      as(owner).post(`/v1/brands/${brand.id}/import`, { notes: 'A small roaster in Leeds, bright and friendly' }),
      as(admin).post(`/v1/brands/${brand.id}/import`, { url: 'https://northwind.example.com' }),
    ]);
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409]);
    const started = racing.find((r) => r.status === 201)!.body;
    const refused = racing.find((r) => r.status === 409)!.body;
    expect(started).toMatchObject({
      templateId: 'compose-brand-profile',
      projectId: brand.id,
      workspaceId: owner.workspaceId,
      status: 'pending',
    });
    expect(refused.detail).toMatchObject({ code: 'import_active', runId: started.id });
    // Exactly one run exists for the brand: the loser's run was rolled back with its import.
    const runs = await h.db.selectFrom('runs').select('id').where('project_id', '=', brand.id).execute();
    expect(runs.map((r) => r.id)).toEqual([started.id]);

    const again = await as(owner).post(`/v1/brands/${brand.id}/import`, { notes: 'again' });
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatchObject({ code: 'import_active', runId: started.id });
    expect((await as(owner).get(`/v1/brands/${brand.id}`)).body.activeImportRunId).toBe(started.id);

    const early = await as(owner).post(`/v1/brands/${brand.id}/profile/confirm`, { runId: started.id });
    expect(early.status).toBe(409);
    expect(early.body.detail).toMatchObject({ code: 'import_not_finished', runId: started.id });

    const done = await waitForRun(h, owner.token, started.id);
    expect(done.status).toBe('completed');
    const proposal = await as(owner).get(`/v1/artifacts/${done.artifactId}`);
    expect(proposal.body).toMatchObject({ artifactClass: 'knowledge', artifactType: 'brand-profile', content: { status: 'proposal' } });
    const after = await as(owner).get(`/v1/brands/${brand.id}`);
    expect(after.body.profile).toEqual(brand.profile);
    expect(after.body.activeImportRunId).toBeNull();

    // The import has ended: another may start.
    const next = await as(owner).post(`/v1/brands/${brand.id}/import`, { notes: 'a second look' });
    expect(next.status).toBe(201);
    await waitForRun(h, owner.token, next.body.id);
  });

  it("confirms a finished proposal whole or by field; refuses other brands' proposals, unfinished and failed runs", async () => {
    const brand = await newBrand();
    const other = await newBrand();
    const imp = await as(owner).post(`/v1/brands/${brand.id}/import`, { notes: 'Bold outdoor gear for rainy cities' });
    expect(imp.status).toBe(201);
    const run = await waitForRun(h, owner.token, imp.body.id);
    expect(run.status).toBe('completed');
    const proposed = (await as(owner).get(`/v1/artifacts/${run.artifactId}`)).body.content.profile;

    const foreign = await as(owner).post(`/v1/brands/${other.id}/profile/confirm`, { runId: imp.body.id });
    expect(foreign.status).toBe(422);
    expect(foreign.body.detail).toMatchObject({ code: 'proposal_not_for_brand', runId: imp.body.id });
    const plainRun = await as(owner).post('/v1/runs', { templateId: 'plan-research-report', intake: { topic: 'rain' } });
    const notImport = await as(owner).post(`/v1/brands/${brand.id}/profile/confirm`, { runId: plainRun.body.id });
    expect(notImport.body.detail).toMatchObject({ code: 'proposal_not_for_brand' });

    const voiceOnly = await as(owner).post(`/v1/brands/${brand.id}/profile/confirm`, { runId: imp.body.id, fields: ['voice'] });
    expect(voiceOnly.status).toBe(200);
    expect(voiceOnly.body.profile).toEqual({ ...brand.profile, voice: proposed.voice });

    const whole = await as(owner).post(`/v1/brands/${brand.id}/profile/confirm`, { runId: imp.body.id });
    expect(whole.status).toBe(200);
    expect(whole.body.profile).toMatchObject({
      name: proposed.name,
      voice: proposed.voice,
      audience: proposed.audience,
      guidelines: proposed.guidelines,
    });
    expect(whole.body.profile.visual.colors).toEqual(proposed.visual.colors);
    expect((await as(owner).post(`/v1/brands/${brand.id}/profile/confirm`, { runId: imp.body.id, fields: ['nonsense'] })).status).toBe(422);

    // A cancelled import has no proposal to confirm.
    const cancelled = await as(owner).post(`/v1/brands/${other.id}/import`, { notes: 'to be cancelled' });
    expect(cancelled.status).toBe(201);
    expect((await as(owner).post(`/v1/runs/${cancelled.body.id}/cancel`)).status).toBeLessThan(300);
    const ended = await waitForRun(h, owner.token, cancelled.body.id);
    expect(ended.status).toBe('cancelled');
    const failed = await as(owner).post(`/v1/brands/${other.id}/profile/confirm`, { runId: cancelled.body.id });
    expect(failed.status).toBe(422);
    expect(failed.body.detail).toMatchObject({ code: 'import_failed', runId: cancelled.body.id, status: 'cancelled' });
  });

  it("answers to the brand's budgets like any run: a project budget at its limit refuses the import with 402 and records no import", async () => {
    const brand = await newBrand();
    const budget = await as(owner).post('/v1/budgets', {
      scope: 'project',
      workspaceId: owner.workspaceId,
      projectId: brand.id,
      limitUsd: 0,
      period: 'total',
      enforcementMode: 'hard_stop',
    });
    expect(budget.status, JSON.stringify(budget.body)).toBe(201);
    const refused = await as(owner).post(`/v1/brands/${brand.id}/import`, { notes: 'over budget' });
    expect(refused.status).toBe(402);
    expect(refused.body.detail).toMatchObject({ code: 'budget_exceeded', budgetId: budget.body.id, scope: 'project' });
    expect(await h.db.selectFrom('brand_imports').selectAll().where('project_id', '=', brand.id).execute()).toEqual([]);
    expect((await as(owner).get(`/v1/brands/${brand.id}`)).body.activeImportRunId).toBeNull();
  });

  it('refuses an import with neither url nor notes', async () => {
    const brand = await newBrand();
    const res = await as(owner).post(`/v1/brands/${brand.id}/import`, {});
    expect(res.status).toBe(422);
    expect(Array.isArray(res.body.detail)).toBe(true);
  });
});

describe('publishing', () => {
  it('snapshots the working copy as an immutable knowledge artifact; unchanged → the standing snapshot; changed → a new one, earlier ones readable', async () => {
    const brand = await newBrand();
    const first = await as(owner).post(`/v1/brands/${brand.id}/profile/publish`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      brandId: brand.id,
      profile: brand.profile,
      current: true,
      fontCapture: { family: 'Inter', status: 'skipped' },
    });
    expect(first.body.contentHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    const again = await as(owner).post(`/v1/brands/${brand.id}/profile/publish`);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    const concurrent = await Promise.all([1, 2, 3].map(() => as(owner).post(`/v1/brands/${brand.id}/profile/publish`)));
    expect(new Set(concurrent.map((r) => r.body.id))).toEqual(new Set([first.body.id]));
    expect((await as(owner).get(`/v1/brands/${brand.id}`)).body.currentSnapshotId).toBe(first.body.id);

    const artifact = await as(member).get(`/v1/artifacts/${first.body.id}`);
    expect(artifact.status).toBe(200);
    expect(artifact.body).toMatchObject({
      artifactClass: 'knowledge',
      artifactType: 'brand-profile',
      projectId: brand.id,
      content: { status: 'published', profile: brand.profile },
    });

    await as(owner).patch(`/v1/brands/${brand.id}`, { guidelines: 'Say less.' });
    const second = await as(owner).post(`/v1/brands/${brand.id}/profile/publish`);
    expect(second.body.id).not.toBe(first.body.id);
    expect(second.body.profile.guidelines).toBe('Say less.');
    const list = await as(member).get(`/v1/brands/${brand.id}/snapshots`);
    expect(list.body.total).toBe(2);
    expect(list.body.items.map((s: any) => [s.id, s.current])).toEqual([
      [second.body.id, true],
      [first.body.id, false],
    ]);
    const old = await as(owner).get(`/v1/artifacts/${first.body.id}`);
    expect(old.body.content.profile.guidelines).toBe(brand.profile.guidelines);

    // The database keeps snapshots immutable whoever writes.
    await expect(h.db.updateTable('artifacts').set({ title: 'changed' }).where('id', '=', first.body.id).execute()).rejects.toThrow(
      /cannot be changed/,
    );
    await expect(h.db.updateTable('brand_snapshots').set({ content_hash: 'x' }).where('id', '=', first.body.id).execute()).rejects.toThrow(
      /cannot be changed/,
    );
  });

  it('captures the first font with a url once, from a loopback server through the egress policy, into storage', async () => {
    const url = `${fontBase}/fonts/brand.woff2`;
    const brand = await newBrand(owner, {
      visual: {
        colors: ['#000000'],
        fonts: [{ family: 'Plain' }, { family: 'Brandface', url }, { family: 'Other', url: `${fontBase}/fonts/other.woff2` }],
        logoArtifactId: null,
      },
    });
    const hitsBefore = fontHits;
    const snap = await as(owner).post(`/v1/brands/${brand.id}/profile/publish`);
    expect(snap.status).toBe(200);
    expect(snap.body.fontCapture).toMatchObject({
      family: 'Brandface',
      url,
      status: 'captured',
      bytes: FONT_BYTES.length,
      contentType: 'font/woff2',
    });
    const stored = await h.storage.get(snap.body.fontCapture.storageKey);
    expect(stored.equals(FONT_BYTES)).toBe(true);
    expect(fontHits).toBe(hitsBefore + 1);
    // Unchanged: nothing fetched again. Changed elsewhere, same font: the capture is reused, not refetched.
    await as(owner).post(`/v1/brands/${brand.id}/profile/publish`);
    await as(owner).patch(`/v1/brands/${brand.id}`, { audience: 'Everyone' });
    const next = await as(owner).post(`/v1/brands/${brand.id}/profile/publish`);
    expect(next.body.id).not.toBe(snap.body.id);
    expect(next.body.fontCapture).toMatchObject({ status: 'captured', storageKey: snap.body.fontCapture.storageKey });
    expect(fontHits).toBe(hitsBefore + 1);
  });

  it('publishes even when the font cannot be fetched, recording why', async () => {
    const missing = await newBrand(owner, {
      visual: { colors: [], fonts: [{ family: 'Gone', url: `${fontBase}/fonts/missing.woff2` }], logoArtifactId: null },
    });
    const a = await as(owner).post(`/v1/brands/${missing.id}/profile/publish`);
    expect(a.status).toBe(200);
    expect(a.body.fontCapture).toMatchObject({ family: 'Gone', status: 'failed', error: expect.stringContaining('404') });
    expect(a.body.fontCapture.storageKey).toBeUndefined();
    expect((await as(owner).get(`/v1/brands/${missing.id}`)).body.currentSnapshotId).toBe(a.body.id);

    // The cloud metadata address is refused by the egress policy before any connection.
    const refused = await newBrand(owner, {
      visual: { colors: [], fonts: [{ family: 'Meta', url: 'http://169.254.169.254/latest/font.woff2' }], logoArtifactId: null },
    });
    const b = await as(owner).post(`/v1/brands/${refused.id}/profile/publish`);
    expect(b.status).toBe(200);
    expect(b.body.fontCapture).toMatchObject({
      family: 'Meta',
      status: 'failed',
      error: expect.stringMatching(/non-public address|not allowed/),
    });
  });
});

describe('/openapi.json', () => {
  const OPERATIONS = [
    'post /v1/brands',
    'get /v1/brands',
    'get /v1/brands/{project_id}',
    'patch /v1/brands/{project_id}',
    'post /v1/brands/{project_id}/import',
    'post /v1/brands/{project_id}/profile/confirm',
    'post /v1/brands/{project_id}/profile/publish',
    'get /v1/brands/{project_id}/snapshots',
    'post /v1/campaigns',
    'get /v1/campaigns',
    'get /v1/campaigns/{campaign_id}',
    'patch /v1/campaigns/{campaign_id}',
    'post /v1/campaigns/{campaign_id}/submit',
    'get /v1/campaigns/{campaign_id}/request',
    'post /v1/campaigns/{campaign_id}/archive',
    'get /v1/ops/tasks',
    'get /v1/ops/inbox',
    'post /v1/ops/campaigns/{campaign_id}/request',
  ];

  it('documents every brand, campaign and operator route, with every input string and array bounded', async () => {
    const doc = (await h.request('GET', '/openapi.json')).body;
    const resolve = (s: any): any => (s?.$ref ? resolve(doc.components.schemas[s.$ref.split('/').pop()]) : s);
    const unbounded: string[] = [];
    const walk = (raw: any, where: string, seen = new Set<any>()) => {
      const s = resolve(raw);
      if (!s || seen.has(s)) return;
      seen.add(s);
      for (const k of ['anyOf', 'oneOf', 'allOf'] as const) for (const [i, x] of (s[k] ?? []).entries()) walk(x, `${where}|${i}`, seen);
      const types = [s.type].flat();
      if (types.includes('string') && s.maxLength === undefined && !s.enum && s.const === undefined && s.format !== 'uuid' && !s.pattern)
        unbounded.push(where);
      if (types.includes('array')) {
        if (s.maxItems === undefined) unbounded.push(where);
        walk(s.items, `${where}[]`, seen);
      }
      for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, `${where}.${k}`, seen);
    };
    for (const op of OPERATIONS) {
      const [method, path] = op.split(' ') as [string, string];
      const operation = doc.paths[path]?.[method];
      expect(operation, op).toBeDefined();
      expect(operation.operationId, op).toBeTruthy();
      for (const p of operation.parameters ?? []) walk(p.schema, `${op} ${p.in}:${p.name}`);
      walk(operation.requestBody?.content?.['application/json']?.schema, `${op} body`);
    }
    expect(unbounded).toEqual([]);
    const listBrands = doc.paths['/v1/brands'].get.parameters.find((p: any) => p.name === 'workspaceId');
    expect(listBrands.required).toBe(true);
  });
});
