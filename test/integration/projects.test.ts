import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, createApiKey, registerUser, startHarness } from '../support/harness';

let h: Harness;
let owner: TestUser;
let member: TestUser;
let stranger: TestUser;
let ws: string;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  owner = await registerUser(h, 'Owner');
  member = await registerUser(h, 'Member');
  stranger = await registerUser(h, 'Stranger');
  ws = owner.workspaceId;
  const added = await h.request('POST', `/v1/workspaces/${ws}/members`, {
    token: owner.token,
    body: { email: member.email, role: 'member' },
  });
  expect(added.status).toBe(201);
});
afterAll(() => h?.stop());

const projects = (workspaceId = ws) => `/v1/workspaces/${workspaceId}/projects`;
const create = async (body: Record<string, unknown>, token = owner.token) => {
  const res = await h.request('POST', projects(), { token, body });
  expect(res.status).toBe(201);
  return res.body;
};
const patch = (id: string, body: unknown, token = owner.token) => h.request('PATCH', `${projects()}/${id}`, { token, body });

describe('projects', () => {
  it('creates a project with defaults and shows it by id', async () => {
    const res = await h.request('POST', projects(), { token: owner.token, body: { name: 'Spring launch', description: 'Q2 campaign' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      workspaceId: ws,
      name: 'Spring launch',
      kind: 'project',
      description: 'Q2 campaign',
      clientId: null,
      archived: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const one = await h.request('GET', `${projects()}/${res.body.id}`, { token: member.token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(res.body);
  });

  it('lets owners and admins write and members only read (403 admin_required)', async () => {
    const project = await create({ name: 'Guarded' });
    const attempts = [
      await h.request('POST', projects(), { token: member.token, body: { name: 'Nope' } }),
      await patch(project.id, { name: 'Renamed' }, member.token),
      await h.request('DELETE', `${projects()}/${project.id}`, { token: member.token }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(403);
      expect(res.body.detail).toMatchObject({ code: 'admin_required' });
    }
    expect((await h.request('GET', projects(), { token: member.token })).status).toBe(200);
  });

  it('renames, describes, archives and unarchives; archived projects leave the default list', async () => {
    const project = await create({ name: 'Old name' });
    const renamed = await patch(project.id, { name: 'New name', description: null });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'New name', description: null, archived: false });
    const archived = await patch(project.id, { archived: true });
    expect(archived.body.archived).toBe(true);
    const visible = await h.request('GET', `${projects()}?limit=100`, { token: owner.token });
    expect(visible.body.items.map((p: any) => p.id)).not.toContain(project.id);
    const all = await h.request('GET', `${projects()}?includeArchived=true&limit=100`, { token: owner.token });
    expect(all.body.items.map((p: any) => p.id)).toContain(project.id);
    expect(all.body.total).toBe(visible.body.total + 1);
    const explicit = await h.request('GET', `${projects()}?includeArchived=false&limit=100`, { token: owner.token });
    expect(explicit.body.total).toBe(visible.body.total);
    await patch(project.id, { archived: false });
    const back = await h.request('GET', `${projects()}?limit=100`, { token: owner.token });
    expect(back.body.items.map((p: any) => p.id)).toContain(project.id);
  });

  it('lists newest first with total and paging, and filters by clientId (none = linked to no client)', async () => {
    const fresh = await registerUser(h);
    const path = projects(fresh.workspaceId);
    for (const name of ['one', 'two', 'three']) {
      expect((await h.request('POST', path, { token: fresh.token, body: { name } })).status).toBe(201);
    }
    const list = await h.request('GET', path, { token: fresh.token });
    expect(list.body.total).toBe(3);
    expect(list.body.items.map((p: any) => p.name)).toEqual(['three', 'two', 'one']);
    const page = await h.request('GET', `${path}?offset=1&limit=1`, { token: fresh.token });
    expect(page.body).toEqual({ items: [list.body.items[1]], total: 3 });
    const none = await h.request('GET', `${path}?clientId=none`, { token: fresh.token });
    expect(none.body.total).toBe(3);
    const someClient = await h.request('GET', `${path}?clientId=6f1c2a8e-5b0d-4e57-9a43-0c6f1b2d3e4f`, { token: fresh.token });
    expect(someClient.body).toEqual({ items: [], total: 0 });
    const bad = await h.request('GET', `${path}?clientId=acme`, { token: fresh.token });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'clientId']);
    const badFlag = await h.request('GET', `${path}?includeArchived=yes`, { token: fresh.token });
    expect(badFlag.status).toBe(422);
    expect(badFlag.body.detail[0].loc).toEqual(['query', 'includeArchived']);
  });

  it('unlinks with clientId null and refuses any client for now with 422 client_not_found', async () => {
    const project = await create({ name: 'Clientless' });
    const unlink = await patch(project.id, { clientId: null });
    expect(unlink.status).toBe(200);
    expect(unlink.body.clientId).toBeNull();
    const link = await patch(project.id, { clientId: '6f1c2a8e-5b0d-4e57-9a43-0c6f1b2d3e4f', name: 'Not applied' });
    expect(link.status).toBe(422);
    expect(link.body.detail).toEqual({ code: 'client_not_found', message: expect.any(String) });
    expect((await h.request('GET', `${projects()}/${project.id}`, { token: owner.token })).body.name).toBe('Clientless');
  });

  it('validates create and patch bodies', async () => {
    const blank = await h.request('POST', projects(), { token: owner.token, body: { name: '' } });
    expect(blank.status).toBe(422);
    expect(blank.body.detail[0].loc).toEqual(['body', 'name']);
    const kind = await h.request('POST', projects(), { token: owner.token, body: { name: 'x', kind: 'spaceship' } });
    expect(kind.status).toBe(422);
    expect(kind.body.detail[0].loc).toEqual(['body', 'kind']);
    const project = await create({ name: 'Typed' });
    const archived = await patch(project.id, { archived: 'yes' });
    expect(archived.status).toBe(422);
    expect(archived.body.detail[0]).toMatchObject({ loc: ['body', 'archived'], input: 'yes' });
    const broken = await h.request('POST', projects(), { token: owner.token, rawBody: '{name: nope}' });
    expect(broken.status).toBe(422);
    expect(broken.body.detail[0].type).toBe('json_invalid');
  });

  it("reports another workspace's projects as 404 with a string detail", async () => {
    const project = await create({ name: 'Private' });
    const asStranger = [
      await h.request('GET', projects(), { token: stranger.token }),
      await h.request('GET', `${projects()}/${project.id}`, { token: stranger.token }),
      await h.request('POST', projects(), { token: stranger.token, body: { name: 'Intruder' } }),
      await h.request('DELETE', `${projects()}/${project.id}`, { token: stranger.token }),
    ];
    for (const res of asStranger) {
      expect(res.status).toBe(404);
      expect(typeof res.body.detail).toBe('string');
    }
    // A project of workspace A addressed through workspace B, where the caller is a member, is not found either.
    const viaOther = await h.request('GET', `${projects(stranger.workspaceId)}/${project.id}`, { token: stranger.token });
    expect(viaOther.status).toBe(404);
    const bound = await createApiKey(h, owner, ws);
    const strangerWs = await h.request('GET', projects(stranger.workspaceId), { token: bound });
    expect(strangerWs.status).toBe(403);
  });
});

describe('deleting a project', () => {
  it('answers 204, forgets the project and moves its runs and artifacts to workspace level', async () => {
    const project = await create({ name: 'Doomed' });
    const run = await h.request('POST', '/v1/runs', {
      token: owner.token,
      body: { templateId: 'plan-research-report', intake: { topic: 'x' }, projectId: project.id },
    });
    expect(run.status).toBe(201);
    expect(run.body.projectId).toBe(project.id);
    // Artifacts are made by runs; one is written straight to the store to check its fallback too.
    const artifactId = `artifact-${project.id.slice(0, 8)}`;
    await h.db
      .insertInto('artifacts')
      .values({
        id: artifactId,
        workspace_id: ws,
        project_id: project.id,
        title: 't',
        status: 'draft',
        artifact_class: 'research',
        artifact_type: 'note',
        content: '{}',
        qa: '{}',
      })
      .execute();

    const deleted = await h.request('DELETE', `${projects()}/${project.id}`, { token: owner.token });
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeNull();
    expect((await h.request('GET', `${projects()}/${project.id}`, { token: owner.token })).status).toBe(404);
    expect((await h.request('DELETE', `${projects()}/${project.id}`, { token: owner.token })).status).toBe(404);

    const after = await h.request('GET', `/v1/runs/${run.body.id}`, { token: owner.token });
    expect(after.status).toBe(200);
    expect(after.body.projectId).toBeNull();
    expect(after.body.workspaceId).toBe(ws);
    const artifact = await h.db
      .selectFrom('artifacts')
      .select(['project_id', 'workspace_id'])
      .where('id', '=', artifactId)
      .executeTakeFirstOrThrow();
    expect(artifact).toEqual({ project_id: null, workspace_id: ws });
  });
});
