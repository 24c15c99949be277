import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';

/** Clients over HTTP against the real stack, and their rules written straight to PostgreSQL. */
let h: Harness;
let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let stranger: TestUser;

const as = (u: TestUser) => ({
  get: (p: string) => h.request('GET', p, { token: u.token }),
  post: (p: string, body?: unknown) => h.request('POST', p, { token: u.token, body }),
  patch: (p: string, body: unknown, headers?: Record<string, string>) => h.request('PATCH', p, { token: u.token, body, headers }),
  del: (p: string) => h.request('DELETE', p, { token: u.token }),
});
const clients = (ws = owner.workspaceId) => `/v1/workspaces/${ws}/clients`;
const billing = {
  model: 'retainer',
  amountCents: 300_000,
  currency: 'USD',
  period: 'quarter',
  scope: ['social', 'print'],
  renewsOn: '2027-01-01',
};

async function newClient(name = `Client ${randomUUID().slice(0, 6)}`, extra: Record<string, unknown> = {}, ws = owner.workspaceId) {
  const res = await as(owner).post(clients(ws), { name, status: 'active', billing, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

beforeAll(async () => {
  h = await startHarness();
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
});
afterAll(() => h?.stop());

describe('clients', () => {
  it('creates a client with a derived slug and an etag, once per requestId even under concurrent retries', async () => {
    const body = { name: 'Acme Coffee Co.', status: 'lead', billing, requestId: randomUUID() };
    const answers = await Promise.all(Array.from({ length: 6 }, () => as(admin).post(clients(), body)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(201));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    const first = answers[0]!;
    expect(first.body).toMatchObject({
      slug: 'acme-coffee-co',
      status: 'lead',
      billing: { version: 1, ...billing },
      renewsOn: '2027-01-01',
      projects: [],
    });
    expect(first.headers.get('etag')).toBe(first.body.etag);
    const reused = await as(admin).post(clients(), { ...body, status: 'active' });
    expect(reused.status).toBe(409);
    expect(reused.body.detail.code).toBe('request_id_reused');
  });

  it('keeps slugs and payment customers unique among live clients, and frees them on archive', async () => {
    const a = await newClient('Northwind', { paymentCustomerId: 'cus_123' });
    const dupSlug = await as(owner).post(clients(), { name: 'Northwind' });
    expect(dupSlug.status).toBe(409);
    expect(dupSlug.body.detail).toMatchObject({ code: 'client_conflict', field: 'slug' });
    const dupCustomer = await as(owner).post(clients(), { name: 'Other', paymentCustomerId: 'cus_123' });
    expect(dupCustomer.body.detail).toMatchObject({ code: 'client_conflict', field: 'paymentCustomerId' });
    const archived = await as(owner).del(`/v1/clients/${a.id}`);
    expect(archived.status).toBe(200);
    expect(archived.body.archived).toBe(true);
    expect((await as(owner).post(clients(), { name: 'Northwind', paymentCustomerId: 'cus_123' })).status).toBe(201);
    // Archived clients stay, hidden from lists by default.
    expect((await as(owner).get(`/v1/clients/${a.id}`)).status).toBe(200);
    const listed = await as(owner).get(`${clients()}?limit=100`);
    expect(listed.body.items.map((c: any) => c.id)).not.toContain(a.id);
    const all = await as(owner).get(`${clients()}?limit=100&includeArchived=true`);
    expect(all.body.items.map((c: any) => c.id)).toContain(a.id);
  });

  it('edits with an etag: 428 without, 409 stale with current, one of concurrent edits wins; status history newest first', async () => {
    const client = await newClient();
    const path = `/v1/clients/${client.id}`;
    const missing = await as(owner).patch(path, { status: 'paused' });
    expect(missing.status).toBe(428);
    expect(missing.body.detail.code).toBe('etag_required');
    const racing = await Promise.all([
      as(owner).patch(path, { status: 'paused', statusNote: 'budget freeze' }, { 'if-match': client.etag }),
      as(admin).patch(path, { status: 'past', etag: client.etag }),
    ]);
    expect(racing.map((r) => r.status).sort()).toEqual([200, 409]);
    const lost = racing.find((r) => r.status === 409)!;
    expect(lost.body.detail).toMatchObject({ code: 'etag_mismatch', current: { id: client.id } });
    const won = racing.find((r) => r.status === 200)!;
    const billed = await as(owner).patch(path, {
      billing: { ...billing, amountCents: 450_000 },
      status: 'active',
      statusNote: 'back',
      etag: won.body.etag,
    });
    expect(billed.status).toBe(200);
    expect(billed.body.billing).toMatchObject({ version: 2, amountCents: 450_000 });
    const same = await as(owner).patch(path, { billing: { ...billing, amountCents: 450_000 }, etag: billed.body.etag });
    expect(same.body.billing.version).toBe(2);
    const events = await as(member).get(`${path}/events`);
    expect(events.status).toBe(200);
    expect(events.body.items.map((e: any) => [e.fromStatus, e.toStatus])).toEqual([
      [won.body.status, 'active'],
      ['active', won.body.status],
      [null, 'active'],
    ]);
    expect(events.body.items[0]).toMatchObject({ statusNote: 'back', actorId: owner.userId });
  });

  it('lets members read without money, and refuses them writes; other workspaces see nothing', async () => {
    const client = await newClient();
    const seen = await as(member).get(`/v1/clients/${client.id}`);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ billing: null, paymentCustomerId: null, rollup: { costUsd: null, expectedFeeCents: null } });
    const list = await as(member).get(clients());
    expect(list.body.totals).toMatchObject({ costUsd: null, expectedFeeCents: null });
    const write = await as(member).patch(`/v1/clients/${client.id}`, { name: 'x', etag: client.etag });
    expect(write.status).toBe(403);
    expect(write.body.detail.code).toBe('admin_required');
    expect((await as(member).post(clients(), { name: 'Nope' })).status).toBe(403);
    expect((await as(member).del(`/v1/clients/${client.id}`)).status).toBe(403);
    expect((await as(stranger).get(`/v1/clients/${client.id}`)).status).toBe(404);
    expect((await as(stranger).get(clients())).status).toBe(404);
  });

  it('refuses bad input with 422 entries', async () => {
    for (const body of [
      {},
      { name: '' },
      { name: 'x', status: 'vip' },
      { name: 'x', billing: { ...billing, model: 'barter' } },
      { name: 'x', billing: { ...billing, amountCents: -1 } },
      { name: 'x', slug: 'Not A Slug' },
      { name: 'x', billing: { ...billing, renewsOn: '2027-02-30' } },
    ]) {
      const res = await as(owner).post(clients(), body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Array.isArray(res.body.detail)).toBe(true);
    }
    expect((await as(owner).get(`${clients()}?status=vip`)).status).toBe(422);
    expect((await as(owner).get('/v1/clients/not-a-uuid')).status).toBe(422);
  });
});

describe('projects, rollups and totals', () => {
  it('links projects within the workspace only, and rolls up cost, work waiting and artifacts made this month', async () => {
    const client = await newClient('Rollup Co');
    const project = await as(owner).post(`/v1/workspaces/${owner.workspaceId}/projects`, { name: 'Spring' });
    const projectPath = `/v1/workspaces/${owner.workspaceId}/projects/${project.body.id}`;
    const foreign = await as(stranger).post(clients(stranger.workspaceId), { name: 'Theirs' });
    const crossed = await as(owner).patch(projectPath, { clientId: foreign.body.id });
    expect(crossed.status).toBe(422);
    expect(crossed.body.detail.code).toBe('client_not_found');
    const linked = await as(owner).patch(projectPath, { clientId: client.id });
    expect(linked.body.clientId).toBe(client.id);

    const report = await as(owner).post('/v1/runs', {
      templateId: 'plan-research-report',
      projectId: project.body.id,
      intake: { topic: 'cold brew' },
    });
    const shot = await as(owner).post('/v1/runs', {
      templateId: 'generate-product-shot',
      projectId: project.body.id,
      intake: { product: 'a grinder' },
    });
    const done = await waitForRun(h, owner.token, report.body.id);
    await waitForRun(h, owner.token, shot.body.id);
    const got = await as(owner).get(`/v1/clients/${client.id}`);
    expect(got.body.projects).toEqual([{ id: project.body.id, name: 'Spring', archived: false }]);
    expect(got.body.rollup).toMatchObject({
      periodStart: `${new Date().toISOString().slice(0, 7)}-01`,
      waitingOnYou: 1,
      made: 2,
      expectedFeeCents: 100_000,
    });
    expect(got.body.rollup.costUsd).toBeCloseTo(
      done.totalCosts.actualUsd + (await waitForRun(h, owner.token, shot.body.id)).totalCosts.actualUsd,
      6,
    );
    expect(got.body.rollup.costUsd).toBeGreaterThan(0);

    const unlinked = await as(owner).patch(projectPath, { clientId: null });
    expect(unlinked.body.clientId).toBeNull();
    expect((await as(owner).get(`/v1/clients/${client.id}`)).body.projects).toEqual([]);
  });

  it('leaves leads and past clients out of totals', async () => {
    const workspaceId = (await as(owner).post('/v1/workspaces', { name: 'Totals' })).body.id;
    await newClient('Active one', {}, workspaceId);
    await newClient('Paused one', { status: 'paused', billing: { ...billing, period: 'month', amountCents: 1_000 } }, workspaceId);
    await newClient('A lead', { status: 'lead', billing: { ...billing, period: 'month', amountCents: 50_000 } }, workspaceId);
    await newClient('Gone', { status: 'past', billing: { ...billing, period: 'month', amountCents: 70_000 } }, workspaceId);
    const list = await as(owner).get(clients(workspaceId));
    expect(list.body.total).toBe(4);
    expect(list.body.totals).toEqual({ costUsd: 0, expectedFeeCents: 100_000 + 1_000, waitingOnYou: 0, made: 0 });
    const leads = await as(owner).get(`${clients(workspaceId)}?status=lead`);
    expect(leads.body.items.map((c: any) => c.name)).toEqual(['A lead']);
    expect(leads.body.totals.expectedFeeCents).toBe(0);
  });
});

describe('contacts', () => {
  it('adds, edits and removes contacts, unique per client by email ignoring case', async () => {
    const client = await newClient();
    const path = `/v1/clients/${client.id}/contacts`;
    const added = await as(owner).post(path, { name: 'Dana', email: 'Dana@Example.com', role: 'CMO', approvesWork: true });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ id: expect.any(String), name: 'Dana', email: 'Dana@Example.com', role: 'CMO', approvesWork: true });
    const dup = await as(owner).post(path, { name: 'Dana again', email: 'dana@example.COM' });
    expect(dup.status).toBe(409);
    expect(dup.body.detail.code).toBe('contact_exists');
    const other = await as(owner).post(path, { name: 'Eli', email: 'eli@example.com' });
    expect((await as(owner).patch(`${path}/${other.body.id}`, { email: 'DANA@example.com' })).body.detail.code).toBe('contact_exists');
    const edited = await as(admin).patch(`${path}/${other.body.id}`, { approvesWork: true, role: null });
    expect(edited.body).toMatchObject({ approvesWork: true, role: null });
    expect((await as(member).get(path)).body.total).toBe(2);
    expect((await as(member).post(path, { name: 'M', email: 'm@example.com' })).status).toBe(403);
    expect((await as(owner).post(path, { name: 'Bad', email: 'not-an-email' })).status).toBe(422);
    expect((await as(owner).del(`${path}/${other.body.id}`)).status).toBe(204);
    expect((await as(owner).del(`${path}/${other.body.id}`)).status).toBe(404);
    expect((await as(stranger).get(path)).status).toBe(404);
  });
});

describe('rules PostgreSQL enforces on its own', () => {
  const refused = async (write: Promise<unknown>, code: string) => {
    const err = await write.then(
      () => null,
      (e: { code?: string }) => e,
    );
    expect(err, 'the database accepted the write').not.toBeNull();
    expect(err!.code).toBe(code);
  };

  it("no project links to another workspace's client; history is append-only; slugs unique among live clients; billing in range", async () => {
    const client = await newClient();
    const other = await registerUser(h);
    await refused(
      sql`insert into projects (id, workspace_id, name, client_id) values (${randomUUID()}, ${other.workspaceId}, 'x', ${client.id})`.execute(
        h.db,
      ),
      '23503',
    );
    await refused(sql`update client_events set to_status = 'past' where client_id = ${client.id}`.execute(h.db), '23514');
    await refused(sql`delete from client_events where client_id = ${client.id}`.execute(h.db), '23514');
    await refused(sql`delete from clients where id = ${client.id}`.execute(h.db), '23001');
    await refused(
      sql`insert into clients (id, workspace_id, name, slug, status, etag) values (${randomUUID()}, ${client.workspaceId}, 'x', ${client.slug}, 'lead', 'e')`.execute(
        h.db,
      ),
      '23505',
    );
    await refused(sql`update clients set billing_amount_cents = -5 where id = ${client.id}`.execute(h.db), '23514');
    await refused(sql`update clients set status = 'vip' where id = ${client.id}`.execute(h.db), '23514');
    await refused(
      sql`insert into client_contacts (id, client_id, workspace_id, name, email) values (${randomUUID()}, ${client.id}, ${other.workspaceId}, 'n', 'n@example.com')`.execute(
        h.db,
      ),
      '23503',
    );
    // A status change written straight to the database still lands in the history.
    await sql`update clients set status = 'past' where id = ${client.id}`.execute(h.db);
    const events = await as(owner).get(`/v1/clients/${client.id}/events`);
    expect(events.body.items[0]).toMatchObject({ fromStatus: 'active', toStatus: 'past', actorId: null });
  });
});
