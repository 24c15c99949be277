import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';

/**
 * POST /v1/runs/bulk-cancel and /v1/runs/bulk-rerun against the real gateway, worker and PostgreSQL: a dry
 * run counts and changes nothing; a filter matching more than the limit is refused whole; a bulk cancel by
 * tag cancels only the matching runs that had not ended, and only the caller's workspace's; a bulk rerun
 * links each rerun to its original, and under an Idempotency-Key reruns once; a budget refusing one rerun stops
 * the rest.
 */
let h: Harness;

beforeAll(async () => {
  // Slow models keep runs running for the seconds a test needs them unsettled.
  h = await startHarness({ localLatencyMs: 8000 });
}, 60_000);
afterAll(() => h?.stop());

const RUN = { templateId: 'plan-research-report', intake: { topic: 'bulk' } };

async function startRun(u: TestUser, extra: Record<string, unknown> = {}): Promise<any> {
  const created = await h.request('POST', '/v1/runs', { token: u.token, body: { ...RUN, ...extra } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

/** A run that has ended: cancelled at once, so it is terminal without waiting for its steps. */
async function endedRun(u: TestUser, extra: Record<string, unknown> = {}): Promise<any> {
  const run = await startRun(u, extra);
  expect((await h.request('POST', `/v1/runs/${run.id}/cancel`, { token: u.token })).status).toBe(200);
  return waitForRun(h, u.token, run.id);
}

const bulk = (u: TestUser, action: 'cancel' | 'rerun', body: unknown) =>
  h.request('POST', `/v1/runs/bulk-${action}`, { token: u.token, body });

/** The workspace's runs, without their statuses: those move on by themselves as the worker gets to them. */
async function runsOf(workspaceId: string): Promise<Array<{ id: string; rerun_of: string | null }>> {
  return h.db.selectFrom('runs').select(['id', 'rerun_of']).where('workspace_id', '=', workspaceId).orderBy('id').execute();
}
const cancelCommands = async (runIds: string[]) =>
  h.db.selectFrom('engine_commands').select('target_id').where('kind', '=', 'cancel_run').where('target_id', 'in', runIds).execute();

describe('POST /v1/runs/bulk-cancel', () => {
  it('counts in a dry run and changes nothing; refuses more matches than the limit whole; then cancels only the matching runs not ended', async () => {
    const owner = await registerUser(h);
    const stranger = await registerUser(h, 'Stranger');
    const ended = await endedRun(owner, { tags: ['wave:1'] });
    const live = [await startRun(owner, { tags: ['wave:1', 'extra'] }), await startRun(owner, { tags: ['wave:1'] })];
    const untagged = await startRun(owner, { tags: ['wave:2'] });
    // Another workspace's run with the same tag: never chosen.
    const theirs = await startRun(stranger, { tags: ['wave:1'] });

    const before = await runsOf(owner.workspaceId);
    const dry = await bulk(owner, 'cancel', { filter: { tag: ['wave:1'] }, dryRun: true });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body).toEqual({
      dryRun: true,
      matched: 3,
      // Newest first, as GET /v1/runs lists them.
      wouldAct: [live[1].id, live[0].id],
      skipped: [{ runId: ended.id, reason: 'terminal', status: 'cancelled' }],
    });
    expect(await runsOf(owner.workspaceId)).toEqual(before);
    expect(await cancelCommands([...live, untagged].map((r) => r.id))).toEqual([]);

    // Three match and the cap is two: nothing is done, dry run or not, and the answer says how many matched.
    for (const dryRun of [true, false]) {
      const over = await bulk(owner, 'cancel', { filter: { tag: ['wave:1'] }, dryRun, limit: 2 });
      expect(over.status).toBe(422);
      expect(over.body.detail).toMatchObject({ code: 'bulk_limit_exceeded', matched: 3, limit: 2 });
    }
    expect(await cancelCommands([...live, untagged].map((r) => r.id))).toEqual([]);
    expect((await bulk(owner, 'cancel', { filter: {}, limit: 1001 })).status).toBe(422);

    const done = await bulk(owner, 'cancel', { filter: { tag: ['wave:1'] } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toEqual({
      dryRun: false,
      matched: 3,
      acted: [live[1].id, live[0].id],
      skipped: [{ runId: ended.id, reason: 'terminal', status: 'cancelled' }],
      failed: [],
    });
    for (const run of live) expect((await waitForRun(h, owner.token, run.id)).status).toBe('cancelled');
    // Neither the other tag's run nor the other workspace's was asked to stop.
    expect(await cancelCommands([untagged.id, theirs.id])).toEqual([]);

    // The stranger cannot reach into the owner's workspace by naming it.
    const reach = await bulk(stranger, 'cancel', { filter: { workspaceId: owner.workspaceId } });
    expect(reach.status).toBe(404);
    const own = await bulk(stranger, 'cancel', { filter: { tag: ['wave:1'] }, dryRun: true });
    expect(own.body).toMatchObject({ matched: 1, wouldAct: [theirs.id] });
  }, 90_000);

  it('takes the list filters: status and workflow', async () => {
    const owner = await registerUser(h);
    const ended = await endedRun(owner);
    const live = await startRun(owner);
    const byStatus = await bulk(owner, 'cancel', { filter: { status: 'cancelled' }, dryRun: true });
    expect(byStatus.body).toMatchObject({ matched: 1, wouldAct: [], skipped: [{ runId: ended.id }] });
    const byWorkflow = await bulk(owner, 'cancel', { filter: { templateId: 'plan-research-report' }, dryRun: true });
    expect(byWorkflow.body).toMatchObject({ matched: 2, wouldAct: [live.id] });
    const none = await bulk(owner, 'cancel', { filter: { templateId: 'no-such-workflow' }, dryRun: true });
    expect(none.body).toEqual({ dryRun: true, matched: 0, wouldAct: [], skipped: [] });
    // GET /v1/runs takes the same workflow filter.
    const listed = await h.request('GET', '/v1/runs?templateId=plan-research-report', { token: owner.token });
    expect(listed.body.total).toBe(2);
    await bulk(owner, 'cancel', { filter: {} });
  }, 60_000);

  it('takes the date window and the search as GET /v1/runs does: createdAfter inclusive, createdBefore exclusive, q in tags', async () => {
    const owner = await registerUser(h);
    const old = await startRun(owner, { tags: ['heron:a'] });
    const recent = await startRun(owner, { tags: ['Heron:b'] });
    const otherTag = await startRun(owner, { tags: ['osprey'] });
    const ended = await endedRun(owner, { tags: ['heron:c'] });
    // Creation stamps now: put the runs on days of their own, `recent` exactly on the window's edge.
    const at: Array<[string, string]> = [
      [old.id, '2020-01-01T00:00:00Z'],
      [recent.id, '2020-02-01T00:00:00Z'],
      [otherTag.id, '2020-02-02T00:00:00Z'],
      [ended.id, '2020-02-03T00:00:00Z'],
    ];
    for (const [id, createdAt] of at) await h.db.updateTable('runs').set({ created_at: createdAt }).where('id', '=', id).execute();
    const edge = '2020-02-01T00:00:00Z';

    const dry = await bulk(owner, 'cancel', { filter: { createdAfter: edge, q: 'HERON' }, dryRun: true });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body).toEqual({
      dryRun: true,
      matched: 2,
      wouldAct: [recent.id],
      skipped: [{ runId: ended.id, reason: 'terminal', status: 'cancelled' }],
    });
    // The list a client checks first counts the same runs.
    const listed = await h.request('GET', `/v1/runs?createdAfter=${encodeURIComponent(edge)}&q=HERON`, { token: owner.token });
    expect(listed.body.total).toBe(2);
    const before = await bulk(owner, 'cancel', { filter: { createdBefore: edge, q: 'heron' }, dryRun: true });
    expect(before.body).toMatchObject({ matched: 1, wouldAct: [old.id] });
    const rerunDry = await bulk(owner, 'rerun', { filter: { createdAfter: edge, q: 'heron' }, dryRun: true });
    expect(rerunDry.status, JSON.stringify(rerunDry.body)).toBe(200);
    expect(rerunDry.body.matched).toBe(2);
    expect([...rerunDry.body.wouldAct, ...rerunDry.body.wouldFail.map((f: { runId: string }) => f.runId)]).toEqual([ended.id, recent.id]);
    const over = await bulk(owner, 'cancel', { filter: { createdAfter: edge, q: 'heron' }, limit: 1 });
    expect(over.body.detail).toMatchObject({ code: 'bulk_limit_exceeded', matched: 2, limit: 1 });
    // Refused as the list refuses them.
    for (const filter of [{ createdAfter: '2020-02-01' }, { q: 'x'.repeat(201) }])
      expect((await bulk(owner, 'cancel', { filter, dryRun: true })).status).toBe(422);

    const done = await bulk(owner, 'cancel', { filter: { createdAfter: edge, q: 'heron' } });
    expect(done.body).toMatchObject({ dryRun: false, matched: 2, acted: [recent.id], failed: [] });
    expect(await cancelCommands([old.id, otherTag.id])).toEqual([]);
    await bulk(owner, 'cancel', { filter: {} });
  }, 60_000);
});

describe('POST /v1/runs/bulk-rerun', () => {
  it('prices a dry run as the sum of the reruns, then reruns each matching run linked to its original', async () => {
    const owner = await registerUser(h);
    const originals = [await endedRun(owner, { tags: ['again'] }), await endedRun(owner, { tags: ['again'], metadata: { k: 'v' } })];
    await endedRun(owner, { tags: ['not-again'] });

    const before = await runsOf(owner.workspaceId);
    const dry = await bulk(owner, 'rerun', { filter: { tag: ['again'] }, dryRun: true, intake: { topic: 'bulk again' } });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    const estimate = originals[0].totalCosts.estimatedUsd;
    expect(dry.body).toEqual({
      dryRun: true,
      matched: 2,
      wouldAct: [originals[1].id, originals[0].id],
      skipped: [],
      wouldFail: [],
      estimateUsd: expect.closeTo(estimate * 2, 6),
    });
    expect(await runsOf(owner.workspaceId)).toEqual(before);

    const done = await bulk(owner, 'rerun', { filter: { tag: ['again'] }, intake: { topic: 'bulk again' } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ dryRun: false, matched: 2, acted: [originals[1].id, originals[0].id], skipped: [], failed: [] });
    for (const original of originals) {
      const reruns = await h.request('GET', `/v1/runs?rerunOf=${original.id}`, { token: owner.token });
      expect(reruns.body.items).toHaveLength(1);
      const rerun = reruns.body.items[0];
      expect(done.body.reruns).toContainEqual({ runId: rerun.id, rerunOf: original.id });
      expect(rerun).toMatchObject({ intake: { topic: 'bulk again' }, tags: original.tags, metadata: original.metadata });
    }
    expect(await runsOf(owner.workspaceId)).toHaveLength(before.length + 2);
    await bulk(owner, 'cancel', { filter: {} });
  }, 90_000);

  it('under an Idempotency-Key reruns once: the same key and body get the first answer back, another body is 422', async () => {
    const owner = await registerUser(h);
    const originals = [await endedRun(owner, { tags: ['keyed'] }), await endedRun(owner, { tags: ['keyed'] })];
    const keyed = (body: unknown, key = 'bulk-rerun-1') =>
      h.request('POST', '/v1/runs/bulk-rerun', { token: owner.token, body, headers: { 'idempotency-key': key } });
    const body = { filter: { tag: ['keyed'] }, intake: { topic: 'once' } };

    const before = await runsOf(owner.workspaceId);
    const first = await keyed(body);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(first.body).toMatchObject({ matched: 2, acted: [originals[1].id, originals[0].id], skipped: [], failed: [] });
    const created = await runsOf(owner.workspaceId);
    expect(created).toHaveLength(before.length + 2);

    // The reruns carry the tag, so matching the filter again would choose four runs: the retry answers from the key instead.
    const again = await keyed({ intake: { topic: 'once' }, filter: { tag: ['keyed'] } });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await runsOf(owner.workspaceId)).toEqual(created);

    const other = await keyed({ ...body, intake: { topic: 'twice' } });
    expect(other.status).toBe(422);
    expect(other.body.detail).toMatchObject({ code: 'idempotency_key_reused' });
    // A dry run ignores the key; POST /v1/runs with the same key is a key space of its own.
    expect((await keyed({ ...body, intake: { topic: 'twice' }, dryRun: true })).status).toBe(200);
    const single = await h.request('POST', '/v1/runs', { token: owner.token, body: RUN, headers: { 'idempotency-key': 'bulk-rerun-1' } });
    expect(single.status, JSON.stringify(single.body)).toBe(201);
    expect(await runsOf(owner.workspaceId)).toHaveLength(created.length + 1);
    await bulk(owner, 'cancel', { filter: {} });
  }, 90_000);

  it('stops at the first rerun a budget refuses and skips the rest, spending nothing past the budget', async () => {
    const owner = await registerUser(h);
    const project = await h.request('POST', `/v1/workspaces/${owner.workspaceId}/projects`, {
      token: owner.token,
      body: { name: 'Tight' },
    });
    expect(project.status).toBe(201);
    // Newest first: the workspace-level one is rerun, the project's is refused, the oldest is never tried.
    const oldest = await endedRun(owner, { tags: ['capped'] });
    const inProject = await endedRun(owner, { tags: ['capped'], projectId: project.body.id });
    const newest = await endedRun(owner, { tags: ['capped'] });
    const cap = await h.request('POST', '/v1/budgets', {
      token: owner.token,
      body: {
        workspaceId: owner.workspaceId,
        scope: 'project',
        projectId: project.body.id,
        period: 'month',
        limitUsd: 0,
        enforcementMode: 'hard_stop',
      },
    });
    expect(cap.status, JSON.stringify(cap.body)).toBe(201);

    const before = await runsOf(owner.workspaceId);
    const done = await bulk(owner, 'rerun', { filter: { tag: ['capped'] } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({
      dryRun: false,
      matched: 3,
      acted: [newest.id],
      reruns: [{ rerunOf: newest.id, runId: expect.any(String) }],
      failed: [{ runId: inProject.id, status: 402, detail: { code: 'budget_exceeded', budgetId: cap.body.id } }],
      skipped: [{ runId: oldest.id, reason: 'budget' }],
    });
    const after = await runsOf(owner.workspaceId);
    expect(after).toHaveLength(before.length + 1);
    expect(after.filter((r) => r.rerun_of).map((r) => r.rerun_of)).toEqual([newest.id]);

    // The dry run judges each rerun alone: the project's is the one that would be refused (the new rerun carries the tag too).
    const dry = await bulk(owner, 'rerun', { filter: { tag: ['capped'] }, dryRun: true });
    expect(dry.body.wouldFail).toEqual([expect.objectContaining({ runId: inProject.id, status: 402 })]);
    expect(dry.body.wouldAct).toHaveLength(3);
    await bulk(owner, 'cancel', { filter: {} });
  }, 90_000);
});
