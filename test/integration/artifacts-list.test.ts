import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAtelier } from '../support/atelier-cli';
import { type Harness, type TestUser, createApiKey, registerUser, startHarness, waitForRun } from '../support/harness';

/**
 * GET /v1/artifacts against the real gateway, worker and PostgreSQL: a workspace's artifacts newest first,
 * each exactly as GET /v1/artifacts/{artifact_id} shows it, filtered and paged, and never another workspace's;
 * and `atelier artifacts list`.
 */
let h: Harness;
let owner: TestUser;
let stranger: TestUser;
const artifacts: any[] = [];

async function producedArtifact(u: TestUser, topic: string): Promise<any> {
  const created = await h.request('POST', '/v1/runs', { token: u.token, body: { templateId: 'plan-research-report', intake: { topic } } });
  expect(created.status).toBe(201);
  const run = await waitForRun(h, u.token, created.body.id);
  expect(run.artifactId, JSON.stringify(run)).toBeTruthy();
  return (await h.request('GET', `/v1/artifacts/${run.artifactId}`, { token: u.token })).body;
}

const list = (u: TestUser, query = '') => h.request('GET', `/v1/artifacts${query}`, { token: u.token });

beforeAll(async () => {
  h = await startHarness();
  owner = await registerUser(h);
  stranger = await registerUser(h, 'Stranger');
  artifacts.push(await producedArtifact(owner, 'first'), await producedArtifact(owner, 'second'));
  await producedArtifact(stranger, 'theirs');
}, 90_000);
let home: string | undefined;
afterAll(async () => {
  await h?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

describe('GET /v1/artifacts', () => {
  it("lists the workspace's artifacts newest first, each as the single read shows it", async () => {
    const res = await list(owner);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.total).toBe(2);
    // The single read signs file addresses at read time; the list signs them alike, so ignore only the signatures' clock.
    const unsigned = (a: any) => ({ ...a, content: { ...a.content, url: undefined, rawUrl: undefined } });
    expect(res.body.items.map(unsigned)).toEqual([artifacts[1], artifacts[0]].map(unsigned));
  });

  it('filters by run, class, type, status and creation time, and pages', async () => {
    const [first, second] = artifacts;
    const byRun = await list(owner, `?runId=${first.runId}`);
    expect(byRun.body.items.map((a: any) => a.id)).toEqual([first.id]);
    expect((await list(owner, `?artifactClass=${first.artifactClass}&artifactType=${first.artifactType}`)).body.total).toBe(2);
    expect((await list(owner, '?artifactType=film-cut')).body.total).toBe(0);
    expect((await list(owner, `?status=${first.status}`)).body.total).toBe(first.status === second.status ? 2 : 1);
    const after = await list(owner, `?createdAfter=${encodeURIComponent(second.createdAt)}`);
    expect(after.body.items.map((a: any) => a.id)).toEqual([second.id]);
    const before = await list(owner, `?createdBefore=${encodeURIComponent(second.createdAt)}`);
    expect(before.body.items.map((a: any) => a.id)).toEqual([first.id]);
    const page = await list(owner, '?limit=1&offset=1');
    expect(page.body).toMatchObject({ total: 2, items: [expect.objectContaining({ id: first.id })] });
  });

  it("never shows another workspace's artifacts, and refuses bad filters with 422", async () => {
    const theirs = await list(stranger);
    expect(theirs.body.total).toBe(1);
    expect(theirs.body.items[0].id).not.toBe(artifacts[0].id);
    expect((await list(stranger, `?runId=${artifacts[0].runId}`)).body.total).toBe(0);
    expect((await list(stranger, `?workspaceId=${owner.workspaceId}`)).status).toBe(404);
    expect((await list(owner, '?artifactClass=poem')).status).toBe(422);
    expect((await list(owner, '?createdAfter=yesterday')).status).toBe(422);
  });

  it("reads a page from the workspace's index (migration 0028), in its order, without sorting", async () => {
    // A test database holds a handful of artifacts, which a sequential scan reads cheaper; turned off, the
    // planner shows whether the index can serve the list's WHERE and ORDER BY at all.
    const plan = await h.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      const { rows } = await sql<{ 'QUERY PLAN': string }>`EXPLAIN SELECT * FROM artifacts WHERE workspace_id = ${owner.workspaceId}
        ORDER BY created_at DESC, id DESC LIMIT 20`.execute(trx);
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('artifacts_workspace_created');
    expect(plan).not.toContain('Sort');
  });

  it('atelier artifacts list --run/--type/--json prints them', { timeout: 60_000 }, async () => {
    home = await mkdtemp(path.join(tmpdir(), 'atelier-cli-home-'));
    const env = { HOME: home, ATELIER_URL: h.url, ATELIER_API_KEY: await createApiKey(h, owner) };
    const [first] = artifacts;
    const table = await runAtelier(['artifacts', 'list', '--run', first.runId], env);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain(first.id);
    expect(table.stdout).toContain('1 of 1');
    const json = await runAtelier(['artifacts', 'list', '--type', first.artifactType, '--json'], env);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ total: 2, items: [{ id: artifacts[1].id }, { id: first.id }] });
  });
});
