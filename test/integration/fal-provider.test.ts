import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModelRegistry } from '@atelier/domain';
import { renderLocalClip } from '../../packages/engine/src/providers/local/video';
import { type FalLoopback, type Finished, startFalLoopback } from '../../packages/engine/test/support/fal-loopback';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';

const KEY = 'fal-loopback-key';
let h: Harness;
let user: TestUser;
let server: FalLoopback;

/** What fal's endpoints deliver: a real PNG at the size asked for, a real MP4 of the duration asked for. */
async function deliver(request: { endpoint: string; input: any }): Promise<Finished> {
  if (request.endpoint.includes('video')) {
    const [width, height] =
      request.input.aspect_ratio === '9:16' ? [90, 160] : request.input.aspect_ratio === '1:1' ? [120, 120] : [160, 90];
    const seconds = Number(request.input.duration);
    return {
      kind: 'video',
      bytes: await renderLocalClip({
        prompt: request.input.prompt,
        seed: 'fal',
        width,
        height,
        fps: 12,
        durationSeconds: seconds,
        generateAudio: false,
      }),
    };
  }
  const { width, height } = request.input.image_size;
  const bytes = await sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .png()
    .toBuffer();
  return { kind: 'image', bytes, width, height };
}

beforeAll(async () => {
  server = await startFalLoopback({ key: KEY, finish: deliver });
  h = await startHarness({
    providers: { fal: { apiKey: KEY, queueUrl: server.queueUrl, jwksUrl: server.jwksUrl, maxAttempts: 2 } },
    models: buildModelRegistry(['fal']),
  });
  user = await registerUser(h);
});
afterAll(async () => {
  await h?.stop();
  await server?.close();
});

const start = (templateId: string, intake: Record<string, unknown>, providers: Record<string, string>) =>
  h.request('POST', '/v1/runs', { token: user.token, body: { templateId, intake, providers } });

const falCalls = () => server.received.filter((r) => !r.path.startsWith('/files/'));

describe('runs on the fal provider', () => {
  it('lists fal models when fal is configured', async () => {
    const ids = (await h.request('GET', '/v1/models', { token: user.token })).body.items.map((m: any) => m.id);
    expect(ids).toEqual(
      expect.arrayContaining(['fal/fal-ai/flux/schnell', 'fal/fal-ai/flux/dev', 'fal/fal-ai/kling-video/v2.5-turbo/pro/text-to-video']),
    );
  });

  it('draw an illustration through the queue, priced per megapixel', async () => {
    const created = await start('generate-illustration', { subject: 'a lighthouse' }, { imageGenerator: 'fal/fal-ai/flux/schnell' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const run = await waitForRun(h, user.token, created.body.id);
    expect(run.status, JSON.stringify(run.error)).toBe('completed');
    // 1024 × 1024 is one fal megapixel at 0.003 USD.
    expect(run.runSteps[1]).toMatchObject({
      kind: 'image',
      status: 'completed',
      provider: 'fal',
      model: 'fal/fal-ai/flux/schnell',
      costActualUsd: 0.003,
    });
    const submit = falCalls().find((r) => r.method === 'POST' && r.path === '/fal-ai/flux/schnell');
    expect(submit).toMatchObject({ authorization: `Key ${KEY}`, body: { image_size: { width: 1024, height: 1024 }, num_images: 1 } });
    expect(falCalls().every((r) => r.authorization === `Key ${KEY}`)).toBe(true);
  });

  it('make a product shot that completes once approved', async () => {
    const created = await start('generate-product-shot', { product: 'a ceramic teapot' }, { imageGenerator: 'fal/fal-ai/flux/dev' });
    const review = await waitForRun(h, user.token, created.body.id);
    expect(review.status, JSON.stringify(review.error)).toBe('review');
    expect(review.runSteps[1]).toMatchObject({ provider: 'fal', model: 'fal/fal-ai/flux/dev', costActualUsd: 0.025 });
    const decided = await h.request('POST', `/v1/queue/${created.body.id}/decision`, {
      token: user.token,
      body: { decision: 'approve', patch: { usage: 'web' }, gateId: 'client-approval' },
    });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect((await waitForRun(h, user.token, created.body.id)).status).toBe('completed');
  });

  it('render a video clip, priced by the seconds delivered', async () => {
    const created = await start(
      'generate-video-clip',
      { prompt: 'waves on a beach', durationSeconds: 5 },
      { videoGenerator: 'fal/fal-ai/kling-video/v2.5-turbo/pro/text-to-video' },
    );
    const run = await waitForRun(h, user.token, created.body.id);
    expect(run.status, JSON.stringify(run.error)).toBe('completed');
    // Kling 2.5 Turbo Pro makes 5 or 10 s clips; 5 s at 0.07 USD a second. (A length it cannot make is
    // rounded up to one it can, and the clip's QA then holds the run for review: the unit tests cover that.)
    expect(run.runSteps[1]).toMatchObject({ provider: 'fal', model: 'fal/fal-ai/kling-video/v2.5-turbo/pro/text-to-video' });
    // The step's quality gate adds the local classifier's fraction of a cent.
    expect(run.runSteps[1].costActualUsd).toBeCloseTo(0.35, 4);
    const artifact = (await h.request('GET', `/v1/artifacts/${run.artifactId}`, { token: user.token })).body;
    expect(artifact.content).toMatchObject({ mimeType: 'video/mp4', durationSeconds: 5, aspectRatio: '16:9' });
    expect(falCalls().find((r) => r.method === 'POST' && r.path.startsWith('/fal-ai/kling-video'))!.body).toMatchObject({
      duration: '5',
      aspect_ratio: '16:9',
    });
  });

  it('fail at once, deterministically, when fal refuses the request', async () => {
    server.script.push({
      status: 422,
      body: { detail: [{ loc: ['body', 'prompt'], msg: 'Prompt contains prohibited content', type: 'content_policy_violation' }] },
    });
    const run = await waitForRun(
      h,
      user.token,
      (await start('generate-illustration', { subject: 'a kite' }, { imageGenerator: 'fal/fal-ai/flux/dev' })).body.id,
    );
    expect(run).toMatchObject({ status: 'failed', errorCode: 'provider_refused' });
    expect(run.error).toMatch(/Prompt contains prohibited content/);
    expect(run.error).not.toContain(KEY);
  });
});
