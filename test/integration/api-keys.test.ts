import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findLiveApiKey, stampApiKeyUse } from '@atelier/db';
import { type Harness, type TestUser, heardSoFar, registerUser, startHarness } from '../support/harness';

/** A request's use of a key, as the gateway's authentication makes it: found, then stamped when stale. */
async function useApiKey(db: Parameters<typeof findLiveApiKey>[0], secretHash: string, now: Date) {
  const key = await findLiveApiKey(db, secretHash);
  return key && stampApiKeyUse(db, key, now);
}

let h: Harness;
let user: TestUser;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  user = await registerUser(h);
});
afterAll(() => h?.stop());

const createKey = (token: string, body: Record<string, unknown>) => h.request('POST', '/v1/api-keys', { token, body });
const me = (token: string) => h.request('GET', '/v1/users/me', { token });

describe('API keys', () => {
  it('shows the atl_ secret once on create, stores only its hash, and authenticates with it', async () => {
    const res = await createKey(user.token, { name: 'ci' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'ci',
      prefix: res.body.secret.slice(0, 10),
      workspaceId: null,
      createdAt: expect.any(String),
      lastUsedAt: null,
      revokedAt: null,
      secret: expect.stringMatching(/^atl_[A-Za-z0-9_-]{43}$/),
    });
    const row = await h.db.selectFrom('api_keys').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(res.body.secret);
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await me(res.body.secret)).body.id).toBe(user.userId);
  });

  it('never shows the secret again in list or get, and stamps lastUsedAt', async () => {
    const created = await createKey(user.token, { name: 'listed' });
    await me(created.body.secret);
    const list = await h.request('GET', '/v1/api-keys', { token: user.token });
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(list.body.items.length);
    const listed = list.body.items.find((k: any) => k.id === created.body.id);
    expect(listed).toBeDefined();
    expect(listed).not.toHaveProperty('secret');
    expect(JSON.stringify(list.body)).not.toContain(created.body.secret);
    const one = await h.request('GET', `/v1/api-keys/${created.body.id}`, { token: user.token });
    expect(one.status).toBe(200);
    expect(one.body).not.toHaveProperty('secret');
    expect(one.body.lastUsedAt).toEqual(expect.any(String));
    // Stamped to the minute: uses within it leave the stamp alone; one after it moves it.
    await me(created.body.secret);
    const again = await h.request('GET', `/v1/api-keys/${created.body.id}`, { token: user.token });
    expect(again.body.lastUsedAt).toBe(one.body.lastUsedAt);
    await h.db
      .updateTable('api_keys')
      .set({ last_used_at: new Date(Date.now() - 61_000) })
      .where('id', '=', created.body.id)
      .execute();
    // The gateway keeps the key it read, stamp and all, until it hears this change: a use before that would
    // still find the stamp fresh.
    await heardSoFar(h);
    await me(created.body.secret);
    const later = await h.request('GET', `/v1/api-keys/${created.body.id}`, { token: user.token });
    expect(Date.parse(later.body.lastUsedAt)).toBeGreaterThan(Date.parse(one.body.lastUsedAt) - 1);
    expect(Date.parse(later.body.lastUsedAt)).toBeGreaterThan(Date.now() - 30_000);
  });

  it('stamps a key that a burst of requests finds stale once, for all of them', async () => {
    const created = await createKey(user.token, { name: 'busy' });
    const stale = new Date(Date.now() - 120_000);
    const { secret_hash } = await h.db
      .updateTable('api_keys')
      .set({ last_used_at: stale })
      .where('id', '=', created.body.id)
      .returning('secret_hash')
      .executeTakeFirstOrThrow();
    // Sixteen concurrent uses, each at its own instant: they share the first one's write.
    const base = Date.now();
    const keys = await Promise.all(Array.from({ length: 16 }, (_, i) => useApiKey(h.db, secret_hash, new Date(base + i))));
    const stamps = new Set(keys.map((k) => k!.last_used_at!.getTime()));
    expect(stamps.size).toBe(1);
    const row = await h.db.selectFrom('api_keys').select('last_used_at').where('id', '=', created.body.id).executeTakeFirstOrThrow();
    expect(row.last_used_at!.getTime()).toBe([...stamps][0]);
  });

  it('answers with the stamp another gateway wrote while its own waited, not the one it never wrote', async () => {
    const created = await createKey(user.token, { name: 'raced' });
    const { secret_hash } = await h.db
      .updateTable('api_keys')
      .set({ last_used_at: new Date(Date.now() - 120_000) })
      .where('id', '=', created.body.id)
      .returning('secret_hash')
      .executeTakeFirstOrThrow();
    const theirs = new Date(Date.now() - 1_000);
    let using: ReturnType<typeof useApiKey> | undefined;
    await h.db.transaction().execute(async (tx) => {
      // The other gateway's stamp holds the row until it commits: this use reads the stale stamp, then waits.
      await tx.updateTable('api_keys').set({ last_used_at: theirs }).where('id', '=', created.body.id).execute();
      using = useApiKey(h.db, secret_hash, new Date());
      await new Promise((r) => setTimeout(r, 300));
    });
    expect((await using)!.last_used_at!.getTime()).toBe(theirs.getTime());
    const row = await h.db.selectFrom('api_keys').select('last_used_at').where('id', '=', created.body.id).executeTakeFirstOrThrow();
    expect(row.last_used_at!.getTime()).toBe(theirs.getTime());
  });

  it('revokes with DELETE: 401 at once, gone from the list', async () => {
    const created = await createKey(user.token, { name: 'doomed' });
    expect((await me(created.body.secret)).status).toBe(200);
    const revoked = await h.request('DELETE', `/v1/api-keys/${created.body.id}`, { token: user.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    expect(revoked.body).not.toHaveProperty('secret');
    expect((await me(created.body.secret)).status).toBe(401);
    const list = await h.request('GET', '/v1/api-keys', { token: user.token });
    expect(list.body.items.map((k: any) => k.id)).not.toContain(created.body.id);
  });

  it("keeps other users' keys out of reach: 404 with a string detail", async () => {
    const other = await registerUser(h);
    const created = await createKey(other.token, { name: 'theirs' });
    for (const method of ['GET', 'DELETE']) {
      const res = await h.request(method, `/v1/api-keys/${created.body.id}`, { token: user.token });
      expect(res.status).toBe(404);
      expect(typeof res.body.detail).toBe('string');
    }
    expect((await me(created.body.secret)).status).toBe(200);
    expect((await h.request('GET', '/v1/api-keys/not-a-uuid', { token: user.token })).status).toBe(422);
  });

  it('refuses a missing name and a foreign workspace', async () => {
    const nameless = await createKey(user.token, {});
    expect(nameless.status).toBe(422);
    expect(nameless.body.detail[0]).toMatchObject({ type: 'missing', loc: ['body', 'name'] });
    const other = await registerUser(h);
    const foreign = await createKey(user.token, { name: 'x', workspaceId: other.workspaceId });
    expect(foreign.status).toBe(404);
  });
});

describe('a workspace-bound API key', () => {
  let a: string;
  let b: string;
  let bound: string;

  beforeAll(async () => {
    a = user.workspaceId;
    const created = await h.request('POST', '/v1/workspaces', { token: user.token, body: { name: 'B' } });
    b = created.body.id;
    const key = await createKey(user.token, { name: 'bound to A', workspaceId: a });
    expect(key.body.workspaceId).toBe(a);
    bound = key.body.secret;
  });

  it('works inside its workspace', async () => {
    expect((await h.request('GET', `/v1/workspaces/${a}`, { token: bound })).status).toBe(200);
    expect((await h.request('GET', `/v1/workspaces/${a}/projects`, { token: bound })).status).toBe(200);
  });

  it('gets 403 reaching another workspace of the same user', async () => {
    const get = await h.request('GET', `/v1/workspaces/${b}`, { token: bound });
    expect(get.status).toBe(403);
    expect(get.body).toHaveProperty('detail');
    const run = await h.request('POST', '/v1/runs', {
      token: bound,
      body: { templateId: 'plan-research-report', intake: { topic: 'x' }, workspaceId: b },
    });
    expect(run.status).toBe(403);
    expect((await h.request('GET', `/v1/runs?workspaceId=${b}`, { token: bound })).status).toBe(403);
    expect((await h.request('POST', `/v1/workspaces/${b}/projects`, { token: bound, body: { name: 'p' } })).status).toBe(403);
  });

  it('cannot mint a key for another workspace, and its unbound keys inherit its binding', async () => {
    expect((await createKey(bound, { name: 'escape', workspaceId: b })).status).toBe(403);
    const child = await createKey(bound, { name: 'child' });
    expect(child.status).toBe(201);
    expect(child.body.workspaceId).toBe(a);
  });
});
