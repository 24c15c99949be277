import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_LEASE_SECONDS, insertRunLeased } from '@atelier/db';
import { EngineDispatcher } from '@atelier/engine/dispatcher';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';
import { researchRunRow } from '../support/run-rows';

/**
 * A run created through a gateway with a dispatcher is leased to that dispatcher by the statement that
 * records it, and handed over in memory: no lease statement has to find it. Against real PostgreSQL and
 * Temporal: the command is delivered on its first attempt, no other dispatcher takes it while its lease
 * holds, and a dispatcher stopping with hand-overs undelivered makes them due at once.
 */
let h: Harness;
let user: TestUser;

beforeAll(async () => {
  h = await startHarness();
  user = await registerUser(h);
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

const commandOf = (runId: string) =>
  h.db
    .selectFrom('engine_commands')
    .select(['id', 'attempts', 'done_at', 'last_error', 'created_at', 'next_attempt_at'])
    .where('target_id', '=', runId)
    .executeTakeFirstOrThrow();

const dispatcher = () =>
  new EngineDispatcher({ db: h.db, temporal: h.temporal, taskQueue: h.taskQueue, orderConcurrency: 8, logger: pino({ level: 'silent' }) });

async function leasedRun(): Promise<{ runId: string; command: Parameters<EngineDispatcher['handOver']>[0] }> {
  const runId = `run-${randomBytes(4).toString('hex')}`;
  const inserted = await insertRunLeased(h.db, researchRunRow(runId, user.workspaceId, 'pending', 'hand-over'));
  return { runId, command: inserted!.command };
}

describe('the dispatcher hand-over', () => {
  it('delivers a run created through the gateway on its first attempt, without another lease', async () => {
    const created = await h.request('POST', '/v1/runs', {
      token: user.token,
      body: { templateId: 'plan-research-report', intake: { topic: 'handed over' } },
    });
    expect(created.status).toBe(201);
    expect((await waitForRun(h, user.token, created.body.id, undefined, 60_000)).status).toBe('completed');
    // Leased by the statement that recorded it (due again exactly the lease after that statement's now()),
    // and never leased from the table since (which would count a second attempt and move the due time).
    const command = await commandOf(created.body.id);
    expect(command).toMatchObject({ attempts: 1, last_error: null });
    expect(command.done_at).not.toBeNull();
    expect(command.next_attempt_at.getTime() - command.created_at.getTime()).toBe(COMMAND_LEASE_SECONDS * 1000);
  });

  it('leaves a command leased to another process alone until its lease runs out', async () => {
    const { runId, command } = await leasedRun();
    expect(command).toMatchObject({ kind: 'start_run', target_id: runId, attempts: 1 });
    expect(command.run).toMatchObject({ id: runId, status: 'pending' });
    const recorded = await commandOf(runId);
    expect(recorded.id).toBe(command.id);
    const leaseLeft = (recorded.next_attempt_at.getTime() - Date.now()) / 1000;
    expect(leaseLeft).toBeGreaterThan(COMMAND_LEASE_SECONDS - 10);
    expect(leaseLeft).toBeLessThanOrEqual(COMMAND_LEASE_SECONDS + 1);

    const other = dispatcher();
    await other.dispatchDue();
    expect(await commandOf(runId)).toMatchObject({ attempts: 1, done_at: null });
    const run = await h.db.selectFrom('runs').select('status').where('id', '=', runId).executeTakeFirstOrThrow();
    expect(run.status).toBe('pending');
    await h.db
      .updateTable('engine_commands')
      .set({ next_attempt_at: new Date(Date.now() - 1_000) })
      .where('id', '=', command.id)
      .execute();
    await other.dispatchDue();
    expect((await waitForRun(h, user.token, runId, undefined, 60_000)).status).toBe('completed');
    expect((await commandOf(runId)).attempts).toBe(2);
  });

  it('makes the hand-overs it could not deliver due at once when it stops', async () => {
    const { runId, command } = await leasedRun();
    const stopping = dispatcher();
    stopping.handOver(command);
    // Never started: the hand-over is still waiting when the dispatcher stops.
    await stopping.stop();
    const released = await commandOf(runId);
    expect(released.done_at).toBeNull();
    expect(released.next_attempt_at.getTime()).toBeLessThanOrEqual(Date.now() + 1_000);
    // Any dispatcher's lease now finds it (the gateway's own does within its poll).
    expect((await waitForRun(h, user.token, runId, undefined, 60_000)).status).toBe('completed');

    // One handed over after the stop (a request that committed as the gateway closed) is released too.
    const late = await leasedRun();
    stopping.handOver(late.command);
    const deadline = Date.now() + 5_000;
    while ((await commandOf(late.runId)).next_attempt_at.getTime() > Date.now() + 1_000 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await commandOf(late.runId)).next_attempt_at.getTime()).toBeLessThanOrEqual(Date.now() + 1_000);
    expect((await waitForRun(h, user.token, late.runId, undefined, 60_000)).status).toBe('completed');
  });

  it('delivers what it was handed in one batch, without reading the table', async () => {
    // More than a lease's batch of the table (32): a burst's hand-overs go in passes of up to 256.
    const runs = await Promise.all(Array.from({ length: 40 }, () => leasedRun()));
    const own = dispatcher();
    for (const { command } of runs) own.handOver(command);
    expect(await own.dispatchDue(false)).toBe(40);
    for (const { runId } of runs) {
      expect(await commandOf(runId)).toMatchObject({ attempts: 1, last_error: null });
      expect((await commandOf(runId)).done_at).not.toBeNull();
    }
    for (const { runId } of runs) expect((await waitForRun(h, user.token, runId, undefined, 60_000)).status).toBe('completed');
  });
});
