import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, createApiKey, registerUser, startHarness, seedArtifact as seedArtifactIn } from '../support/harness';

let h: Harness;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  owner = await registerUser(h, 'Owner');
  stranger = await registerUser(h, 'Stranger');
});
afterAll(() => h?.stop());

const seedArtifact = (workspaceId: string) => seedArtifactIn(h, workspaceId);

const project = async (u: TestUser, workspaceId = u.workspaceId) =>
  (
    await h.request('POST', `/v1/workspaces/${workspaceId}/projects`, {
      token: u.token,
      body: { name: `p-${randomBytes(3).toString('hex')}` },
    })
  ).body.id as string;

describe('a workspace-bound API key acts only inside its workspace', () => {
  it('sees and revokes only keys bound to the same workspace, and cannot act on the account', async () => {
    const second = (await h.request('POST', '/v1/workspaces', { token: owner.token, body: { name: 'second' } })).body.id as string;
    const bound = await createApiKey(h, owner, owner.workspaceId);
    const unbound = (await h.request('POST', '/v1/api-keys', { token: owner.token, body: { name: 'unbound' } })).body;
    const elsewhere = (await h.request('POST', '/v1/api-keys', { token: owner.token, body: { name: 'elsewhere', workspaceId: second } }))
      .body;

    const listed = await h.request('GET', '/v1/api-keys', { token: bound });
    expect(listed.status).toBe(200);
    expect(listed.body.items.every((k: any) => k.workspaceId === owner.workspaceId)).toBe(true);
    expect(listed.body.items.map((k: any) => k.id)).not.toContain(unbound.id);
    for (const other of [unbound, elsewhere]) {
      expect((await h.request('DELETE', `/v1/api-keys/${other.id}`, { token: bound })).status).toBe(404);
      expect((await h.request('GET', `/v1/api-keys/${other.id}`, { token: bound })).status).toBe(404);
    }
    expect((await h.request('GET', '/v1/api-keys', { token: unbound.secret })).body.items.length).toBeGreaterThanOrEqual(3);

    for (const [method, path, body] of [
      ['PATCH', '/v1/users/me', { name: 'taken over' }],
      ['DELETE', '/v1/users/me', {}],
      ['POST', '/v1/users/me/restore', undefined],
      ['POST', '/v1/workspaces', { name: 'more' }],
    ] as const) {
      const res = await h.request(method, path, { token: bound, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.detail).toMatchObject({ code: 'account_scope_required' });
    }
    expect((await h.request('GET', '/v1/users/me', { token: bound })).body.name).toBe('Owner');
    expect((await h.request('PATCH', '/v1/users/me', { token: unbound.secret, body: { name: 'Owner' } })).status).toBe(200);
  });
});

describe('a foreign id is indistinguishable from a random one', () => {
  it('answers deleting your project with a foreign project id as not found, not as a conflict', async () => {
    const foreign = await project(stranger);
    await h.request('POST', '/v1/characters', { token: stranger.token, body: { projectId: foreign, name: 'c', format: 'synthetic' } });
    const res = await h.request('DELETE', `/v1/workspaces/${owner.workspaceId}/projects/${foreign}`, { token: owner.token });
    const random = await h.request('DELETE', `/v1/workspaces/${owner.workspaceId}/projects/${randomUUID()}`, { token: owner.token });
    expect(res.status).toBe(404);
    expect(random.status).toBe(404);
  });

  it('names only the id the caller sent in 404s for characters of a foreign project and foreign bindings', async () => {
    const foreign = await project(stranger);
    const listed = await h.request('GET', `/v1/characters?projectId=${foreign}`, { token: owner.token });
    expect(listed.status).toBe(404);
    expect(JSON.stringify(listed.body)).not.toContain(stranger.workspaceId);
    const randomId = randomUUID();
    const random = await h.request('GET', `/v1/characters?projectId=${randomId}`, { token: owner.token });
    expect(listed.body.detail.replace(foreign, '<id>')).toBe(random.body.detail.replace(randomId, '<id>'));

    const character = await h.request('POST', '/v1/characters', {
      token: stranger.token,
      body: { projectId: foreign, name: 'c', format: 'synthetic' },
    });
    await h.request('POST', `/v1/characters/${character.body.id}/references`, {
      token: stranger.token,
      body: { role: 'portrait', artifactId: await seedArtifact(stranger.workspaceId) },
    });
    expect((await h.request('POST', `/v1/characters/${character.body.id}/versions`, { token: stranger.token, body: {} })).status).toBe(201);
    const binding = await h.request('POST', `/v1/characters/${character.body.id}/versions/1/bindings`, {
      token: stranger.token,
      body: { provider: 'local', assetKind: 'likeness', assetId: 'asset-1', providerConsentStatus: 'accepted' },
    });
    expect(binding.status).toBe(201);
    const patched = await h.request('PATCH', `/v1/character-bindings/${binding.body.id}`, { token: owner.token, body: { disabled: true } });
    expect(patched.status).toBe(404);
    expect(JSON.stringify(patched.body)).not.toContain(character.body.id);
  });

  it("refuses an order whose planArtifactId is another workspace's or does not exist", async () => {
    const foreignArtifact = await seedArtifact(stranger.workspaceId);
    for (const planArtifactId of [foreignArtifact, 'artifact-doesnotexist00']) {
      const res = await h.request('POST', '/v1/orders', {
        token: owner.token,
        body: {
          workflowId: 'plan-research-report',
          planArtifactId,
          variationSpec: { resolver: 'list', params: { items: [{ topic: 'a' }] } },
        },
      });
      expect(res.status).toBe(422);
      expect(res.body.detail).toMatchObject({ code: 'artifact_not_found' });
    }
  });
});

describe('a list filter naming an order or a project implies its workspace', () => {
  it('lists the children of an order in a workspace other than the default by parentOrderId alone', async () => {
    const second = (await h.request('POST', '/v1/workspaces', { token: owner.token, body: { name: 'orders elsewhere' } })).body
      .id as string;
    const order = await h.request('POST', '/v1/orders', {
      token: owner.token,
      body: {
        workspaceId: second,
        workflowId: 'plan-research-report',
        variationSpec: { resolver: 'list', params: { items: [{ topic: 'a' }, { topic: 'b' }] } },
      },
    });
    expect(order.status).toBe(201);
    const children = await h.request('GET', `/v1/runs?parentOrderId=${order.body.id}`, { token: owner.token });
    expect(children.status).toBe(200);
    expect(children.body.total).toBe(2);
    const byProject = await h.request('GET', `/v1/runs?projectId=${await project(owner, second)}`, { token: owner.token });
    expect(byProject.status).toBe(200);

    const foreign = await h.request('GET', `/v1/runs?parentOrderId=${order.body.id}`, { token: stranger.token });
    expect(foreign.status).toBe(404);
    const mismatched = await h.request('GET', `/v1/runs?parentOrderId=${order.body.id}&workspaceId=${owner.workspaceId}`, {
      token: owner.token,
    });
    expect(mismatched.status).toBe(404);
  });
});

describe('character ids', () => {
  it('issues char-<id> ids and keeps serving characters whose ids are UUIDs from before', async () => {
    const projectId = await project(owner);
    const created = await h.request('POST', '/v1/characters', {
      token: owner.token,
      body: { projectId, name: 'new style', format: 'synthetic' },
    });
    expect(created.body.id).toMatch(/^char-[0-9a-f]{16}$/);
    expect((await h.request('GET', `/v1/characters/${created.body.id}`, { token: owner.token })).status).toBe(200);
    const legacy = randomUUID();
    await h.db
      .insertInto('characters')
      .values({
        id: legacy,
        workspace_id: owner.workspaceId,
        project_id: projectId,
        name: 'old style',
        format: 'synthetic',
        persona: '{}',
        etag: 'e1',
      } as never)
      .execute();
    const old = await h.request('GET', `/v1/characters/${legacy}`, { token: owner.token });
    expect(old.status).toBe(200);
    expect(old.body.id).toBe(legacy);
    expect((await h.request('GET', '/v1/characters/char-nothere', { token: owner.token })).status).toBe(422);
  });
});
