import { generateKeyPairSync } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MODEL_CATALOG, buildModelRegistry } from '@atelier/domain';
import { createFalProvider, falProvider } from '../src/providers/fal/index.js';
import { renderLocalClip } from '../src/providers/local/video.js';
import {
  type GeneratedImage,
  type GeneratedVideo,
  type ImageRequest,
  type JobProgress,
  PermanentProviderError,
  ProviderThrottledError,
  TransientProviderError,
  type VideoRequest,
} from '../src/providers/types.js';
import { type FalLoopback, type Finished, startFalLoopback } from './support/fal-loopback.js';

const KEY = 'fal-key-0123456789abcdef';
const model = (id: string) => MODEL_CATALOG.fal!.find((m) => m.id === id)!;
const dev = model('fal/fal-ai/flux/dev');
const kling = model('fal/fal-ai/kling-video/v2.5-turbo/pro/text-to-video');

let server: FalLoopback;
let png: Buffer;
let clip: Buffer;
let finish: (request: { input: any; endpoint: string }) => Finished;

beforeAll(async () => {
  png = await sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .png()
    .toBuffer();
  clip = await renderLocalClip({ prompt: 'a fox', seed: 's', width: 160, height: 90, fps: 12, durationSeconds: 5, generateAudio: false });
  server = await startFalLoopback({ key: KEY, finish: (r) => finish(r) });
});
afterAll(() => server?.close());
beforeEach(() => {
  server.received.length = 0;
  server.script.length = 0;
  server.pendingChecks = 1;
  finish = (r) =>
    r.endpoint.includes('video')
      ? { kind: 'video', bytes: clip }
      : { kind: 'image', bytes: png, width: r.input.image_size.width, height: r.input.image_size.height };
});

const provider = (extra: Record<string, unknown> = {}) =>
  createFalProvider({ apiKey: KEY, queueUrl: server.queueUrl, jwksUrl: server.jwksUrl, maxAttempts: 3, ...extra });

const imageRequest = (extra: Partial<ImageRequest> = {}): ImageRequest => ({
  model: dev,
  prompt: 'a red fox in the snow',
  width: 1024,
  height: 1024,
  seed: 'step-2:run-1',
  transparentBackground: false,
  ...extra,
});
const videoRequest = (extra: Partial<VideoRequest> = {}): VideoRequest => ({
  model: kling,
  prompt: 'a fox running',
  width: 640,
  height: 360,
  fps: 24,
  durationSeconds: 4,
  generateAudio: false,
  seed: 'step-2:run-1',
  ...extra,
});

async function untilEnd<T>(check: () => Promise<JobProgress<T>>): Promise<{ progress: JobProgress<T>; checks: number }> {
  for (let checks = 1; ; checks++) {
    const progress = await check();
    if (progress.state !== 'pending') return { progress, checks };
  }
}

const neverTheKey = (err: unknown) => expect(String((err as Error).message)).not.toContain(KEY);

describe('the fal provider against a loopback queue', () => {
  it('submits an image to the endpoint, checks the app by request id, downloads the result and prices it per megapixel', async () => {
    const jobs = provider().imageJobs!;
    const { jobId } = await jobs.submit({ ...imageRequest(), webhookUrl: 'https://atelier.example/v1/provider-webhooks/fal' });
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
    const submit = server.received[0]!;
    expect(submit).toMatchObject({ method: 'POST', path: '/fal-ai/flux/dev', authorization: `Key ${KEY}` });
    expect(submit.query.get('fal_webhook')).toBe('https://atelier.example/v1/provider-webhooks/fal');
    expect(submit.body).toEqual({
      prompt: 'a red fox in the snow',
      image_size: { width: 1024, height: 1024 },
      num_images: 1,
      seed: expect.any(Number),
      output_format: 'png',
      enable_safety_checker: true,
    });

    const first = await jobs.check(imageRequest(), jobId);
    expect(first).toEqual({ state: 'pending' });
    const second = (await jobs.check(imageRequest(), jobId)) as Extract<JobProgress<GeneratedImage>, { state: 'succeeded' }>;
    expect(second.state).toBe('succeeded');
    expect(second.result).toMatchObject({ mimeType: 'image/png', nativeTransparency: false, costUsd: 0.025 });
    expect(second.result.bytes.equals(png)).toBe(true);
    expect(server.received.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /fal-ai/flux/dev',
      `GET /fal-ai/flux/requests/${jobId}/status`,
      `GET /fal-ai/flux/requests/${jobId}/status`,
      `GET /fal-ai/flux/requests/${jobId}`,
      `GET /files/${jobId}.png`,
    ]);
    // The key goes to the queue API only, never to the media host.
    expect(server.received.at(-1)!.authorization).toBeUndefined();
  });

  it('bills a larger image by its megapixels rounded up, and asks the same seed again for the same call', async () => {
    const jobs = provider().imageJobs!;
    const req = imageRequest({ width: 1536, height: 1024 });
    const { jobId } = await jobs.submit(req);
    await jobs.submit(req);
    const [a, b] = server.received.filter((r) => r.method === 'POST');
    expect(a!.body.seed).toBe(b!.body.seed);
    const { progress } = await untilEnd(() => jobs.check(req, jobId));
    // 1536 × 1024 is 1.5 fal megapixels, billed as 2 at 0.025 USD.
    expect(progress).toMatchObject({ state: 'succeeded', result: { costUsd: 0.05 } });
  });

  it('resumes a job from its id alone, in a provider made afresh (as after a restart)', async () => {
    const { jobId } = await provider().imageJobs!.submit(imageRequest());
    const { progress } = await untilEnd(() => provider().imageJobs!.check(imageRequest(), jobId));
    expect(progress.state).toBe('succeeded');
  });

  it("renders a video at the endpoint's nearest accepted duration and prices the seconds of the clip it delivered", async () => {
    const jobs = provider().videoJobs!;
    const { jobId } = await jobs.submit(videoRequest());
    expect(server.received[0]).toMatchObject({
      path: '/fal-ai/kling-video/v2.5-turbo/pro/text-to-video',
      body: { prompt: 'a fox running', duration: '5', aspect_ratio: '16:9' },
    });
    const { progress, checks } = await untilEnd(() => jobs.check(videoRequest(), jobId));
    expect(checks).toBe(2);
    const done = progress as Extract<JobProgress<GeneratedVideo>, { state: 'succeeded' }>;
    // The clip is 5 s long: 5 × 0.07 USD.
    expect(done.result).toMatchObject({ mimeType: 'video/mp4', costUsd: 0.35 });
    expect(done.result.bytes.equals(clip)).toBe(true);
    expect(server.received.some((r) => r.path === `/fal-ai/kling-video/requests/${jobId}/status`)).toBe(true);
  });

  it("fails a request the model refused with fal's validation message, as permanent", async () => {
    finish = () => ({
      kind: 'error',
      status: 422,
      body: {
        detail: [{ loc: ['body', 'prompt'], msg: 'The prompt was flagged by the content checker', type: 'content_policy_violation' }],
      },
    });
    const jobs = provider().imageJobs!;
    const { jobId } = await jobs.submit(imageRequest());
    const { progress } = await untilEnd(() => jobs.check(imageRequest(), jobId));
    expect(progress.state).toBe('failed');
    const error = (progress as { error: Error }).error;
    expect(error).toBeInstanceOf(PermanentProviderError);
    expect(error.message).toMatch(/422: prompt: The prompt was flagged by the content checker/);
    neverTheKey(error);
  });

  it("fails a request that ended in fal's own error at once, as transient, without asking for it again", async () => {
    finish = () => ({ kind: 'error', status: 504, body: { detail: 'Request timed out', error_type: 'request_timeout' } });
    const jobs = provider().imageJobs!;
    const { jobId } = await jobs.submit(imageRequest());
    const { progress } = await untilEnd(() => jobs.check(imageRequest(), jobId));
    expect(progress).toMatchObject({ state: 'failed', error: expect.any(TransientProviderError) });
    expect((progress as { error: Error }).error.message).toMatch(/504: Request timed out/);
    expect(server.received.filter((r) => r.path === `/fal-ai/flux/requests/${jobId}`)).toHaveLength(1);
  });

  it("fails an image fal's safety checker blacked out, as a refusal", async () => {
    finish = (r) => ({ kind: 'image', bytes: png, width: r.input.image_size.width, height: r.input.image_size.height, nsfw: true });
    const jobs = provider().imageJobs!;
    const { jobId } = await jobs.submit(imageRequest());
    const { progress } = await untilEnd(() => jobs.check(imageRequest(), jobId));
    expect(progress).toMatchObject({ state: 'failed', error: expect.any(PermanentProviderError) });
  });

  it('cancels a queued request on the app path, and takes a request already ended as nothing to stop', async () => {
    server.pendingChecks = 3;
    const jobs = provider().videoJobs!;
    const { jobId } = await jobs.submit(videoRequest());
    await jobs.cancel!({ model: videoRequest().model, jobId });
    expect(server.received.at(-1)).toMatchObject({
      method: 'PUT',
      path: `/fal-ai/kling-video/requests/${jobId}/cancel`,
      authorization: `Key ${KEY}`,
    });
    expect(server.requests.get(jobId)!.cancelled).toBe(true);

    server.pendingChecks = 0;
    const ended = await jobs.submit(videoRequest());
    await jobs.check(videoRequest(), ended.jobId);
    await expect(jobs.cancel!({ model: videoRequest().model, jobId: ended.jobId })).resolves.toBeUndefined();
  });

  it('hands a 429 back at once as back-pressure, with its Retry-After, for the capacity layer to wait out', async () => {
    server.script.push({ status: 429, headers: { 'retry-after': '2' }, body: { detail: 'Too many concurrent requests' } });
    const call = provider().imageJobs!.submit(imageRequest());
    await expect(call).rejects.toBeInstanceOf(ProviderThrottledError);
    await expect(call).rejects.toMatchObject({ retryAfterMs: 2000, status: 429 });
    expect(server.received).toHaveLength(1);
  });

  it("treats a 4xx as permanent, without retrying, and keeps fal's message but never the key", async () => {
    server.script.push({
      status: 403,
      body: { detail: 'User is locked. Reason: Exhausted balance. Top up your balance at fal.ai/dashboard/billing.' },
    });
    const call = provider().imageJobs!.submit(imageRequest());
    await expect(call).rejects.toBeInstanceOf(PermanentProviderError);
    await expect(call).rejects.toThrow(/403: User is locked. Reason: Exhausted balance/);
    expect(server.received).toHaveLength(1);

    const wrongKey = createFalProvider({ apiKey: 'fal-wrong-key-42', queueUrl: server.queueUrl, jwksUrl: server.jwksUrl });
    const refused = await wrongKey.imageJobs!.submit(imageRequest()).catch((e: Error) => e);
    expect(refused).toBeInstanceOf(PermanentProviderError);
    expect((refused as Error).message).toMatch(/401: Authentication is required/);
    expect((refused as Error).message).not.toContain('fal-wrong-key-42');
  });

  it("asks for the endpoint's longest clip past it, and answers an input the endpoint refuses with its validation detail", async () => {
    await expect(provider().videoJobs!.submit(videoRequest({ durationSeconds: 30 }))).resolves.toMatchObject({ jobId: expect.any(String) });
    expect(server.received[0]!.body.duration).toBe('10');

    const bad = await provider()
      .imageJobs!.submit(imageRequest({ prompt: '' }))
      .catch((e: Error) => e);
    expect(bad).toBeInstanceOf(PermanentProviderError);
    expect((bad as Error).message).toMatch(/422: prompt: field required/);
  });

  it('retries 5xx and gives up with a transient error after its attempts, never naming the key', async () => {
    server.script.push(
      ...Array.from({ length: 3 }, () => ({
        status: 503,
        body: { detail: 'No runner could be allocated', error_type: 'runner_scheduling_failure' },
      })),
    );
    const err = await provider()
      .imageJobs!.submit(imageRequest())
      .catch((e: Error) => e);
    expect(err).toBeInstanceOf(TransientProviderError);
    expect(err).not.toBeInstanceOf(ProviderThrottledError);
    expect((err as Error).message).toMatch(/after 3 attempts \(503: No runner could be allocated\)/);
    neverTheKey(err);
    expect(server.received).toHaveLength(3);
  });

  it('times out a hanging call and reports it as transient', async () => {
    server.script.push({ delayMs: 600 }, { delayMs: 600 });
    await expect(provider({ requestTimeoutMs: 150, maxAttempts: 2 }).imageJobs!.submit(imageRequest())).rejects.toThrow(
      /timed out after 150 ms/,
    );
  });
});

describe("fal's completion webhooks", () => {
  const delivery = async () => {
    const { jobId } = await provider().imageJobs!.submit(imageRequest());
    return { jobId, body: await server.deliveryBody(jobId) };
  };

  it('name the request of a genuine delivery', async () => {
    const { jobId, body } = await delivery();
    await expect(provider().webhooks!.verify({ headers: server.signDelivery(body, jobId), body })).resolves.toBe(jobId);
  });

  it('refuse a delivery signed with another key, a tampered body, a stale or future timestamp, or missing headers', async () => {
    const webhooks = provider().webhooks!;
    const { jobId, body } = await delivery();
    const stranger = generateKeyPairSync('ed25519').privateKey;
    await expect(webhooks.verify({ headers: server.signDelivery(body, jobId, { key: stranger }), body })).resolves.toBeUndefined();
    await expect(
      webhooks.verify({ headers: server.signDelivery(body, jobId), body: body.replace('"OK"', '"ERROR"') }),
    ).resolves.toBeUndefined();
    const now = Math.floor(Date.now() / 1000);
    await expect(webhooks.verify({ headers: server.signDelivery(body, jobId, { timestamp: now - 301 }), body })).resolves.toBeUndefined();
    await expect(webhooks.verify({ headers: server.signDelivery(body, jobId, { timestamp: now + 301 }), body })).resolves.toBeUndefined();
    const headers = server.signDelivery(body, jobId);
    headers.delete('x-fal-webhook-user-id');
    await expect(webhooks.verify({ headers, body })).resolves.toBeUndefined();
    // A signature over another request's id does not carry over to this body.
    const other = await delivery();
    await expect(webhooks.verify({ headers: server.signDelivery(body, other.jobId), body })).resolves.toBeUndefined();
  });

  it('report an unreachable key set as transient, so the delivery is answered 5xx and comes again', async () => {
    const webhooks = createFalProvider({ apiKey: KEY, queueUrl: server.queueUrl, jwksUrl: `${server.queueUrl}/no-such-jwks` }).webhooks!;
    const { jobId, body } = await delivery();
    await expect(webhooks.verify({ headers: server.signDelivery(body, jobId), body })).rejects.toBeInstanceOf(TransientProviderError);
  });
});

describe('fal settings and models', () => {
  it('is configured by FAL_KEY, with fal public URLs unless overridden', () => {
    expect(falProvider.fromSettings(() => undefined)).toBeUndefined();
    const settings: Record<string, string> = { FAL_KEY: 'k' };
    expect(falProvider.fromSettings((n) => settings[n])).toEqual({
      apiKey: 'k',
      queueUrl: 'https://queue.fal.run',
      jwksUrl: 'https://rest.fal.ai/.well-known/jwks.json',
    });
    Object.assign(settings, { FAL_QUEUE_URL: 'http://fal.internal', FAL_JWKS_URL: 'http://fal.internal/jwks', FAL_TIMEOUT_MS: '5000' });
    expect(falProvider.fromSettings((n) => settings[n])).toMatchObject({
      queueUrl: 'http://fal.internal',
      jwksUrl: 'http://fal.internal/jwks',
      requestTimeoutMs: 5000,
    });
  });

  it('lists its models, ids `fal/<endpoint id>`, only when configured', () => {
    expect(buildModelRegistry([]).get('fal/fal-ai/flux/dev')).toBeUndefined();
    const registry = buildModelRegistry(['fal']);
    expect(registry.bindingProblem('imageGenerator', 'fal/fal-ai/flux/schnell')).toBeNull();
    expect(registry.bindingProblem('videoGenerator', 'fal/fal-ai/kling-video/v2.5-turbo/pro/text-to-video')).toBeNull();
    expect(MODEL_CATALOG.fal!.every((m) => m.provider === 'fal' && m.id.startsWith('fal/fal-ai/') && !m.batch)).toBe(true);
  });
});
