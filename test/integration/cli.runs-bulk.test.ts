import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAtelier } from '../support/atelier-cli';
import { type Harness, type TestUser, createApiKey, registerUser, startHarness, waitForRun } from '../support/harness';

/** `atelier runs cancel-many` and `rerun-many`, the real commands as child processes (never at a terminal), against a harness gateway. */
let h: Harness;
let user: TestUser;
let apiKey: string;
let home: string;

const atelier = (args: string[]) => runAtelier(args, { HOME: home, ATELIER_URL: h.url, ATELIER_API_KEY: apiKey });
const RUN = { templateId: 'plan-research-report', intake: { topic: 'bulk cli' } };
const startRun = async (tags: string[]) => {
  const created = await h.request('POST', '/v1/runs', { token: user.token, body: { ...RUN, tags } });
  expect(created.status).toBe(201);
  return created.body;
};
const cancelCommands = async (runIds: string[]) =>
  h.db.selectFrom('engine_commands').select('target_id').where('kind', '=', 'cancel_run').where('target_id', 'in', runIds).execute();

beforeAll(async () => {
  // Very slow models keep the runs running while the commands (a few seconds each) get to them; a cancel lands at the step's end.
  h = await startHarness({ localLatencyMs: 20_000 });
  user = await registerUser(h);
  apiKey = await createApiKey(h, user);
  home = await mkdtemp(path.join(tmpdir(), 'atelier-cli-home-'));
}, 60_000);
afterAll(async () => {
  await h?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

describe('atelier runs cancel-many and rerun-many', { timeout: 180_000 }, () => {
  it('cancel-many: --dry-run shows and changes nothing; without --yes off a terminal it refuses; --yes cancels the matching runs', async () => {
    const live = [await startRun(['cli:bulk']), await startRun(['cli:bulk'])];
    const other = await startRun(['cli:other']);

    const dry = await atelier(['runs', 'cancel-many', '--tag', 'cli:bulk', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`2 runs match; would cancel 2: ${live[1].id} ${live[0].id}`);
    expect(dry.stdout).toContain('dry run: nothing was changed');
    const json = await atelier(['runs', 'cancel-many', '--tag', 'cli:bulk', '--workflow', 'plan-research-report', '--dry-run', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ dryRun: true, matched: 2, wouldAct: [live[1].id, live[0].id], skipped: [] });

    const unconfirmed = await atelier(['runs', 'cancel-many', '--tag', 'cli:bulk']);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('without --yes');
    const over = await atelier(['runs', 'cancel-many', '--tag', 'cli:bulk', '--limit', '1', '--yes']);
    expect(over.code).toBe(3);
    expect(over.stderr).toContain('bulk_limit_exceeded');
    expect(await cancelCommands([...live, other].map((r) => r.id))).toEqual([]);

    const done = await atelier(['runs', 'cancel-many', '--tag', 'cli:bulk', '--yes']);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain(`2 runs matched; cancel 2: ${live[1].id} ${live[0].id}`);
    for (const run of live) expect((await waitForRun(h, user.token, run.id)).status).toBe('cancelled');
    expect(await cancelCommands([other.id])).toEqual([]);

    // Run again, the same filter finds only ended runs: skipped, with why.
    const again = await atelier(['runs', 'cancel-many', '--tag', 'cli:bulk', '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`skipped ${live[0].id}: already cancelled`);
  });

  it('rerun-many --yes --json reruns each matching run with the intake override, linked to its original', async () => {
    const original = await startRun(['cli:again']);
    const dry = await atelier(['runs', 'rerun-many', '--tag', 'cli:again', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^estimated \$\S+ in all$/m);
    const done = await atelier(['runs', 'rerun-many', '--tag', 'cli:again', '--set', 'topic="again"', '--yes', '--json']);
    expect(done.code, done.stderr).toBe(0);
    const answer = JSON.parse(done.stdout);
    expect(answer).toMatchObject({ dryRun: false, matched: 1, acted: [original.id], failed: [] });
    const rerun = await h.request('GET', `/v1/runs/${answer.reruns[0].runId}`, { token: user.token });
    expect(rerun.body).toMatchObject({ rerunOf: original.id, intake: { topic: 'again' }, tags: ['cli:again'] });
    await h.request('POST', '/v1/runs/bulk-cancel', { token: user.token, body: { filter: {} } });
  });

  it('runs list and cancel-many take --since, --until (a date is 00:00 UTC, --until exclusive) and --search', async () => {
    const [early, edge, late] = [await startRun(['kite:a']), await startRun(['Kite:b']), await startRun(['wren'])];
    // Ended first, so what the commands answer does not hang on how far the worker got meanwhile.
    for (const run of [early, edge, late])
      expect((await h.request('POST', `/v1/runs/${run.id}/cancel`, { token: user.token })).status).toBe(200);
    for (const run of [early, edge, late]) expect((await waitForRun(h, user.token, run.id)).status).toBe('cancelled');
    const at: Array<[string, string]> = [
      [early.id, '2020-05-01T12:00:00Z'],
      [edge.id, '2020-05-02T00:00:00Z'],
      [late.id, '2020-05-02T06:00:00Z'],
    ];
    for (const [id, createdAt] of at) await h.db.updateTable('runs').set({ created_at: createdAt }).where('id', '=', id).execute();
    const listed = async (...flags: string[]) => {
      const res = await atelier(['runs', 'list', ...flags, '--json']);
      expect(res.code, res.stderr).toBe(0);
      const page = JSON.parse(res.stdout);
      return { ids: page.items.map((r: { id: string }) => r.id), total: page.total };
    };

    expect(await listed('--since', '2020-05-01', '--until', '2020-05-02')).toEqual({ ids: [early.id], total: 1 });
    expect(await listed('--since', '2020-05-02T02:00:00+02:00', '--until', '2020-05-03')).toEqual({ ids: [late.id, edge.id], total: 2 });
    expect(await listed('--until', '2020-05-03', '--search', 'KITE')).toEqual({ ids: [edge.id, early.id], total: 2 });
    expect(await listed('--until', '2020-05-03', '--status', 'completed')).toEqual({ ids: [], total: 0 });
    const table = await atelier(['runs', 'list', '--since', '2020-05-02', '--search', 'kite']);
    expect(table.stdout).toContain(edge.id);
    expect(table.stdout).toContain('1 of 1');
    for (const bad of ['yesterday', '2020-02-30', '2020-05-02T00:00:00']) {
      const refused = await atelier(['runs', 'list', '--since', bad]);
      expect(refused.code, bad).toBe(2);
      expect(refused.stderr).toContain('--since expects a date');
    }

    const dry = await atelier(['runs', 'cancel-many', '--since', '2020-05-02', '--search', 'kite', '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toEqual({
      dryRun: true,
      matched: 1,
      wouldAct: [],
      skipped: [{ runId: edge.id, reason: 'terminal', status: 'cancelled' }],
    });
    const rerunDry = await atelier(['runs', 'rerun-many', '--until', '2020-05-02', '--search', 'kite', '--dry-run', '--json']);
    expect(rerunDry.code, rerunDry.stderr).toBe(0);
    expect(JSON.parse(rerunDry.stdout)).toMatchObject({ dryRun: true, matched: 1, wouldAct: [early.id] });
    const done = await atelier(['runs', 'cancel-many', '--since', '2020-05-02', '--search', 'kite', '--yes']);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain(`1 runs matched; cancel 0\nskipped ${edge.id}: already cancelled`);
  });
});
