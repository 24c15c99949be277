import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, createApiKey, registerUser, startHarness } from '../support/harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ worker: false });
});
afterAll(() => h?.stop());

const createWorkspace = async (user: TestUser, name = 'Studio') => {
  const res = await h.request('POST', '/v1/workspaces', { token: user.token, body: { name } });
  expect(res.status).toBe(201);
  return res.body.id as string;
};
const members = (ws: string) => `/v1/workspaces/${ws}/members`;
const addMember = (token: string, ws: string, email: string, role: string) =>
  h.request('POST', members(ws), { token, body: { email, role } });
const setRole = (token: string, ws: string, userId: string, role: string) =>
  h.request('PATCH', `/v1/workspaces/${ws}/members/${userId}`, { token, body: { role } });
const remove = (token: string, ws: string, userId: string) => h.request('DELETE', `/v1/workspaces/${ws}/members/${userId}`, { token });

describe('workspaces', () => {
  it("lists the personal workspace first, then created ones, each with the caller's role, paged", async () => {
    const user = await registerUser(h);
    const created = await h.request('POST', '/v1/workspaces', { token: user.token, body: { name: '  Agency  ' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), name: 'Agency', personal: false, role: 'owner', createdAt: expect.any(String) });
    const list = await h.request('GET', '/v1/workspaces', { token: user.token });
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    expect(list.body.items.map((w: any) => [w.id, w.personal, w.role])).toEqual([
      [user.workspaceId, true, 'owner'],
      [created.body.id, false, 'owner'],
    ]);
    const page = await h.request('GET', '/v1/workspaces?limit=1&offset=1', { token: user.token });
    expect(page.body).toEqual({ items: [list.body.items[1]], total: 2 });
  });

  it('shows one workspace to its members and reports it as not found to anyone else', async () => {
    const user = await registerUser(h);
    const stranger = await registerUser(h);
    const own = await h.request('GET', `/v1/workspaces/${user.workspaceId}`, { token: user.token });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: user.workspaceId, personal: true, role: 'owner' });
    const foreign = await h.request('GET', `/v1/workspaces/${user.workspaceId}`, { token: stranger.token });
    expect(foreign.status).toBe(404);
    expect(typeof foreign.body.detail).toBe('string');
    const unknown = await h.request('GET', '/v1/workspaces/00000000-0000-4000-8000-000000000000', { token: user.token });
    expect(unknown.status).toBe(404);
    const malformed = await h.request('GET', '/v1/workspaces/not-a-uuid', { token: user.token });
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail[0].loc).toEqual(['path', 'workspace_id']);
  });

  it('refuses a blank name with a 422 entry for body.name', async () => {
    const user = await registerUser(h);
    const res = await h.request('POST', '/v1/workspaces', { token: user.token, body: { name: '   ' } });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'name']);
  });

  it('limits a workspace-bound API key to its workspace: it lists only that one and cannot create another', async () => {
    const user = await registerUser(h);
    const second = await createWorkspace(user);
    const bound = await createApiKey(h, user, second);
    const list = await h.request('GET', '/v1/workspaces', { token: bound });
    expect(list.body).toEqual({ items: [expect.objectContaining({ id: second })], total: 1 });
    expect((await h.request('GET', `/v1/workspaces/${user.workspaceId}`, { token: bound })).status).toBe(403);
    const create = await h.request('POST', '/v1/workspaces', { token: bound, body: { name: 'Escape' } });
    expect(create.status).toBe(403);
    expect(create.body).toHaveProperty('detail');
    const unbound = await createApiKey(h, user);
    expect((await h.request('GET', '/v1/workspaces', { token: unbound })).body.total).toBe(2);
  });
});

describe('workspace members', () => {
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let ws: string;

  beforeAll(async () => {
    owner = await registerUser(h, 'Owner');
    admin = await registerUser(h, 'Admin');
    member = await registerUser(h, 'Member');
    ws = await createWorkspace(owner);
  });

  it('adds existing users by email (any case) and lists them with their roles in join order', async () => {
    const added = await addMember(owner.token, ws, admin.email.toUpperCase(), 'admin');
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ userId: admin.userId, email: admin.email, name: 'Admin', role: 'admin', joinedAt: expect.any(String) });
    expect((await addMember(admin.token, ws, member.email, 'member')).status).toBe(201);
    const list = await h.request('GET', members(ws), { token: member.token });
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(3);
    expect(list.body.items.map((m: any) => [m.userId, m.role])).toEqual([
      [owner.userId, 'owner'],
      [admin.userId, 'admin'],
      [member.userId, 'member'],
    ]);
    const shared = await h.request('GET', `/v1/workspaces/${ws}`, { token: member.token });
    expect(shared.body.role).toBe('member');
  });

  it('answers an unknown email with 404 and an existing member with 409 member_exists', async () => {
    const unknown = await addMember(owner.token, ws, 'nobody-here@example.com', 'member');
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe('user not found');
    const again = await addMember(owner.token, ws, member.email, 'admin');
    expect(again.status).toBe(409);
    expect(again.body.detail.code).toBe('member_exists');
  });

  it('refuses every change by a plain member with 403 admin_required', async () => {
    const outsider = await registerUser(h);
    const attempts = [
      await addMember(member.token, ws, outsider.email, 'member'),
      await setRole(member.token, ws, member.userId, 'admin'),
      await remove(member.token, ws, admin.userId),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(403);
      expect(res.body.detail).toMatchObject({ code: 'admin_required' });
    }
  });

  it('lets an admin manage members and admins but never the owner role', async () => {
    const extra = await registerUser(h);
    expect((await addMember(admin.token, ws, extra.email, 'owner')).body.detail.code).toBe('admin_required');
    expect((await addMember(admin.token, ws, extra.email, 'admin')).status).toBe(201);
    expect((await setRole(admin.token, ws, extra.userId, 'member')).body.role).toBe('member');
    const promote = await setRole(admin.token, ws, extra.userId, 'owner');
    expect(promote.status).toBe(403);
    expect(promote.body.detail.code).toBe('admin_required');
    expect((await setRole(admin.token, ws, owner.userId, 'member')).body.detail.code).toBe('admin_required');
    expect((await remove(admin.token, ws, owner.userId)).body.detail.code).toBe('admin_required');
    expect((await remove(admin.token, ws, extra.userId)).status).toBe(204);
    expect((await h.request('GET', `/v1/workspaces/${ws}`, { token: extra.token })).status).toBe(404);
  });

  it('always keeps one owner: the last one can be neither demoted nor removed, not even by leaving', async () => {
    const demote = await setRole(owner.token, ws, owner.userId, 'admin');
    expect(demote.status).toBe(409);
    expect(demote.body.detail).toMatchObject({ code: 'last_owner' });
    expect((await remove(owner.token, ws, owner.userId)).body.detail.code).toBe('last_owner');

    expect((await setRole(owner.token, ws, admin.userId, 'owner')).body.role).toBe('owner');
    expect((await setRole(owner.token, ws, owner.userId, 'member')).status).toBe(200);
    expect((await setRole(admin.token, ws, admin.userId, 'admin')).body.detail.code).toBe('last_owner');
    expect((await setRole(admin.token, ws, owner.userId, 'owner')).status).toBe(200);
    expect((await remove(admin.token, ws, admin.userId)).status).toBe(204);
    const list = await h.request('GET', members(ws), { token: owner.token });
    expect(list.body.items.map((m: any) => [m.userId, m.role])).toEqual([
      [owner.userId, 'owner'],
      [member.userId, 'member'],
    ]);
  });

  it('lets a plain member leave on their own', async () => {
    const leaver = await registerUser(h);
    await addMember(owner.token, ws, leaver.email, 'member');
    expect((await remove(leaver.token, ws, leaver.userId)).status).toBe(204);
    expect((await h.request('GET', members(ws), { token: leaver.token })).status).toBe(404);
  });

  it('reports a non-member target as 404, a foreign workspace as 404, and a bad role as 422', async () => {
    const stranger = await registerUser(h);
    expect((await setRole(owner.token, ws, stranger.userId, 'admin')).status).toBe(404);
    expect((await remove(owner.token, ws, stranger.userId)).status).toBe(404);
    const foreign = await h.request('GET', members(ws), { token: stranger.token });
    expect(foreign.status).toBe(404);
    expect(typeof foreign.body.detail).toBe('string');
    expect((await addMember(stranger.token, ws, stranger.email, 'owner')).status).toBe(404);
    const bad = await setRole(owner.token, ws, member.userId, 'emperor');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['body', 'role'], input: 'emperor' });
  });

  it('keeps a workspace-bound key of another workspace out with 403', async () => {
    const bound = await createApiKey(h, owner, owner.workspaceId);
    expect((await h.request('GET', members(ws), { token: bound })).status).toBe(403);
    expect((await addMember(bound, ws, admin.email, 'member')).status).toBe(403);
    const inside = await createApiKey(h, owner, ws);
    expect((await h.request('GET', members(ws), { token: inside })).status).toBe(200);
  });
});
