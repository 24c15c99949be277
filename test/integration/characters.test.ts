import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun, seedArtifact as seedArtifactIn } from '../support/harness';

/** Characters, subjects, likeness consent and the gate, over HTTP against the real stack. */
let h: Harness;
let owner: TestUser;
let member: TestUser;
let stranger: TestUser;
let projectId: string;

const sha = () => randomBytes(32).toString('hex');
const as = (u: TestUser) => ({
  get: (p: string, headers?: Record<string, string>) => h.request('GET', p, { token: u.token, headers }),
  post: (p: string, body?: unknown, headers?: Record<string, string>) => h.request('POST', p, { token: u.token, body, headers }),
  patch: (p: string, body: unknown, headers?: Record<string, string>) => h.request('PATCH', p, { token: u.token, body, headers }),
  del: (p: string, headers?: Record<string, string>) => h.request('DELETE', p, { token: u.token, headers }),
});

const seedArtifact = (workspaceId: string) => seedArtifactIn(h, workspaceId);

const consentBody = (over: Record<string, unknown> = {}) => ({
  grantor: 'subject',
  coversLikeness: true,
  coversVoice: false,
  scope: { uses: ['advertising'], media: ['image', 'video'], channels: ['*'], territories: ['*'] },
  startsOn: '2026-01-01',
  endsOn: '2030-12-31',
  evidenceKind: 'signed_release',
  evidenceSha256: sha(),
  ...over,
});

async function newSubject(u = owner) {
  const res = await as(u).post(`/v1/workspaces/${u.workspaceId}/subjects`, {
    displayName: 'Ada Model',
    email: 'ada@example.com',
    attestations: { adult: true, notPolitical: true },
  });
  expect(res.status).toBe(201);
  return res.body;
}

async function activeConsent(subjectId: string, over: Record<string, unknown> = {}) {
  const created = await as(owner).post(`/v1/subjects/${subjectId}/consents`, consentBody(over));
  expect(created.status).toBe(201);
  const active = await as(owner).post(`/v1/likeness-consents/${created.body.id}:activate`, {});
  expect(active.status).toBe(200);
  return active.body;
}

/** A likeness character with one frozen version bound to the local provider (accepted), its subject and consent. */
async function usableLikeness() {
  const subject = await newSubject();
  const consent = await activeConsent(subject.id);
  const character = await as(owner).post('/v1/characters', {
    projectId,
    name: `Ada ${randomBytes(2).toString('hex')}`,
    format: 'likeness',
    persona: { summary: 'warm' },
  });
  expect(character.status).toBe(201);
  const ref = await as(owner).post(`/v1/characters/${character.body.id}/references`, {
    role: 'portrait',
    artifactId: await seedArtifact(owner.workspaceId),
  });
  expect(ref.status).toBe(201);
  const version = await as(owner).post(`/v1/characters/${character.body.id}/versions`, { subjectId: subject.id, note: 'first' });
  expect(version.status).toBe(201);
  const binding = await as(owner).post(`/v1/characters/${character.body.id}/versions/1/bindings`, {
    provider: 'local',
    assetKind: 'likeness',
    assetId: 'asset-1',
    providerConsentStatus: 'accepted',
  });
  expect(binding.status).toBe(201);
  return { subject, consent, characterId: character.body.id as string, binding: binding.body };
}

beforeAll(async () => {
  h = await startHarness({ worker: false });
  owner = await registerUser(h, 'Owner');
  member = await registerUser(h, 'Member');
  stranger = await registerUser(h, 'Stranger');
  expect((await as(owner).post(`/v1/workspaces/${owner.workspaceId}/members`, { email: member.email, role: 'member' })).status).toBe(201);
  const project = await as(owner).post(`/v1/workspaces/${owner.workspaceId}/projects`, { name: 'Campaign' });
  projectId = project.body.id;
});
afterAll(() => h?.stop());

describe('subjects', () => {
  it('records a person attested adult and not political, and refuses anything less', async () => {
    const subject = await newSubject();
    expect(subject).toMatchObject({
      displayName: 'Ada Model',
      attestations: { adult: true, notPolitical: true },
      erased: false,
      etag: expect.stringMatching(/^".+"$/),
    });
    for (const attestations of [{ adult: false, notPolitical: true }, { adult: true, notPolitical: false }, { adult: true }]) {
      const res = await as(owner).post(`/v1/workspaces/${owner.workspaceId}/subjects`, { displayName: 'X', attestations });
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc[0]).toBe('body');
    }
    const byMember = await as(member).post(`/v1/workspaces/${owner.workspaceId}/subjects`, {
      displayName: 'X',
      attestations: { adult: true, notPolitical: true },
    });
    expect(byMember.status).toBe(403);
    expect(byMember.body.detail.code).toBe('admin_required');
    expect((await as(member).get(`/v1/subjects/${subject.id}`)).status).toBe(200);
    expect((await as(stranger).get(`/v1/subjects/${subject.id}`)).status).toBe(404);
  });

  it('edits with an etag: 428 without, 409 stale with the current record, exactly one of two concurrent edits wins', async () => {
    const subject = await newSubject();
    const path = `/v1/subjects/${subject.id}`;
    const missing = await as(owner).patch(path, { publicRole: 'actor' });
    expect(missing.status).toBe(428);
    expect(missing.body.detail.code).toBe('etag_required');
    const results = await Promise.all(
      ['a', 'b', 'c'].map((role) => as(owner).patch(path, { publicRole: role }, { 'if-match': subject.etag })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const stale = results.find((r) => r.status === 409)!;
    expect(stale.body.detail).toMatchObject({ code: 'etag_mismatch', current: { id: subject.id } });
    const winner = results.find((r) => r.status === 200)!;
    expect(winner.headers.get('etag')).toBe(winner.body.etag);
    const next = await as(owner).patch(path, { unionStatus: 'SAG-AFTRA', etag: winner.body.etag });
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({ publicRole: winner.body.publicRole, unionStatus: 'SAG-AFTRA' });
  });

  it('erases a person: data blanked, every consent revoked, depicting versions retired, hidden from lists', async () => {
    const { subject, consent, characterId } = await usableLikeness();
    const erased = await as(owner).post(`/v1/subjects/${subject.id}:erase`);
    expect(erased.status).toBe(200);
    expect(erased.body).toMatchObject({ displayName: null, email: null, erased: true });
    const again = await as(owner).post(`/v1/subjects/${subject.id}:erase`);
    expect(again.status).toBe(200);
    const full = await as(owner).get(`/v1/subjects/${subject.id}`);
    expect(full.body.consents.map((c: any) => c.status)).toEqual(['revoked']);
    const events = await as(owner).get(`/v1/likeness-consents/${consent.id}/events`);
    expect(events.body.items[0]).toMatchObject({
      fromStatus: 'active',
      toStatus: 'revoked',
      reason: 'subject_erased',
      actorId: owner.userId,
    });
    const versions = await as(owner).get(`/v1/characters/${characterId}/versions`);
    expect(versions.body.items[0]).toMatchObject({ status: 'retired', retiredReason: 'subject_erased' });
    const listed = await as(owner).get(`/v1/workspaces/${owner.workspaceId}/subjects`);
    expect(listed.body.items.map((s: any) => s.id)).not.toContain(subject.id);
    const withErased = await as(owner).get(`/v1/workspaces/${owner.workspaceId}/subjects?includeErased=true&limit=100`);
    expect(withErased.body.items.map((s: any) => s.id)).toContain(subject.id);
    const check = await as(owner).post(`/v1/characters/${characterId}:check`, { media: 'image' });
    expect(check.body).toMatchObject({ usable: false });
    expect(check.body.reasons).toEqual(expect.arrayContaining(['version_retired', 'subject_erased', 'consent_revoked']));
  });
});

describe('likeness consents', () => {
  it('follows the state machine, records every move newest first, and refuses invalid moves with 409', async () => {
    const subject = await newSubject();
    const created = await as(owner).post(`/v1/subjects/${subject.id}/consents`, consentBody());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'pending', grantor: 'subject', startsOn: '2026-01-01', endsOn: '2030-12-31' });
    const id = created.body.id;
    const move = (m: string, body: unknown = {}) => as(owner).post(`/v1/likeness-consents/${id}:${m}`, body);
    expect((await move('suspend')).status).toBe(409);
    expect((await move('resume')).body.detail.code).toBe('invalid_transition');
    expect((await move('activate')).body.status).toBe('active');
    expect((await move('activate')).status).toBe(409);
    expect((await move('suspend', { reason: 'contract review' })).body.status).toBe('suspended');
    const resumed = await move('resume');
    expect(resumed.body.status).toBe('active');
    // A revoke goes through even with a stale etag, and twice.
    const revoked = await move('revoke', { etag: created.body.etag });
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe('revoked');
    expect((await move('revoke')).status).toBe(200);
    for (const m of ['activate', 'resume', 'suspend']) {
      const res = await move(m);
      expect(res.status).toBe(409);
      expect(res.body.detail).toMatchObject({ code: 'invalid_transition', status: 'revoked' });
    }
    const events = await as(member).get(`/v1/likeness-consents/${id}/events`);
    expect(events.status).toBe(200);
    expect(events.body.items.map((e: any) => [e.fromStatus, e.toStatus])).toEqual([
      ['active', 'revoked'],
      ['suspended', 'active'],
      ['active', 'suspended'],
      ['pending', 'active'],
      [null, 'pending'],
    ]);
    expect(events.body.items[2].reason).toBe('contract review');
  });

  it("checks a move's etag when sent, and lets members read but not move", async () => {
    const subject = await newSubject();
    const created = await as(owner).post(`/v1/subjects/${subject.id}/consents`, consentBody());
    const stale = await as(owner).post(`/v1/likeness-consents/${created.body.id}:activate`, { etag: '"stale"' });
    expect(stale.status).toBe(409);
    expect(stale.body.detail).toMatchObject({ code: 'etag_mismatch', current: { id: created.body.id, status: 'pending' } });
    const byMember = await as(member).post(`/v1/likeness-consents/${created.body.id}:revoke`, {});
    expect(byMember.status).toBe(403);
    expect((await as(stranger).post(`/v1/likeness-consents/${created.body.id}:revoke`, {})).status).toBe(404);
    const ok = await as(owner).post(`/v1/likeness-consents/${created.body.id}:activate`, {}, { 'if-match': created.body.etag });
    expect(ok.status).toBe(200);
  });

  it('refuses terms over ten years, ends before starts, bad evidence and unknown grantors with 422', async () => {
    const subject = await newSubject();
    const bad = [
      { endsOn: '2036-01-02' },
      { startsOn: '2026-05-01', endsOn: '2026-04-30' },
      { evidenceSha256: 'abc' },
      { grantor: 'friend' },
      { evidenceKind: 'napkin' },
      { startsOn: '2026-02-30' },
    ];
    for (const over of bad) {
      const res = await as(owner).post(`/v1/subjects/${subject.id}/consents`, consentBody(over));
      expect(res.status, JSON.stringify(over)).toBe(422);
      expect(Array.isArray(res.body.detail)).toBe(true);
    }
    expect(
      (await as(owner).post(`/v1/subjects/${subject.id}/consents`, consentBody({ startsOn: '2026-01-01', endsOn: '2036-01-01' }))).status,
    ).toBe(201);
  });
});

describe('characters', () => {
  it('creates once per requestId, even under concurrent retries, and refuses a reused requestId with another body', async () => {
    const body = { projectId, name: 'Mascot', format: 'synthetic', persona: { summary: 'a cheerful fox' }, requestId: randomUUID() };
    const answers = await Promise.all(Array.from({ length: 8 }, () => as(owner).post('/v1/characters', body)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    const reused = await as(owner).post('/v1/characters', { ...body, name: 'Other' });
    expect(reused.status).toBe(409);
    expect(reused.body.detail.code).toBe('request_id_reused');
    const listed = await as(owner).get(`/v1/characters?projectId=${projectId}&limit=100`);
    expect(listed.body.items.filter((c: any) => c.name === 'Mascot')).toHaveLength(1);
  });

  it('edits the draft with an etag, returns a new etag on every write, and archives on DELETE', async () => {
    const created = await as(owner).post('/v1/characters', { projectId, name: 'Draft', format: 'synthetic' });
    const id = created.body.id;
    expect(created.headers.get('etag')).toBe(created.body.etag);
    expect((await as(owner).patch(`/v1/characters/${id}`, { name: 'Renamed' })).status).toBe(428);
    const both = await Promise.all([
      as(owner).patch(`/v1/characters/${id}`, { name: 'A', etag: created.body.etag }),
      as(owner).patch(`/v1/characters/${id}`, { name: 'B', etag: created.body.etag }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const ref = await as(owner).post(`/v1/characters/${id}/references`, {
      role: 'pose',
      artifactId: await seedArtifact(owner.workspaceId),
    });
    expect(ref.status).toBe(201);
    expect(ref.body.etag).not.toBe(both.find((r) => r.status === 200)!.body.etag);
    expect(ref.body.references).toHaveLength(1);
    const v1 = await as(owner).post(`/v1/characters/${id}/versions`, { note: 'v1' });
    expect(v1.status).toBe(201);
    expect(v1.body).toMatchObject({ number: 1, status: 'active', subjectId: null, references: [{ role: 'pose' }] });
    const removed = await as(owner).del(`/v1/characters/${id}/references/${ref.body.references[0].id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.references).toEqual([]);
    expect(removed.body.latestVersion.references).toHaveLength(1);
    expect((await as(owner).post(`/v1/characters/${id}/versions`, {})).body.detail.code).toBe('no_references');
    expect((await as(member).patch(`/v1/characters/${id}`, { name: 'X', etag: removed.body.etag })).status).toBe(403);
    expect((await as(stranger).get(`/v1/characters/${id}`)).status).toBe(404);
    const archived = await as(owner).del(`/v1/characters/${id}`);
    expect(archived.body.archived).toBe(true);
    const listed = await as(member).get(`/v1/characters?workspaceId=${owner.workspaceId}&limit=100`);
    expect(listed.body.items.map((c: any) => c.id)).not.toContain(id);
    const withArchived = await as(member).get(`/v1/characters?workspaceId=${owner.workspaceId}&includeArchived=true&limit=100`);
    expect(withArchived.body.items.map((c: any) => c.id)).toContain(id);
  });

  it('refuses to freeze a likeness without references, without a subject, or naming another person', async () => {
    const character = await as(owner).post('/v1/characters', { projectId, name: 'Face', format: 'likeness' });
    const id = character.body.id;
    const freeze = (body: unknown) => as(owner).post(`/v1/characters/${id}/versions`, body);
    expect((await freeze({})).body.detail.code).toBe('no_references');
    await as(owner).post(`/v1/characters/${id}/references`, { role: 'portrait', artifactId: await seedArtifact(owner.workspaceId) });
    const noSubject = await freeze({});
    expect(noSubject.status).toBe(422);
    expect(noSubject.body.detail.code).toBe('subject_required');
    const first = await newSubject();
    const second = await newSubject();
    expect((await freeze({ subjectId: first.id })).status).toBe(201);
    expect((await freeze({})).body).toMatchObject({ number: 2, subjectId: first.id });
    const changed = await freeze({ subjectId: second.id });
    expect(changed.status).toBe(422);
    expect(changed.body.detail.code).toBe('subject_changed');
    const foreignArtifact = await as(owner).post(`/v1/characters/${id}/references`, {
      role: 'portrait',
      artifactId: await seedArtifact(stranger.workspaceId),
    });
    expect(foreignArtifact.status).toBe(422);
    const badRole = await as(owner).post(`/v1/characters/${id}/references`, { role: 'selfie', artifactId: 'x' });
    expect(badRole.status).toBe(422);
  });

  it('lists versions newest first with their provider copies; retiring stops new work', async () => {
    const { characterId, binding } = await usableLikeness();
    expect((await as(owner).post(`/v1/characters/${characterId}/versions`, {})).status).toBe(201);
    const versions = await as(member).get(`/v1/characters/${characterId}/versions`);
    expect(versions.body.items.map((v: any) => [v.number, v.bindings.length])).toEqual([
      [2, 0],
      [1, 1],
    ]);
    expect(versions.body.items[1].bindings[0]).toMatchObject({ id: binding.id, provider: 'local', providerConsentStatus: 'accepted' });
    expect((await as(owner).post(`/v1/characters/${characterId}:check`, { media: 'image', provider: 'local' })).body).toMatchObject({
      usable: false,
      version: 2,
      reasons: ['provider_consent_missing'],
    });
    const retired = await as(owner).post(`/v1/characters/${characterId}/versions/2:retire`);
    expect(retired.body).toMatchObject({ number: 2, status: 'retired' });
    expect((await as(owner).post(`/v1/characters/${characterId}:check`, { media: 'image', provider: 'local' })).body).toMatchObject({
      usable: true,
      version: 1,
      reasons: [],
    });
    expect((await as(owner).post(`/v1/characters/${characterId}:check`, { media: 'image', version: 2 })).body.reasons).toEqual([
      'version_retired',
    ]);
    expect((await as(owner).post(`/v1/characters/${characterId}/versions/9:retire`)).status).toBe(404);
  });

  it('answers the gate for a planned use with reasons', async () => {
    const { characterId, binding, consent } = await usableLikeness();
    const check = (body: unknown) => as(member).post(`/v1/characters/${characterId}:check`, body);
    const ok = await check({ media: 'image', use: 'advertising', provider: 'local', territory: 'US' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ usable: true, reasons: [], checkedAt: expect.any(String), version: 1 });
    expect((await check({ media: 'image', use: 'editorial' })).body.reasons).toEqual(['use_not_covered']);
    expect((await check({ media: 'image', date: '2031-01-01' })).body.reasons).toEqual(['consent_expired']);
    expect((await check({ media: 'voice' })).body.reasons).toEqual(['consent_missing']);
    expect((await check({ media: 'image', provider: 'elsewhere' })).body.reasons).toEqual(['provider_consent_missing']);
    const pending = await as(owner).patch(`/v1/character-bindings/${binding.id}`, { providerConsentStatus: 'pending' });
    expect(pending.body.providerConsentStatus).toBe('pending');
    expect((await check({ media: 'image', provider: 'local' })).body.reasons).toEqual(['provider_consent_missing']);
    expect((await as(owner).patch(`/v1/character-bindings/${binding.id}`, { providerConsentStatus: 'not_required' })).status).toBe(422);
    await as(owner).patch(`/v1/character-bindings/${binding.id}`, { providerConsentStatus: 'accepted' });
    await as(owner).post(`/v1/likeness-consents/${consent.id}:suspend`, {});
    expect((await check({ media: 'image' })).body.reasons).toEqual(['consent_suspended']);
    expect((await check({ media: 'sound' })).status).toBe(422);
    expect((await as(stranger).post(`/v1/characters/${characterId}:check`, { media: 'image' })).status).toBe(404);
  });

  it('refuses to delete a project that has characters (archive instead)', async () => {
    const project = await as(owner).post(`/v1/workspaces/${owner.workspaceId}/projects`, { name: 'Has cast' });
    await as(owner).post('/v1/characters', { projectId: project.body.id, name: 'Cast', format: 'synthetic' });
    const res = await as(owner).del(`/v1/workspaces/${owner.workspaceId}/projects/${project.body.id}`);
    expect(res.status).toBe(409);
    expect(res.body.detail.code).toBe('project_has_characters');
  });
});

describe('the gate on runs and orders', () => {
  it('refuses a run and an order before pricing, recording nothing, and lets a usable likeness through', async () => {
    const { characterId, consent } = await usableLikeness();
    const runsBefore = await h.db
      .selectFrom('runs')
      .select(h.db.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', owner.workspaceId)
      .executeTakeFirstOrThrow();
    await as(owner).post(`/v1/likeness-consents/${consent.id}:suspend`, {});
    const run = await as(owner).post('/v1/runs', { templateId: 'generate-product-shot', intake: { product: 'a kettle', characterId } });
    expect(run.status).toBe(422);
    expect(run.body.detail).toMatchObject({ code: 'character_not_usable', reasons: ['consent_suspended'] });
    const order = await as(owner).post('/v1/orders', {
      workflowId: 'generate-product-shot',
      variationSpec: { resolver: 'list', params: { items: [{ product: 'a', characterId }, { product: 'b' }] } },
    });
    expect(order.status).toBe(422);
    expect(order.body.detail).toMatchObject({ code: 'character_not_usable', reasons: ['consent_suspended'] });
    const batch = await as(owner).post('/v1/orders', {
      workflowId: 'generate-product-shot',
      executionMode: 'batch',
      variationSpec: { resolver: 'list', params: { items: [{ product: 'a', characterId }] } },
    });
    expect(batch.status).toBe(400);
    expect(batch.body.detail.code).toBe('character_batch_unsupported');
    const runsAfter = await h.db
      .selectFrom('runs')
      .select(h.db.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', owner.workspaceId)
      .executeTakeFirstOrThrow();
    expect(runsAfter.n).toBe(runsBefore.n);
    expect(await h.db.selectFrom('orders').select('id').where('workspace_id', '=', owner.workspaceId).execute()).toHaveLength(0);

    await as(owner).post(`/v1/likeness-consents/${consent.id}:resume`, {});
    const accepted = await as(owner).post('/v1/runs', {
      templateId: 'generate-product-shot',
      intake: { product: 'a kettle', characterId },
    });
    expect(accepted.status).toBe(201);
    const planned = await as(owner).post('/v1/orders', {
      workflowId: 'generate-product-shot',
      variationSpec: { resolver: 'list', params: { items: [{ product: 'a', characterId }] } },
    });
    expect(planned.status).toBe(201);
  });

  it("fails a waiting run before it starts when its consent is withdrawn, with the gate's reasons", async () => {
    const { characterId, consent } = await usableLikeness();
    const waiting = await as(owner).post('/v1/runs', { templateId: 'generate-product-shot', intake: { product: 'a lamp', characterId } });
    expect(waiting.status).toBe(201);
    const fine = await as(owner).post('/v1/runs', { templateId: 'generate-product-shot', intake: { product: 'a lamp' } });
    // No worker yet: the run waits. Consent is withdrawn meanwhile.
    expect((await as(owner).post(`/v1/likeness-consents/${consent.id}:revoke`, { reason: 'withdrawn by the subject' })).status).toBe(200);
    const worker = await h.startWorker();
    try {
      const failed = await waitForRun(h, owner.token, waiting.body.id);
      expect(failed).toMatchObject({ status: 'failed', errorCode: 'character_not_usable' });
      expect(failed.error).toContain('consent_revoked');
      expect(failed.totalCosts.actualUsd).toBe(0);
      const steps = await h.db.selectFrom('run_steps').select('step_index').where('run_id', '=', waiting.body.id).execute();
      expect(steps).toHaveLength(0);
      expect((await waitForRun(h, owner.token, fine.body.id)).status).toBe('review');
    } finally {
      await worker.stop();
    }
  });
});
