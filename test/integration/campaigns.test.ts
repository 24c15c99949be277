import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import { atelierArgs } from '../support/atelier-cli';
import { type Harness, type TestUser, registerUser, startHarness } from '../support/harness';

/** Campaigns and the operator surface over HTTP against the real stack. Operators are granted with the real CLI. */
let h: Harness;
let owner: TestUser;
let member: TestUser;
let stranger: TestUser;
let operator: TestUser;
let brand: any;
let snapshot: any;

const as = (u: TestUser) => ({
  get: (p: string) => h.request('GET', p, { token: u.token }),
  post: (p: string, body?: unknown) => h.request('POST', p, { token: u.token, body }),
  patch: (p: string, body: unknown, headers?: Record<string, string>) => h.request('PATCH', p, { token: u.token, body, headers }),
});

const brief = {
  objective: 'Launch the spring blend',
  deliverables: ['3 social posts', '1 poster'],
  deadline: '2027-03-01',
  notes: 'Keep it bright',
};

/** `atelier operators <args>` as an operator would run it, against the harness's database. */
function atelier(...args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, atelierArgs(...args), {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATABASE_URL: h.databaseUrl, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? -1, out }));
  });
}

async function newCampaign(extra: Record<string, unknown> = {}) {
  const res = await as(owner).post('/v1/campaigns', { projectId: brand.id, name: `Campaign ${randomUUID().slice(0, 6)}`, brief, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

beforeAll(async () => {
  h = await startHarness({ worker: false });
  owner = await registerUser(h, 'Owner');
  member = await registerUser(h, 'Member');
  stranger = await registerUser(h, 'Stranger');
  operator = await registerUser(h, 'Operator');
  expect((await as(owner).post(`/v1/workspaces/${owner.workspaceId}/members`, { email: member.email, role: 'member' })).status).toBe(201);
  brand = (await as(owner).post('/v1/brands', { workspaceId: owner.workspaceId, name: 'Northwind', profile: { audience: 'Home brewers' } }))
    .body;
  snapshot = (await as(owner).post(`/v1/brands/${brand.id}/profile/publish`)).body;
  expect(snapshot.id).toMatch(/^artifact-/);
  const granted = await atelier('operators', 'grant', operator.email.toUpperCase());
  expect(granted, granted.out).toMatchObject({ code: 0 });
  expect(granted.out).toContain('is now a platform operator');
}, 180_000);
afterAll(() => h?.stop());

describe('campaigns', () => {
  it("creates a draft that pins the brand's published snapshot; later publishes never move the pin", async () => {
    const campaign = await newCampaign();
    expect(campaign).toMatchObject({
      projectId: brand.id,
      workspaceId: owner.workspaceId,
      status: 'draft',
      brandSnapshotId: snapshot.id,
      requestState: null,
      archived: false,
      brief,
    });
    expect(campaign.id).toMatch(/^campaign-[0-9a-f]{16}$/);
    await as(owner).patch(`/v1/brands/${brand.id}`, { guidelines: 'New guidelines' });
    const republished = await as(owner).post(`/v1/brands/${brand.id}/profile/publish`);
    expect(republished.body.id).not.toBe(snapshot.id);
    const read = await as(member).get(`/v1/campaigns/${campaign.id}`);
    expect(read.status).toBe(200);
    expect(read.body.brandSnapshotId).toBe(snapshot.id);
    expect(read.headers.get('etag')).toBe(`"${campaign.etag}"`);
    // New campaigns pin the new current snapshot.
    expect((await newCampaign()).brandSnapshotId).toBe(republished.body.id);
    snapshot = republished.body;
    // Nobody moves a pin, not even straight in the database.
    await expect(
      h.db.updateTable('campaigns').set({ brand_snapshot_id: republished.body.id }).where('id', '=', campaign.id).execute(),
    ).rejects.toThrow(/keeps the brand snapshot/);
  });

  it('refuses a brand that never published (422 brand_not_published), members (403), other workspaces (404)', async () => {
    const fresh = (await as(owner).post('/v1/brands', { workspaceId: owner.workspaceId, name: 'Unpublished', profile: {} })).body;
    const res = await as(owner).post('/v1/campaigns', { projectId: fresh.id, name: 'Too early', brief });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatchObject({ code: 'brand_not_published', projectId: fresh.id });

    const byMember = await as(member).post('/v1/campaigns', { projectId: brand.id, name: 'Nope', brief });
    expect(byMember.status).toBe(403);
    expect(byMember.body.detail).toMatchObject({ code: 'admin_required' });
    const campaign = await newCampaign();
    for (const r of [
      await as(member).patch(`/v1/campaigns/${campaign.id}`, { name: 'x' }),
      await as(member).post(`/v1/campaigns/${campaign.id}/submit`),
      await as(member).post(`/v1/campaigns/${campaign.id}/archive`),
    ]) {
      expect(r.status).toBe(403);
      expect(r.body.detail.code).toBe('admin_required');
    }
    expect((await as(member).get(`/v1/campaigns/${campaign.id}/request`)).status).toBe(200);
    for (const r of [
      await as(stranger).get(`/v1/campaigns/${campaign.id}`),
      await as(stranger).get(`/v1/campaigns?projectId=${brand.id}`),
      await as(stranger).get(`/v1/campaigns/${campaign.id}/request`),
      await as(stranger).patch(`/v1/campaigns/${campaign.id}`, { name: 'x' }),
      await as(stranger).post(`/v1/campaigns/${campaign.id}/submit`),
      await as(stranger).post(`/v1/campaigns/${campaign.id}/archive`),
      await as(stranger).post('/v1/campaigns', { projectId: brand.id, name: 'Theirs', brief }),
    ]) {
      expect(r.status).toBe(404);
      expect(typeof r.body.detail).toBe('string');
    }
    expect((await as(owner).get('/v1/campaigns/campaign-0000000000000000')).status).toBe(404);
    const plain = await as(owner).post(`/v1/workspaces/${owner.workspaceId}/projects`, { name: 'Plain project' });
    expect((await as(owner).post('/v1/campaigns', { projectId: plain.body.id, name: 'x', brief })).status).toBe(404);
  });

  it('lists by brand with status, includeArchived and paging; projectId is required', async () => {
    const other = (await as(owner).post('/v1/brands', { workspaceId: owner.workspaceId, name: 'List brand', profile: {} })).body;
    await as(owner).post(`/v1/brands/${other.id}/profile/publish`);
    const make = async (name: string) => (await as(owner).post('/v1/campaigns', { projectId: other.id, name, brief })).body;
    const a = await make('A');
    const b = await make('B');
    const c = await make('C');
    await as(owner).post(`/v1/campaigns/${b.id}/submit`);
    await as(owner).post(`/v1/campaigns/${c.id}/archive`);
    const list = await as(member).get(`/v1/campaigns?projectId=${other.id}`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 2 });
    expect(list.body.items.map((x: any) => x.id)).toEqual([b.id, a.id]);
    expect((await as(owner).get(`/v1/campaigns?projectId=${other.id}&status=submitted`)).body.items.map((x: any) => x.id)).toEqual([b.id]);
    expect((await as(owner).get(`/v1/campaigns?projectId=${other.id}&includeArchived=true`)).body.total).toBe(3);
    expect(
      (await as(owner).get(`/v1/campaigns?projectId=${other.id}&includeArchived=true&offset=2&limit=1`)).body.items.map((x: any) => x.id),
    ).toEqual([a.id]);
    const missing = await as(owner).get('/v1/campaigns');
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toEqual([expect.objectContaining({ type: 'missing', loc: ['query', 'projectId'], msg: 'Field required' })]);
    expect((await as(owner).get(`/v1/campaigns?projectId=${other.id}&status=done`)).status).toBe(422);
  });

  it('edits only while draft; afterwards 409 campaign_not_draft naming the state', async () => {
    const campaign = await newCampaign();
    const edited = await as(owner).patch(`/v1/campaigns/${campaign.id}`, { name: 'Renamed', brief: { notes: 'Softer' } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'Renamed', brief: { ...brief, notes: 'Softer' } });
    const stale = await as(owner).patch(`/v1/campaigns/${campaign.id}`, { name: 'Stale', etag: campaign.etag });
    expect(stale.status).toBe(409);
    expect(stale.body.detail).toMatchObject({ code: 'etag_mismatch', current: { name: 'Renamed' } });
    expect((await as(owner).patch(`/v1/campaigns/${campaign.id}`, { brief: { objective: '' } })).status).toBe(422);
    expect((await as(owner).patch(`/v1/campaigns/${campaign.id}`, { brief: { deliverables: Array(51).fill('x') } })).status).toBe(422);
    await as(owner).post(`/v1/campaigns/${campaign.id}/submit`);
    const late = await as(owner).patch(`/v1/campaigns/${campaign.id}`, { name: 'Too late' });
    expect(late.status).toBe(409);
    expect(late.body.detail).toMatchObject({ code: 'campaign_not_draft', state: 'submitted' });
    expect((await as(owner).get(`/v1/campaigns/${campaign.id}`)).body.name).toBe('Renamed');
  });

  it('submits once: concurrent and repeated submits give one task and one notification', async () => {
    const campaign = await newCampaign();
    const answers = await Promise.all(Array.from({ length: 6 }, () => as(owner).post(`/v1/campaigns/${campaign.id}/submit`)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => a.body.etag)).size).toBe(1);
    expect(answers[0]!.body).toMatchObject({ status: 'submitted', requestState: 'received' });
    const again = await as(owner).post(`/v1/campaigns/${campaign.id}/submit`);
    expect(again.body).toEqual(answers[0]!.body);
    const tasks = await h.db.selectFrom('ops_tasks').selectAll().where('campaign_id', '=', campaign.id).execute();
    const notes = await h.db.selectFrom('ops_notifications').selectAll().where('campaign_id', '=', campaign.id).execute();
    expect(tasks).toHaveLength(1);
    expect(notes).toHaveLength(1);
    const queue = await as(operator).get('/v1/ops/tasks?limit=100');
    expect(queue.status).toBe(200);
    expect(queue.body.items.filter((t: any) => t.campaignId === campaign.id)).toEqual([
      expect.objectContaining({
        kind: 'campaign_submitted',
        status: 'open',
        campaignName: campaign.name,
        projectId: brand.id,
        requestState: 'received',
      }),
    ]);
    const inbox = await as(operator).get('/v1/ops/inbox?limit=100');
    expect(inbox.body.items.filter((n: any) => n.campaignId === campaign.id)).toEqual([
      expect.objectContaining({ kind: 'campaign_submitted', message: expect.stringContaining(campaign.name) }),
    ]);
    const request = await as(member).get(`/v1/campaigns/${campaign.id}/request`);
    expect(request.body).toMatchObject({ campaignId: campaign.id, campaignStatus: 'submitted', state: 'received', notes: [] });
  });

  it('archives softly and idempotently: hidden from default lists, still readable', async () => {
    const campaign = await newCampaign();
    const first = await as(owner).post(`/v1/campaigns/${campaign.id}/archive`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: campaign.id, archived: true, status: 'draft', brandSnapshotId: campaign.brandSnapshotId });
    const second = await as(owner).post(`/v1/campaigns/${campaign.id}/archive`);
    expect(second.body).toEqual(first.body);
    expect((await as(owner).get(`/v1/campaigns?projectId=${brand.id}&limit=100`)).body.items.map((x: any) => x.id)).not.toContain(
      campaign.id,
    );
    expect(
      (await as(owner).get(`/v1/campaigns?projectId=${brand.id}&limit=100&includeArchived=true`)).body.items.map((x: any) => x.id),
    ).toContain(campaign.id);
    expect((await as(owner).get(`/v1/campaigns/${campaign.id}`)).body.archived).toBe(true);
  });
});

describe('deleting a brand project', () => {
  it('takes its profile and campaigns with it; the snapshot artifacts stay', async () => {
    const doomed = (await as(owner).post('/v1/brands', { workspaceId: owner.workspaceId, name: 'Doomed', profile: {} })).body;
    const snap = (await as(owner).post(`/v1/brands/${doomed.id}/profile/publish`)).body;
    const campaign = (await as(owner).post('/v1/campaigns', { projectId: doomed.id, name: 'Doomed campaign', brief })).body;
    await as(owner).post(`/v1/campaigns/${campaign.id}/submit`);
    const deleted = await h.request('DELETE', `/v1/workspaces/${owner.workspaceId}/projects/${doomed.id}`, { token: owner.token });
    expect(deleted.status).toBe(204);
    expect((await as(owner).get(`/v1/brands/${doomed.id}`)).status).toBe(404);
    expect((await as(owner).get(`/v1/campaigns/${campaign.id}`)).status).toBe(404);
    const artifact = await as(owner).get(`/v1/artifacts/${snap.id}`);
    expect(artifact.status).toBe(200);
    expect(artifact.body).toMatchObject({ projectId: null, artifactType: 'brand-profile' });
  });
});

describe('operators', () => {
  it('are the only ones who see the queue and move requests (403 operator_required for everyone else, owners included)', async () => {
    const campaign = await newCampaign();
    await as(owner).post(`/v1/campaigns/${campaign.id}/submit`);
    for (const u of [owner, member, stranger]) {
      for (const r of [
        await as(u).get('/v1/ops/tasks'),
        await as(u).get('/v1/ops/inbox'),
        await as(u).post(`/v1/ops/campaigns/${campaign.id}/request`, { state: 'scoping' }),
      ]) {
        expect(r.status).toBe(403);
        expect(r.body.detail).toMatchObject({ code: 'operator_required' });
      }
    }
    expect((await h.request('GET', '/v1/ops/tasks')).status).toBe(401);
  });

  it('move the managed request through its states with notes; customers see campaign notes only', async () => {
    const campaign = await newCampaign();
    const draftMove = await as(operator).post(`/v1/ops/campaigns/${campaign.id}/request`, { state: 'scoping' });
    expect(draftMove.status).toBe(409);
    expect(draftMove.body.detail).toMatchObject({ code: 'invalid_transition', state: 'draft' });
    await as(owner).post(`/v1/campaigns/${campaign.id}/submit`);

    const scoping = await as(operator).post(`/v1/ops/campaigns/${campaign.id}/request`, {
      state: 'scoping',
      note: 'We are reading your brief',
      noteVisibility: 'campaign',
    });
    expect(scoping.status).toBe(200);
    expect(scoping.body).toMatchObject({ state: 'scoping', campaign: { id: campaign.id, requestState: 'scoping', status: 'submitted' } });
    const internal = await as(operator).post(`/v1/ops/campaigns/${campaign.id}/request`, {
      note: 'Client seems price sensitive',
      noteVisibility: 'internal',
    });
    expect(internal.status).toBe(200);
    expect(internal.body.entries.map((e: any) => e.visibility)).toContain('internal');

    const skip = await as(operator).post(`/v1/ops/campaigns/${campaign.id}/request`, { state: 'delivered' });
    expect(skip.status).toBe(409);
    expect(skip.body.detail).toMatchObject({ code: 'invalid_transition', state: 'scoping', allowed: ['in_production', 'closed'] });

    const producing = await as(operator).post(`/v1/ops/campaigns/${campaign.id}/request`, { state: 'in_production' });
    expect(producing.body.campaign).toMatchObject({ status: 'producing', requestState: 'in_production' });
    await as(operator).post(`/v1/ops/campaigns/${campaign.id}/request`, {
      state: 'delivered',
      note: 'Files are in your inbox',
      noteVisibility: 'campaign',
    });
    const closed = await as(operator).post(`/v1/ops/campaigns/${campaign.id}/request`, { state: 'closed' });
    expect(closed.body.state).toBe('closed');
    const reopen = await as(operator).post(`/v1/ops/campaigns/${campaign.id}/request`, { state: 'in_production' });
    expect(reopen.status).toBe(409);
    expect(reopen.body.detail).toMatchObject({ code: 'invalid_transition', state: 'closed', allowed: [] });

    const seen = await as(member).get(`/v1/campaigns/${campaign.id}/request`);
    expect(seen.body).toMatchObject({ state: 'closed', campaignStatus: 'producing' });
    expect(seen.body.notes.map((n: any) => [n.note, n.state])).toEqual([
      ['We are reading your brief', 'scoping'],
      ['Files are in your inbox', 'delivered'],
    ]);
    expect(JSON.stringify(seen.body)).not.toContain('price sensitive');
    const task = (await as(operator).get('/v1/ops/tasks?limit=100&status=done')).body.items.find((t: any) => t.campaignId === campaign.id);
    expect(task).toMatchObject({ status: 'done', requestState: 'closed' });

    expect((await as(operator).post(`/v1/ops/campaigns/${campaign.id}/request`, {})).status).toBe(422);
    expect((await as(operator).post(`/v1/ops/campaigns/${campaign.id}/request`, { state: 'shipped' })).status).toBe(422);
    expect((await as(operator).post('/v1/ops/campaigns/campaign-0000000000000000/request', { note: 'x' })).status).toBe(404);
  });

  it('lose the role when revoked through the CLI', async () => {
    const temp = await registerUser(h, 'Temp operator');
    expect((await atelier('operators', 'grant', temp.email)).code).toBe(0);
    expect((await as(temp).get('/v1/ops/inbox')).status).toBe(200);
    const revoked = await atelier('operators', 'revoke', temp.email);
    expect(revoked.out).toContain('no longer a platform operator');
    expect((await as(temp).get('/v1/ops/inbox')).status).toBe(403);
    expect((await atelier('operators', 'grant', 'nobody@example.com')).code).toBe(1);
  });
});
