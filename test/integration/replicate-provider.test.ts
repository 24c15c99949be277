import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModelRegistry } from '@atelier/domain';
import { renderLocalClip } from '../../packages/engine/src/providers/local/video';
import { type Course, type ReplicateLoopback, startReplicateLoopback } from '../../packages/engine/test/support/replicate-loopback';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';

let h: Harness;
let user: TestUser;
let server: ReplicateLoopback;
let png: Buffer;
let clip: Buffer;

/** Each prediction stays processing for one read, then ends with a real file of the kind its model makes. */
const course = (model: string): Course =>
  model.startsWith('kwaivgi/')
    ? { pendingReads: 1, status: 'succeeded', files: [{ bytes: clip, contentType: 'video/mp4' }], outputAsList: false }
    : { pendingReads: 1, status: 'succeeded', files: [{ bytes: png, contentType: 'image/png' }] };

beforeAll(async () => {
  png = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#cc6633' } })
    .png()
    .toBuffer();
  // What Kling renders for a 5-second 16:9 request (smaller than its 1080p, to keep the test fast).
  clip = await renderLocalClip({
    prompt: 'waves',
    seed: 'kling',
    width: 640,
    height: 360,
    fps: 24,
    durationSeconds: 5,
    generateAudio: false,
  });
  server = await startReplicateLoopback(course);
  h = await startHarness({
    providers: { replicate: { baseUrl: server.baseUrl, apiToken: server.token, maxAttempts: 2 } },
    models: buildModelRegistry(['replicate']),
  });
  user = await registerUser(h);
});
afterAll(async () => {
  await h?.stop();
  await server?.close();
});

const run = async (templateId: string, intake: Record<string, unknown>, providers: Record<string, string>) => {
  const created = await h.request('POST', '/v1/runs', { token: user.token, body: { templateId, intake, providers } });
  expect(created.status).toBe(201);
  return waitForRun(h, user.token, created.body.id);
};
/** A run held at its approval gate (the product shot's client approval) is approved, as a reviewer would. */
async function approved(held: any) {
  expect(held.status).toBe('review');
  const decided = await h.request('POST', `/v1/queue/${held.id}/decision`, {
    token: user.token,
    body: { decision: 'approve', gateId: held.reviewGate.id, patch: { usage: 'web' } },
  });
  expect(decided.status, JSON.stringify(decided.body)).toBe(200);
  return waitForRun(h, user.token, held.id);
}
const predictionsOf = (path: string) => server.received.filter((r) => r.method === 'POST' && r.path === path);

describe('runs on the replicate provider', () => {
  it('list the Replicate models once the provider is configured', async () => {
    const ids = (await h.request('GET', '/v1/models', { token: user.token })).body.items.map((m: any) => m.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'replicate/black-forest-labs/flux-schnell',
        'replicate/black-forest-labs/flux-1.1-pro',
        'replicate/kwaivgi/kling-v2.5-turbo-pro',
      ]),
    );
  });

  it('complete an illustration with flux-schnell, priced per image', async () => {
    const done = await run(
      'generate-illustration',
      { subject: 'a lighthouse on a cliff' },
      { imageGenerator: 'replicate/black-forest-labs/flux-schnell' },
    );
    expect(done.status).toBe('completed');
    expect(done.runSteps[1]).toMatchObject({
      provider: 'replicate',
      model: 'replicate/black-forest-labs/flux-schnell',
      costActualUsd: 0.003,
    });
    const [create] = predictionsOf('/v1/models/black-forest-labs/flux-schnell/predictions');
    expect(create).toMatchObject({
      authorization: `Bearer ${server.token}`,
      body: { input: { aspect_ratio: '1:1', output_format: 'png' } },
    });
  });

  it('complete a product shot with flux-1.1-pro, priced per image', async () => {
    const done = await approved(
      await run('generate-product-shot', { product: 'a ceramic teapot' }, { imageGenerator: 'replicate/black-forest-labs/flux-1.1-pro' }),
    );
    expect(done.status).toBe('completed');
    expect(done.runSteps[1]).toMatchObject({
      provider: 'replicate',
      model: 'replicate/black-forest-labs/flux-1.1-pro',
      costActualUsd: 0.04,
    });
    expect(predictionsOf('/v1/models/black-forest-labs/flux-1.1-pro/predictions')).toHaveLength(1);
  });

  // Kling renders 5 or 10 seconds; a clip of another length is held for review by the clip's duration check.
  it('complete a video clip with Kling, priced per second of the clip it rendered', async () => {
    const done = await run(
      'generate-video-clip',
      { prompt: 'waves rolling in', durationSeconds: 5, aspectRatio: '16:9' },
      { videoGenerator: 'replicate/kwaivgi/kling-v2.5-turbo-pro' },
    );
    expect(done.status).toBe('completed');
    expect(done.runSteps[1]).toMatchObject({ provider: 'replicate', model: 'replicate/kwaivgi/kling-v2.5-turbo-pro' });
    // Five seconds rendered at 0.07 USD a second, plus the local quality gate's classifier call (a few millionths).
    expect(done.runSteps[1].costActualUsd).toBeCloseTo(0.35, 4);
    const [create] = predictionsOf('/v1/models/kwaivgi/kling-v2.5-turbo-pro/predictions');
    expect(create!.body.input).toMatchObject({ duration: 5, aspect_ratio: '16:9' });
    const artifact = await h.request('GET', `/v1/artifacts/${done.artifactId}`, { token: user.token });
    expect(artifact.body.content).toMatchObject({ type: 'video', width: 640, height: 360, requestedSeconds: 5 });
    expect(artifact.body.content.durationSeconds).toBeCloseTo(5, 0);
    // Output files were fetched without the token, which is for Replicate's API alone.
    expect(server.downloads.length).toBeGreaterThanOrEqual(3);
    expect(server.downloads.every((d) => d.authorization === undefined)).toBe(true);
  });
});
