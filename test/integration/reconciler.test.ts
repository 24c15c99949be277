import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import { atelierArgs } from '../support/atelier-cli';
import { ensureReconcilerSchedule, reconcileOnce, reconcilerScheduleId } from '@atelier/engine/reconciler';
import { type Harness, type TestUser, registerUser, startHarness, waitForOrder, waitForRun, executionClosed } from '../support/harness';

/**
 * The reconciler settles what no workflow will: runs and orders not terminal in PostgreSQL whose Temporal
 * execution closed (here: terminated), or that never got one, from what was recorded.
 */
let h: Harness;
let user: TestUser;
const TEN_MINUTES = 10 * 60_000;

const start = async (topic: string) => {
  const res = await h.request('POST', '/v1/runs', { token: user.token, body: { templateId: 'plan-research-report', intake: { topic } } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
};
const get = async (runId: string) => (await h.request('GET', `/v1/runs/${runId}`, { token: user.token })).body;
const pass = (opts: { dryRun?: boolean; staleAfterMs?: number } = {}) =>
  reconcileOnce(h.db, h.temporal, { staleAfterMs: TEN_MINUTES, graceMs: 0, ...opts });

/** A copy of `runId`'s row under a new id, `pending` and untouched for `minutes`, with no workflow execution. */
async function orphanCopy(runId: string, newId: string, minutes: number) {
  await sql`
    insert into runs
    select (jsonb_populate_record(null::runs, to_jsonb(r) || jsonb_build_object(
      'id', ${newId}::text, 'status', 'pending', 'artifact_id', null, 'finished_at', null, 'error', null, 'error_code', null,
      'created_at', now() - make_interval(mins => ${minutes}), 'updated_at', now() - make_interval(mins => ${minutes})))).*
    from runs r where r.id = ${runId}`.execute(h.db);
}

beforeAll(async () => {
  h = await startHarness({ localLatencyMs: 400 });
  user = await registerUser(h);
});
afterAll(() => h?.stop());

describe('one reconciler pass', () => {
  it('settles a running run whose workflow was terminated as failed engine_error (a dry run first writes nothing)', async () => {
    const runId = await start('terminated mid-run');
    await waitForRun(h, user.token, runId, (r) => r.status === 'running' && r.runSteps[0]?.status === 'completed');
    await h.temporal.workflow.getHandle(runId).terminate('simulated engine loss');

    const dry = await pass({ dryRun: true });
    expect(dry.settled).toContainEqual(
      expect.objectContaining({ kind: 'run', id: runId, from: 'running', to: 'failed', errorCode: 'engine_error' }),
    );
    expect((await get(runId)).status).toBe('running');

    const report = await pass();
    expect(report.settled).toContainEqual(
      expect.objectContaining({ kind: 'run', id: runId, from: 'running', to: 'failed', errorCode: 'engine_error' }),
    );
    const run = await get(runId);
    expect(run).toMatchObject({ status: 'failed', errorCode: 'engine_error' });
    expect(run.error).toMatch(/its workflow execution closed \(TERMINATED\) without settling it; 1 of 3 steps had completed/);
    // A second pass finds nothing more to do.
    expect((await pass()).settled.filter((a) => a.id === runId)).toEqual([]);
  });

  it('completes a run whose steps all completed from its recorded outputs, and leaves live runs alone', async () => {
    const runId = await start('finished but never settled');
    const done = await waitForRun(h, user.token, runId);
    await executionClosed(h, runId);
    const artifact = (await h.request('GET', `/v1/artifacts/${done.artifactId}`, { token: user.token })).body;
    await h.db.updateTable('runs').set({ status: 'running', artifact_id: null, finished_at: null }).where('id', '=', runId).execute();
    await h.db.deleteFrom('artifacts').where('run_id', '=', runId).execute();

    const live = await start('still running');
    await waitForRun(h, user.token, live, (r) => r.status === 'running');
    const report = await pass();
    expect(report.settled.map((a) => a.id)).not.toContain(live);
    expect(report.settled).toContainEqual(expect.objectContaining({ kind: 'run', id: runId, to: 'completed', errorCode: null }));
    const run = await get(runId);
    expect(run).toMatchObject({ status: 'completed', errorCode: null });
    expect((await h.request('GET', `/v1/artifacts/${run.artifactId}`, { token: user.token })).body.content).toEqual(artifact.content);
    expect((await waitForRun(h, user.token, live)).status).toBe('completed');
  });

  it('fails a pending run with no execution once it is stale, but not one the dispatcher is still handing over', async () => {
    const source = await start('a template row');
    await waitForRun(h, user.token, source);
    const [orphan01, orphan02, orphan03] = [0, 1, 2].map(() => `run-${randomBytes(4).toString('hex')}`) as [string, string, string];
    await orphanCopy(source, orphan01, 20);
    await orphanCopy(source, orphan02, 20);
    await orphanCopy(source, orphan03, 2);
    // An undelivered start command (due later, so the gateway's dispatcher leaves it be) means "not stuck".
    await h.db
      .insertInto('engine_commands')
      .values({ kind: 'start_run', target_id: orphan02, next_attempt_at: new Date(Date.now() + 3_600_000) })
      .execute();

    const lenient = await pass({ staleAfterMs: 30 * 60_000 });
    expect(lenient.settled.map((a) => a.id)).not.toContain(orphan01);
    const report = await pass();
    const ids = report.settled.map((a) => a.id);
    expect(ids).toContain(orphan01);
    expect(ids).not.toContain(orphan02);
    expect(ids).not.toContain(orphan03);
    const run = await get(orphan01);
    expect(run).toMatchObject({ status: 'failed', errorCode: 'engine_error' });
    expect(run.error).toMatch(/no workflow execution for 20 minutes/);
    expect((await get(orphan02)).status).toBe('pending');
    expect((await get(orphan03)).status).toBe('pending');
  });

  it('is what `atelier runs reconcile [--dry-run]` runs, printing what it settled', async () => {
    const orphan = `run-${randomBytes(4).toString('hex')}`;
    await orphanCopy(await start('for the command'), orphan, 30);
    const cli = (...args: string[]) =>
      promisify(execFile)(process.execPath, atelierArgs('runs', 'reconcile', ...args), {
        cwd: PROJECT_ROOT,
        env: { ...process.env, DATABASE_URL: h.databaseUrl, TEMPORAL_ADDRESS: h.temporalAddress, LOG_LEVEL: 'warn' },
      });
    const dry = await cli('--dry-run');
    expect(dry.stdout).toContain(`would settle run ${orphan}: pending -> failed (engine_error)`);
    expect(dry.stdout).toMatch(/dry run: \d+ would settle of/);
    expect((await get(orphan)).status).toBe('pending');
    const real = await cli();
    // The orphan was back-dated 30 minutes; a slow machine may take a minute or two to get here.
    expect(real.stdout).toMatch(
      new RegExp(`settled run ${orphan}: pending -> failed \\(engine_error\\); it has had no workflow execution for 3[0-5] minutes`),
    );
    expect((await get(orphan)).status).toBe('failed');
  }, 90_000);

  it('settles an order whose workflow was terminated, after its children', async () => {
    const planned = await h.request('POST', '/v1/orders', {
      token: user.token,
      body: {
        workflowId: 'plan-research-report',
        variationSpec: { resolver: 'list', params: { items: [{ topic: 'owls' }, { topic: 'larks' }] } },
      },
    });
    expect(planned.status, JSON.stringify(planned.body)).toBe(201);
    const orderId = planned.body.id as string;
    expect((await h.request('POST', `/v1/orders/${orderId}/start`, { token: user.token })).status).toBeLessThan(300);
    await waitForOrder(h, user.token, orderId, (o) => o.counts.running > 0, 30_000);
    // The engine loses the order and its children: each execution is terminated (the order's close alone would
    // only ask its children to cancel, ParentClosePolicy REQUEST_CANCEL, and they would settle themselves).
    const children = await h.db.selectFrom('runs').select('id').where('parent_order_id', '=', orderId).execute();
    await h.temporal.workflow.getHandle(orderId).terminate('simulated engine loss');
    for (const child of children)
      await h.temporal.workflow
        .getHandle(child.id)
        .terminate('simulated engine loss')
        .catch(() => undefined);
    // A pass judges what is closed.
    const deadline = Date.now() + 30_000;
    for (const child of children) {
      for (;;) {
        const closed = await h.temporal.workflow
          .getHandle(child.id)
          .describe()
          .then(
            (d) => d.status.name !== 'RUNNING',
            () => true,
          );
        if (closed || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 100));
      }
    }

    const report = await pass();
    const orderAction = report.settled.find((a) => a.id === orderId);
    expect(orderAction).toMatchObject({ kind: 'order', from: 'running', to: 'failed', errorCode: 'engine_error' });
    const order = (await h.request('GET', `/v1/orders/${orderId}`, { token: user.token })).body;
    expect(order.status).toBe('failed');
    expect(order.counts.running).toBe(0);
    const kids = await h.db.selectFrom('runs').select(['id', 'status', 'error_code']).where('parent_order_id', '=', orderId).execute();
    for (const kid of kids) expect(['failed', 'planned', 'completed', 'review']).toContain(kid.status);
    expect(kids.some((k) => k.status === 'failed' && k.error_code === 'engine_error')).toBe(true);
  });
});

describe('the reconciler schedule', () => {
  it('is created idempotently and its workflow runs a pass on the worker', async () => {
    expect(await ensureReconcilerSchedule(h.temporal, { taskQueue: h.taskQueue, everyMs: 3_600_000, staleAfterMs: TEN_MINUTES })).toBe(
      'created',
    );
    expect(await ensureReconcilerSchedule(h.temporal, { taskQueue: h.taskQueue, everyMs: 1_800_000, staleAfterMs: TEN_MINUTES })).toBe(
      'updated',
    );
    const handle = h.temporal.schedule.getHandle(reconcilerScheduleId(h.taskQueue));
    try {
      const described = await handle.describe();
      expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'reconcileWorkflow', taskQueue: h.taskQueue });
      expect(described.spec.intervals?.[0]?.every).toBe(1_800_000);
      await handle.trigger();
      // A scheduled workflow's id is the action's id plus the scheduled time: read it from the schedule.
      const deadline = Date.now() + 30_000;
      let started: string | undefined;
      while (!started && Date.now() < deadline) {
        started = (await handle.describe()).info.recentActions.at(-1)?.action.workflow.workflowId;
        if (!started) await new Promise((r) => setTimeout(r, 200));
      }
      expect(started).toMatch(new RegExp(`^reconcile-${h.taskQueue}`));
      const result: any = await h.temporal.workflow.getHandle(started!).result();
      expect(result).toMatchObject({ dryRun: false, settled: expect.any(Array) });
    } finally {
      await handle.delete();
    }
  });
});
