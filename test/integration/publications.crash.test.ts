import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { webhookCrashRig } from '../support/webhook-crash';

/**
 * A real `atelier worker` process killed with SIGKILL while its webhook attempt waits on the consumer: the
 * message is not lost. The attempt's start-to-close timeout expires, Temporal runs it again on a new worker,
 * and the consumer gets the same webhook-id, signed afresh.
 */
const rig = webhookCrashRig();

describe('a worker killed mid-delivery', () => {
  it('loses no message: the attempt runs again on another worker with the same webhook-id', async () => {
    const { h, owner } = rig;
    const url = rig.url('/revalidate');
    const pub = await h.request('POST', '/v1/publications', {
      token: owner.token,
      body: {
        workspaceId: owner.workspaceId,
        slug: `crash-${randomBytes(3).toString('hex')}`,
        name: 'Crash',
        revalidateUrl: url,
        sectionPath: '/c',
      },
    });
    expect(pub.status).toBe(201);
    const doc = await h.request('POST', `/v1/publications/${pub.body.id}/documents`, {
      token: owner.token,
      body: { slug: 'post', title: 'Post', body: 'x', categories: ['a'] },
    });
    const first = rig.spawnWorker();
    const published = await h.request('POST', `/v1/documents/${doc.body.id}/publish`, { token: owner.token });
    expect(published.status).toBe(200);

    const deadline = Date.now() + 90_000;
    const [a, b] = await rig.killMidDelivery(first, deadline);
    expect(a.headers['webhook-id']).toBe(published.body.messageId);
    expect(b.headers['webhook-id']).toBe(published.body.messageId);
    expect(b.raw).toBe(a.raw);
    expect(rig.verify(pub.body.secret, b)).toEqual({ publication: pub.body.slug, slug: 'post', action: 'publish', categories: ['a'] });

    let message: { status: string } | undefined;
    while (message?.status !== 'delivered') {
      if (Date.now() > deadline) throw new Error(`message still ${message?.status}`);
      await new Promise((r) => setTimeout(r, 100));
      message = await h.db.selectFrom('webhook_messages').select('status').where('id', '=', published.body.messageId).executeTakeFirst();
    }
    const deliveries = await h.request('GET', `/v1/publications/${pub.body.id}/deliveries`, { token: owner.token });
    // The killed attempt never reported; the one that delivered carries Temporal's attempt number.
    expect(deliveries.body.items).toHaveLength(1);
    expect(deliveries.body.items[0]).toMatchObject({ outcome: 'delivered', statusCode: 200, messageId: published.body.messageId });
    expect(deliveries.body.items[0].attempt).toBeGreaterThanOrEqual(2);
  }, 180_000);
});
