import { describe, expect, it } from 'vitest';
import { waitForRun } from '../support/harness';
import { webhookCrashRig } from '../support/webhook-crash';

/**
 * A real `atelier worker` process runs a real run and is killed with SIGKILL while its run.completed delivery
 * waits on the integrator's receiver: the event is not lost. The attempt's start-to-close timeout expires,
 * Temporal runs it again on a new worker, and the receiver gets the same webhook-id, signed afresh.
 */
const rig = webhookCrashRig();

describe('a worker killed mid-delivery of an event', () => {
  it('loses no event: the attempt runs again on another worker with the same webhook-id', async () => {
    const { h, owner } = rig;
    const url = rig.url('/hooks');
    const ep = await h.request('POST', '/v1/webhook-endpoints', { token: owner.token, body: { url, events: ['run.completed'] } });
    expect(ep.status, JSON.stringify(ep.body)).toBe(201);

    const first = rig.spawnWorker();
    const created = await h.request('POST', '/v1/runs', {
      token: owner.token,
      body: { templateId: 'plan-research-report', intake: { topic: 'crash-proof beekeeping' } },
    });
    expect(created.status).toBe(201);
    const run = await waitForRun(h, owner.token, created.body.id, undefined, 120_000);
    expect(run.status).toBe('completed');

    const deadline = Date.now() + 180_000;
    const [a, b] = await rig.killMidDelivery(first, deadline);
    expect(b.headers['webhook-id']).toBe(a.headers['webhook-id']);
    expect(b.raw).toBe(a.raw);
    expect(rig.verify(ep.body.secret, b)).toMatchObject({ type: 'run.completed', data: { id: run.id, status: 'completed' } });

    let delivered: any;
    while (delivered?.status !== 'delivered') {
      if (Date.now() > deadline) throw new Error(`message still ${delivered?.status}`);
      await new Promise((r) => setTimeout(r, 100));
      delivered = (await h.request('GET', `/v1/webhook-endpoints/${ep.body.id}/deliveries`, { token: owner.token })).body.items[0];
    }
    expect(delivered.messageId).toBe(a.headers['webhook-id']);
    // The killed attempt never reported; the one that delivered carries Temporal's attempt number.
    expect(delivered.attempts).toHaveLength(1);
    expect(delivered.attempts[0]).toMatchObject({ outcome: 'delivered', statusCode: 200 });
    expect(delivered.attempts[0].attempt).toBeGreaterThanOrEqual(2);
  }, 360_000);
});
