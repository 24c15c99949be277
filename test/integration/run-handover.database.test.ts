import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Executor,
  completeRunStart,
  completeRunStarts,
  enqueueEngineCommand,
  getRunRows,
  insertRun,
  leaseDueCommands,
} from '@atelier/db';
import { type Harness, type TestUser, registerUser, startHarness } from '../support/harness';
import { researchDefinition, researchRunRow } from '../support/run-rows';

/**
 * The dispatcher's hand-over of a started run against real PostgreSQL: the move to queued, its event and
 * the command's completion are one statement, so they happen together; a run that moved on meanwhile is
 * left alone (forward-only, as moveRunStatus), and a second settlement of the same command changes nothing.
 */
let h: Harness;
let user: TestUser;
const definition = researchDefinition;

async function runWithCommand(status = 'pending'): Promise<{ runId: string; commandId: number }> {
  const runId = `run-${randomBytes(4).toString('hex')}`;
  await h.db.transaction().execute((tx) => insertRunWithCommand(tx, runId, status));
  const command = await h.db.selectFrom('engine_commands').select('id').where('target_id', '=', runId).executeTakeFirstOrThrow();
  return { runId, commandId: Number(command.id) };
}

async function insertRunWithCommand(tx: Executor, runId: string, status = 'pending'): Promise<void> {
  await insertRun(tx, researchRunRow(runId, user.workspaceId, status, 'hand-over'));
  await enqueueEngineCommand(tx, 'start_run', runId);
}

const state = async (runId: string, commandId: number) => ({
  run: await h.db.selectFrom('runs').select(['status', 'event_seq']).where('id', '=', runId).executeTakeFirstOrThrow(),
  events: await h.db.selectFrom('run_events').select(['seq', 'type', 'data']).where('run_id', '=', runId).orderBy('seq').execute(),
  command: await h.db.selectFrom('engine_commands').select(['done_at', 'last_error']).where('id', '=', commandId).executeTakeFirstOrThrow(),
});

beforeAll(async () => {
  h = await startHarness({ worker: false });
  user = await registerUser(h);
});
afterAll(() => h?.stop());

describe('a start_run hand-over', () => {
  it('moves a pending run to queued with its event and completes the command, once', async () => {
    const { runId, commandId } = await runWithCommand();
    const moved = await completeRunStart(h.db, commandId, runId);
    expect(moved).toMatchObject({ id: runId, status: 'queued' });
    const after = await state(runId, commandId);
    expect(after.run).toEqual({ status: 'queued', event_seq: 2 });
    expect(after.events.map((e) => [e.seq, e.type, e.data])).toEqual([
      [1, 'run.status', { status: 'pending' }],
      [2, 'run.status', { status: 'queued' }],
    ]);
    expect(after.command.done_at).toBeInstanceOf(Date);

    // Delivered again (a dispatcher that died before noticing): nothing more is written.
    expect(await completeRunStart(h.db, commandId, runId)).toBeUndefined();
    const again = await state(runId, commandId);
    expect(again.run).toEqual(after.run);
    expect(again.events).toHaveLength(2);
  });

  it('leaves a run that moved on as it is, and still completes the command', async () => {
    for (const status of ['running', 'cancelled']) {
      const { runId, commandId } = await runWithCommand(status);
      expect(await completeRunStart(h.db, commandId, runId)).toBeUndefined();
      const after = await state(runId, commandId);
      expect(after.run).toEqual({ status, event_seq: 1 });
      expect(after.events).toHaveLength(1);
      expect(after.command.done_at).toBeInstanceOf(Date);
    }
  });

  it('completes a batch in one statement: the waiting runs move, each with its own event, and every command is done', async () => {
    const waiting = [await runWithCommand(), await runWithCommand('queued'), await runWithCommand()];
    const movedOn = await runWithCommand('running');
    const moved = await completeRunStarts(h.db, [...waiting, movedOn]);
    expect(moved.map((r) => r.id).sort()).toEqual([waiting[0]!.runId, waiting[2]!.runId].sort());
    expect(moved.every((r) => r.status === 'queued' && r.event_seq === 2)).toBe(true);
    for (const { runId, commandId } of [waiting[0]!, waiting[2]!]) {
      const after = await state(runId, commandId);
      expect(after.events.map((e) => [e.seq, e.type, e.data])).toEqual([
        [1, 'run.status', { status: 'pending' }],
        [2, 'run.status', { status: 'queued' }],
      ]);
      expect(after.command.done_at).toBeInstanceOf(Date);
    }
    for (const { runId, commandId } of [waiting[1]!, movedOn]) {
      const after = await state(runId, commandId);
      expect(after.events).toHaveLength(1);
      expect(after.command.done_at).toBeInstanceOf(Date);
    }
    expect(await completeRunStarts(h.db, waiting)).toEqual([]);
    expect(await completeRunStarts(h.db, [])).toEqual([]);
  });

  it('reads a batch of runs in one query', async () => {
    const a = await runWithCommand();
    const b = await runWithCommand();
    const rows = await getRunRows(h.db, [a.runId, b.runId, 'run-missing']);
    expect(rows.map((r) => r.id).sort()).toEqual([a.runId, b.runId].sort());
    expect(await getRunRows(h.db, [])).toEqual([]);
  });

  it('leases due commands with the run each start_run starts, in one statement', async () => {
    // Inside a transaction never committed, so the harness's own dispatcher cannot take these commands first.
    const rolledBack = new Error('rolled back');
    const ids = [`run-${randomBytes(4).toString('hex')}`, `run-${randomBytes(4).toString('hex')}`];
    const leased = await h.db
      .transaction()
      .execute(async (tx) => {
        await insertRunWithCommand(tx, ids[0]!);
        await insertRunWithCommand(tx, ids[1]!, 'cancelled');
        await enqueueEngineCommand(tx, 'cancel_run', ids[1]!);
        await enqueueEngineCommand(tx, 'start_run', 'run-missing');
        // Due as of the transaction's now(), which is when it began.
        await tx
          .updateTable('engine_commands')
          .set({ next_attempt_at: sql<Date>`now() - interval '1 second'` })
          .where('target_id', 'in', [...ids, 'run-missing'])
          .execute();
        const mine = (await leaseDueCommands(tx, 1_000)).filter((c) => [...ids, 'run-missing'].includes(c.target_id));
        throw Object.assign(rolledBack, { mine });
      })
      .catch((err) => {
        if (err !== rolledBack) throw err;
        return (err as Error & { mine: Awaited<ReturnType<typeof leaseDueCommands>> }).mine;
      });
    expect(leased.map((c) => [c.kind, c.target_id, c.attempts])).toEqual([
      ['start_run', ids[0], 1],
      ['start_run', ids[1], 1],
      ['cancel_run', ids[1], 1],
      ['start_run', 'run-missing', 1],
    ]);
    expect(leased[0]!.run).toMatchObject({
      id: ids[0],
      status: 'pending',
      workspace_id: user.workspaceId,
      template_id: 'plan-research-report',
      parent_order_id: null,
      intake: { topic: 'hand-over' },
      inputs: {},
      bindings: definition.providers,
      execution_mode: 'standard',
      definition: { id: 'plan-research-report', version: definition.version },
    });
    expect(leased[1]!.run).toMatchObject({ id: ids[1], status: 'cancelled' });
    // Only a start reads its run; a start whose run is gone comes without one.
    expect(leased[2]!.run).toBeUndefined();
    expect(leased[3]!.run).toBeUndefined();
    expect(Object.keys(leased[0]!).filter((k) => k.startsWith('run.'))).toEqual([]);
  });
});
