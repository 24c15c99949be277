import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type TestUser, registerUser, startHarness } from '../support/harness';

/**
 * `Idempotency-Key` on POST /v1/runs and POST /v1/orders, against the real gateway and PostgreSQL: a retry
 * creates nothing and gets the first answer's resource, another body under the key is refused, racing
 * requests create one resource (also when a budget applies, where the run is recorded in a transaction),
 * keys are per workspace and expire after their window, and without the header nothing changes.
 */
let h: Harness;
let user: TestUser;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  user = await registerUser(h);
});
afterAll(() => h?.stop());

const RUN = { templateId: 'plan-research-report', intake: { topic: 'idempotent rivers' } };
const ORDER = {
  workflowId: 'plan-research-report',
  variationSpec: { resolver: 'list', params: { items: [{ topic: 'tides' }, { topic: 'currents' }] } },
};

const post = (path: string, body: unknown, key?: string, who: TestUser = user) =>
  h.request('POST', path, { token: who.token, body, ...(key === undefined ? {} : { headers: { 'idempotency-key': key } }) });

const runsUnder = async (key: string) =>
  (await h.db.selectFrom('runs').select('id').where('idempotency_key', '=', key).execute()).map((r) => r.id);

describe('Idempotency-Key', () => {
  it('answers a retried run creation with the run the first request created, and creates nothing', async () => {
    const key = `runs-${Date.now()}`;
    const first = await post('/v1/runs', RUN, key);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // The same body with its keys in another order is the same request.
    const again = await post('/v1/runs', { intake: RUN.intake, templateId: RUN.templateId }, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    expect(again.body).toMatchObject({ templateId: 'plan-research-report', intake: RUN.intake });
    expect(await runsUnder(key)).toEqual([first.body.id]);
  });

  it('refuses the key with another body, with 422 idempotency_key_reused', async () => {
    const key = `reused-${Date.now()}`;
    expect((await post('/v1/runs', RUN, key)).status).toBe(201);
    const other = await post('/v1/runs', { ...RUN, intake: { topic: 'something else' } }, key);
    expect(other.status).toBe(422);
    expect(other.body.detail).toMatchObject({ code: 'idempotency_key_reused', key });
    expect(await runsUnder(key)).toHaveLength(1);
  });

  it('creates one run for requests racing with one key, with or without a budget to judge them', async () => {
    const budgeted = await registerUser(h);
    const budget = await h.request('POST', '/v1/budgets', {
      token: budgeted.token,
      body: { workspaceId: budgeted.workspaceId, scope: 'workspace', period: 'month', limitUsd: 100, enforcementMode: 'hard_stop' },
    });
    expect(budget.status).toBe(201);
    for (const who of [user, budgeted]) {
      const key = `race-${who.workspaceId}-${Date.now()}`;
      const answers = await Promise.all(Array.from({ length: 12 }, () => post('/v1/runs', RUN, key, who)));
      expect(answers.map((a) => a.status)).toEqual(Array(12).fill(201));
      expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
      expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(11);
      expect(await runsUnder(key)).toEqual([answers[0]!.body.id]);
    }
  });

  it('keeps keys apart per workspace, and lets a key go once its window has passed', async () => {
    const key = `window-${Date.now()}`;
    const other = await registerUser(h);
    const mine = await post('/v1/runs', RUN, key);
    const theirs = await post('/v1/runs', RUN, key, other);
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
    // A day and an hour later the key is free again: the same request creates a new run.
    await h.db
      .updateTable('runs')
      .set({ created_at: new Date(Date.now() - 25 * 3600_000) })
      .where('id', '=', mine.body.id)
      .execute();
    const later = await post('/v1/runs', RUN, key);
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.id).not.toBe(mine.body.id);
    const old = await h.db.selectFrom('runs').select('idempotency_key').where('id', '=', mine.body.id).executeTakeFirstOrThrow();
    expect(old.idempotency_key).toBeNull();
  });

  it('leaves a create without the header as the contract says: a new run each time', async () => {
    const a = await post('/v1/runs', RUN);
    const b = await post('/v1/runs', RUN);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.id).not.toBe(b.body.id);
  });

  it('refuses a malformed key with the request-validation body', async () => {
    const res = await post('/v1/runs', RUN, 'has a space');
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['header', 'idempotency-key'] });
    const long = await post('/v1/runs', RUN, 'k'.repeat(256));
    expect(long.status).toBe(422);
  });

  it('plans an order once per key', async () => {
    const key = `order-${Date.now()}`;
    const answers = await Promise.all(Array.from({ length: 4 }, () => post('/v1/orders', ORDER, key)));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    const orders = await h.db.selectFrom('orders').select('id').where('idempotency_key', '=', key).execute();
    expect(orders).toHaveLength(1);
    const children = await h.db.selectFrom('runs').select('id').where('parent_order_id', '=', orders[0]!.id).execute();
    expect(children).toHaveLength(2);
    const other = await post('/v1/orders', { ...ORDER, targetCount: 1 }, key);
    expect(other.status).toBe(422);
    expect(other.body.detail.code).toBe('idempotency_key_reused');
  });
});
