import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRunRow, insertRun, replanFailedChildren, withFreeRunId } from '@atelier/db';
import { LOCAL_MODELS, ModelRegistry, newRunId } from '@atelier/domain';
import { childRunIdCandidates, prepareChildRun } from '@atelier/engine/activities/child-runs';
import { type Harness, type TestUser, registerUser, startHarness } from '../support/harness';
import { researchDefinition, researchRunRow } from '../support/run-rows';

/**
 * Run ids are 32 random bits, so a new run now and then draws the id of one already recorded. Against real
 * PostgreSQL: the primary key refuses the insert, and the new run is recorded under another id, leaving the
 * recorded one as it was; any other refusal, and a refusal that keeps coming, is not taken for chance. The
 * same holds where a run is recorded other than by POST /v1/runs: a failed order child's fresh attempt, and a
 * subWorkflow step's child run.
 */
let h: Harness;
let user: TestUser;

const freshId = newRunId;
const row = (id: string, topic: string) => researchRunRow(id, user.workspaceId, 'pending', topic);

beforeAll(async () => {
  h = await startHarness({ worker: false });
  user = await registerUser(h);
});
afterAll(() => h?.stop());

describe('a new run whose id is taken', () => {
  it('is recorded under another id, and the run that had it is left alone', async () => {
    const taken = freshId();
    await insertRun(h.db, row(taken, 'first'));
    const other = freshId();
    const recorded = await withFreeRunId(
      row(taken, 'second'),
      (r) => insertRun(h.db, r),
      () => other,
    );
    expect(recorded.id).toBe(other);
    expect((await getRunRow(h.db, other))?.intake).toEqual({ topic: 'second' });
    expect((await getRunRow(h.db, taken))?.intake).toEqual({ topic: 'first' });
  });

  it('gives up after three ids, all taken', async () => {
    const taken = [freshId(), freshId(), freshId()];
    for (const id of taken) await insertRun(h.db, row(id, 'taken'));
    const draws = [taken[1]!, taken[2]!];
    const refusal = await withFreeRunId(
      row(taken[0]!, 'unlucky'),
      (r) => insertRun(h.db, r),
      () => draws.shift()!,
    ).catch((err: unknown) => err);
    expect(refusal).toMatchObject({ code: '23505', constraint: 'runs_pkey' });
    // It drew twice after the first id: three ids tried, none left untried.
    expect(draws).toEqual([]);
  });

  it('does not draw again for a refusal other than its id', async () => {
    let attempts = 0;
    const refusal = await withFreeRunId({ ...row(freshId(), 'bad'), workspace_id: '00000000-0000-4000-8000-000000000000' }, (r) => {
      attempts++;
      return insertRun(h.db, r);
    }).catch((err: unknown) => err);
    expect(refusal).toMatchObject({ code: '23503' });
    expect(attempts).toBe(1);
  });
});

describe("a failed order child's fresh attempt whose id is taken", () => {
  it('draws another in the same transaction, and the failed child is superseded by the one recorded', async () => {
    const planned = await h.request('POST', '/v1/orders', {
      token: user.token,
      body: { workflowId: 'plan-research-report', variationSpec: { resolver: 'list', params: { items: [{ topic: 'retried' }] } } },
    });
    expect(planned.status, JSON.stringify(planned.body)).toBe(201);
    const orderId = planned.body.id as string;
    const { rows } = await sql<{ id: string }>`select id from runs where parent_order_id = ${orderId}`.execute(h.db);
    const failed = rows[0]!.id;
    await sql`update runs set status = 'failed', error_code = 'provider_unavailable' where id = ${failed}`.execute(h.db);
    const taken = freshId();
    await insertRun(h.db, row(taken, 'taken'));
    const other = freshId();
    const draws = [taken, other];
    const fresh = await h.db
      .transaction()
      .execute((tx) => replanFailedChildren(tx, orderId, { includeDeterministic: false }, () => draws.shift()!));
    expect(fresh).toEqual([other]);
    expect(draws).toEqual([]);
    expect((await getRunRow(h.db, failed))?.superseded_by).toBe(other);
    expect(await getRunRow(h.db, other)).toMatchObject({ status: 'planned', parent_order_id: orderId, intake: { topic: 'retried' } });
    expect((await getRunRow(h.db, taken))?.intake).toEqual({ topic: 'taken' });
  });
});

describe("a subWorkflow step's child run whose drawn id is taken", () => {
  const prepare = (parentRunId: string, childRunId: string) =>
    prepareChildRun(h.db, new ModelRegistry(LOCAL_MODELS), {
      parentRunId,
      childRunId,
      stepIndex: 0,
      step: {
        id: 'child',
        name: 'Research',
        kind: 'subWorkflow',
        templateId: researchDefinition.id,
        templateVersion: researchDefinition.version,
        intakeMapping: { topic: 'intake.topic' },
      },
      context: { intake: { topic: 'nested' }, inputs: {}, steps: {} },
    });

  it('is recorded under the next candidate, and a retry finds it there', async () => {
    const parent = freshId();
    await insertRun(h.db, row(parent, 'parent'));
    const drawn = freshId();
    await insertRun(h.db, row(drawn, 'someone else'));
    const [, next] = childRunIdCandidates(drawn);
    const first = await prepare(parent, drawn);
    expect(first.runId).toBe(next);
    expect(await getRunRow(h.db, next!)).toMatchObject({ parent_run_id: parent, intake: { topic: 'nested' } });
    expect((await getRunRow(h.db, drawn))?.intake).toEqual({ topic: 'someone else' });
    // The activity retried: the same candidates, the child found, nothing recorded again.
    expect((await prepare(parent, drawn)).runId).toBe(next);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from runs where parent_run_id = ${parent}`.execute(h.db);
    expect(rows[0]?.n).toBe(1);
  });

  it('keeps the drawn id when it is free, and fails the step when every candidate is taken', async () => {
    const parent = freshId();
    await insertRun(h.db, row(parent, 'parent'));
    const free = freshId();
    expect((await prepare(parent, free)).runId).toBe(free);
    const drawn = freshId();
    const candidates = childRunIdCandidates(drawn);
    expect(new Set(candidates).size).toBe(3);
    for (const id of candidates) await insertRun(h.db, row(id, 'taken'));
    await expect(prepare(parent, drawn)).rejects.toMatchObject({ errorCode: 'step_invalid', message: expect.stringMatching(/are taken$/) });
  });
});
