import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ModelEntry, buildModelRegistry } from '@atelier/domain';
import { renderLocalClip } from '../src/providers/local/video.js';
import { createAdapters } from '../src/providers/registry.js';
import { createReplicateProvider, replicateProvider } from '../src/providers/replicate/index.js';
import type { ImageRequest, VideoRequest } from '../src/providers/types.js';
import { PermanentProviderError, ProviderThrottledError, TransientProviderError } from '../src/providers/types.js';
import { type Course, type ReplicateLoopback, startReplicateLoopback } from './support/replicate-loopback.js';

const models = buildModelRegistry(['replicate']);
const model = (id: string) => models.get(id) as ModelEntry;
const SCHNELL = 'replicate/black-forest-labs/flux-schnell';
const PRO = 'replicate/black-forest-labs/flux-1.1-pro';
const KLING = 'replicate/kwaivgi/kling-v2.5-turbo-pro';

let server: ReplicateLoopback;
let png: Buffer;
let mp4: Buffer;
let nextCourse: Course;

const imageReq = (id = SCHNELL, over: Partial<ImageRequest> = {}): ImageRequest => ({
  model: model(id),
  prompt: 'a lighthouse at dusk',
  width: 1024,
  height: 1024,
  seed: 'step-2:run-1',
  transparentBackground: false,
  ...over,
});
const videoReq = (over: Partial<VideoRequest> = {}): VideoRequest => ({
  model: model(KLING),
  prompt: 'waves on a shore',
  width: 640,
  height: 360,
  fps: 24,
  durationSeconds: 4,
  generateAudio: false,
  seed: 'step-2:run-1',
  ...over,
});
const adapter = (over: Partial<Parameters<typeof createReplicateProvider>[0]> = {}) =>
  createReplicateProvider({ baseUrl: server.baseUrl, apiToken: server.token, maxAttempts: 3, ...over });
const caught = async (p: Promise<unknown>) => p.then(() => expect.fail('expected a rejection')).catch((err: Error) => err);

beforeAll(async () => {
  png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  mp4 = await renderLocalClip({ prompt: 'waves', seed: 's', width: 160, height: 90, fps: 12, durationSeconds: 5, generateAudio: false });
  server = await startReplicateLoopback(() => nextCourse);
});
afterAll(() => server?.close());
beforeEach(() => {
  server.received.length = 0;
  server.script.length = 0;
  server.fileScript.length = 0;
  nextCourse = { pendingReads: 1, status: 'succeeded', files: [{ bytes: png, contentType: 'image/png' }] };
});

describe('replicate image predictions', () => {
  it('submit an official model by name, stay pending while processing, then download the image and price it per image', async () => {
    const jobs = adapter().imageJobs!;
    const { jobId } = await jobs.submit(imageReq());
    const create = server.received[0]!;
    expect(create).toMatchObject({
      method: 'POST',
      path: '/v1/models/black-forest-labs/flux-schnell/predictions',
      authorization: `Bearer ${server.token}`,
    });
    expect(create.body).toEqual({
      input: { prompt: 'a lighthouse at dusk', aspect_ratio: '1:1', num_outputs: 1, output_format: 'png', seed: expect.any(Number) },
    });
    expect(await jobs.check(imageReq(), jobId)).toEqual({ state: 'pending' });
    const done = await jobs.check(imageReq(), jobId);
    expect(done.state).toBe('succeeded');
    if (done.state !== 'succeeded') return;
    expect(done.result.bytes.equals(png)).toBe(true);
    expect(done.result).toMatchObject({ mimeType: 'image/png', nativeTransparency: false, costUsd: 0.003 });
    expect(server.received.map((r) => `${r.method} ${r.path}`).slice(1)).toEqual([
      `GET /v1/predictions/${jobId}`,
      `GET /v1/predictions/${jobId}`,
    ]);
    // The output host is not Replicate's API: the token does not go there.
    expect(server.downloads.at(-1)).toEqual({ path: expect.stringMatching(new RegExp(`^/files/${jobId}/`)) });
  });

  it('ask for completion by webhook only when a webhook URL is given, and price every image returned', async () => {
    nextCourse = { pendingReads: 0, status: 'succeeded', files: [png, png].map((bytes) => ({ bytes, contentType: 'image/png' })) };
    const jobs = adapter().imageJobs!;
    const { jobId } = await jobs.submit({ ...imageReq(), webhookUrl: 'https://atelier.example/v1/provider-webhooks/replicate' });
    expect(server.received[0]!.body).toMatchObject({
      webhook: 'https://atelier.example/v1/provider-webhooks/replicate',
      webhook_events_filter: ['completed'],
    });
    const done = await jobs.check(imageReq(), jobId);
    expect(done).toMatchObject({ state: 'succeeded', result: { costUsd: 0.006 } });
  });

  it('put a size that is no listed ratio as a custom size in multiples of 32, and read an output given as one URL', async () => {
    nextCourse = { pendingReads: 0, status: 'succeeded', files: [{ bytes: png, contentType: 'image/png' }], outputAsList: false };
    const jobs = adapter().imageJobs!;
    const req = imageReq(PRO, { width: 1000, height: 600 });
    const { jobId } = await jobs.submit(req);
    expect(server.received[0]).toMatchObject({ path: '/v1/models/black-forest-labs/flux-1.1-pro/predictions' });
    expect(server.received[0]!.body.input).toMatchObject({ aspect_ratio: 'custom', width: 992, height: 608 });
    expect(server.predictions.get(jobId)!.output).toBeNull();
    expect(await jobs.check(req, jobId)).toMatchObject({ state: 'succeeded', result: { costUsd: 0.04 } });
    expect(typeof server.predictions.get(jobId)!.output).toBe('string');
  });

  it('answer plain image calls by submitting and checking (the engine awaits the job)', async () => {
    const replicate = createAdapters({ replicate: { baseUrl: server.baseUrl, apiToken: server.token } }).replicate!;
    nextCourse = { pendingReads: 0, status: 'succeeded', files: [{ bytes: png, contentType: 'image/png' }] };
    const image = await replicate.image!.generate(imageReq());
    expect(image.bytes.equals(png)).toBe(true);
    expect(image.costUsd).toBe(0.003);
  });
});

describe('replicate video predictions', () => {
  it('ask Kling for the shortest clip that holds the request and price the seconds it rendered', async () => {
    nextCourse = { pendingReads: 1, status: 'succeeded', files: [{ bytes: mp4, contentType: 'video/mp4' }], outputAsList: false };
    const jobs = adapter().videoJobs!;
    const { jobId } = await jobs.submit(videoReq());
    expect(server.received[0]).toMatchObject({ path: '/v1/models/kwaivgi/kling-v2.5-turbo-pro/predictions' });
    expect(server.received[0]!.body).toEqual({ input: { prompt: 'waves on a shore', duration: 5, aspect_ratio: '16:9' } });
    expect(await jobs.check(videoReq(), jobId)).toEqual({ state: 'pending' });
    const done = await jobs.check(videoReq(), jobId);
    if (done.state !== 'succeeded') return expect.fail(`expected success, got ${done.state}`);
    expect(done.result.bytes.equals(mp4)).toBe(true);
    // Five seconds rendered (four asked for) at 0.07 USD a second.
    expect(done.result).toMatchObject({ mimeType: 'video/mp4', costUsd: 0.35 });
  });
});

describe('replicate predictions that do not succeed', () => {
  it('fail permanently with the error Replicate gives for a failed prediction', async () => {
    nextCourse = { pendingReads: 0, status: 'failed', error: 'NSFW content detected. Try running it again, or try a different prompt.' };
    const jobs = adapter().imageJobs!;
    const { jobId } = await jobs.submit(imageReq());
    const progress = await jobs.check(imageReq(), jobId);
    expect(progress.state).toBe('failed');
    if (progress.state !== 'failed') return;
    expect(progress.error).toBeInstanceOf(PermanentProviderError);
    expect(progress.error.message).toMatch(/NSFW content detected/);
  });

  it('fail transiently when Replicate says the run was interrupted', async () => {
    nextCourse = { pendingReads: 0, status: 'failed', error: 'Prediction interrupted; please retry (code: PA)' };
    const jobs = adapter().imageJobs!;
    const { jobId } = await jobs.submit(imageReq());
    const progress = await jobs.check(imageReq(), jobId);
    expect(progress.state === 'failed' && progress.error).toBeInstanceOf(TransientProviderError);
  });

  it('cancel a running prediction, which then reads as failed for good; cancelling an ended or unknown one is no error', async () => {
    nextCourse = { pendingReads: 0, status: 'processing' };
    const jobs = adapter().videoJobs!;
    const { jobId } = await jobs.submit(videoReq());
    expect(await jobs.check(videoReq(), jobId)).toEqual({ state: 'pending' });
    await jobs.cancel!({ model: videoReq().model, jobId });
    expect(server.received.at(-1)).toMatchObject({ method: 'POST', path: `/v1/predictions/${jobId}/cancel` });
    const progress = await jobs.check(videoReq(), jobId);
    expect(progress.state === 'failed' && progress.error).toBeInstanceOf(PermanentProviderError);
    expect(progress.state === 'failed' && progress.error.message).toMatch(/canceled/);
    await jobs.cancel!({ model: videoReq().model, jobId });
    await jobs.cancel!({ model: videoReq().model, jobId: 'nosuchprediction' });
  });
});

describe('replicate HTTP errors', () => {
  it('throw ProviderThrottledError with the Retry-After of a 429', async () => {
    server.script.push({
      status: 429,
      body: { detail: 'Request was throttled. Expected available in 7 seconds.' },
      headers: { 'retry-after': '7' },
    });
    const err = await caught(adapter().imageJobs!.submit(imageReq()));
    expect(err).toBeInstanceOf(ProviderThrottledError);
    expect((err as ProviderThrottledError).retryAfterMs).toBe(7000);
    expect(err.message).toMatch(/Request was throttled/);
    expect(server.received).toHaveLength(1);
  });

  it('refuse permanently, with Replicate’s own words, an input it does not validate and a model it does not have', async () => {
    const invalid = await caught(adapter().imageJobs!.submit(imageReq(SCHNELL, { prompt: '' })));
    expect(invalid).toBeInstanceOf(PermanentProviderError);
    expect(invalid.message).toMatch(/^422: Input validation failed: .*prompt is required/s);
    const unknown = await caught(
      adapter().imageJobs!.submit({ ...imageReq(), model: { ...model(SCHNELL), id: 'replicate/nobody/nothing' } }),
    );
    expect(unknown).toMatchObject({ status: 404, message: expect.stringMatching(/Not found/) });
    expect(unknown).toBeInstanceOf(PermanentProviderError);
    expect(server.received).toHaveLength(2);
  });

  it('refuse, before submitting anything, a model the registry does not price', async () => {
    const unpriced = { ...model(KLING), pricing: { currency: 'USD' as const } };
    const err = await caught(adapter().videoJobs!.submit(videoReq({ model: unpriced })));
    expect(err).toBeInstanceOf(PermanentProviderError);
    expect(err.message).toMatch(/no per_second price/);
    expect(server.received).toEqual([]);
  });

  it('refuse permanently a token Replicate does not know, without ever naming a token', async () => {
    const wrong = 'r8_wrongTokenThatMustNotLeak42';
    const err = await caught(adapter({ apiToken: wrong }).imageJobs!.submit(imageReq()));
    expect(err).toBeInstanceOf(PermanentProviderError);
    expect(err.message).toMatch(/401: Unauthenticated: You did not pass a valid authentication token/);
    expect(err.message).not.toContain(wrong);
    expect(server.received[0]!.authorization).toBe(`Bearer ${wrong}`);
  });

  it('retry 5xx and then give up as transient, never naming the token', async () => {
    const outage = { status: 503, body: { title: 'Service Unavailable', detail: 'Service temporarily unavailable', status: 503 } };
    server.script.push(outage, outage, outage);
    const err = await caught(adapter().imageJobs!.submit(imageReq()));
    expect(err).toBeInstanceOf(TransientProviderError);
    expect(err).not.toBeInstanceOf(ProviderThrottledError);
    expect(err.message).toMatch(/after 3 attempts .*Service temporarily unavailable/);
    expect(err.message).not.toContain(server.token);
    expect(server.received).toHaveLength(3);
  });

  it('wait as long as an output file’s 5xx asks in Retry-After before fetching it again', async () => {
    nextCourse = { pendingReads: 0, status: 'succeeded', files: [{ bytes: png, contentType: 'image/png' }] };
    const jobs = adapter().imageJobs!;
    const { jobId } = await jobs.submit(imageReq());
    server.fileScript.push({ status: 503, headers: { 'retry-after': '1' }, body: { detail: 'busy' } });
    const downloadsBefore = server.downloads.length;
    const started = Date.now();
    expect(await jobs.check(imageReq(), jobId)).toMatchObject({ state: 'succeeded' });
    // Without the header the first wait is at most 250 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(server.downloads.length - downloadsBefore).toBe(2);
  });

  it('recover from one 5xx on a read', async () => {
    nextCourse = { pendingReads: 0, status: 'succeeded', files: [{ bytes: png, contentType: 'image/png' }] };
    const jobs = adapter().imageJobs!;
    const { jobId } = await jobs.submit(imageReq());
    server.script.push({ status: 500, body: { title: 'Internal Server Error', detail: 'Something went wrong', status: 500 } });
    expect(await jobs.check(imageReq(), jobId)).toMatchObject({ state: 'succeeded' });
  });
});

describe('replicate webhooks', () => {
  const ended = async () => {
    nextCourse = { pendingReads: 0, status: 'succeeded', files: [{ bytes: png, contentType: 'image/png' }] };
    const jobs = adapter().imageJobs!;
    const { jobId } = await jobs.submit(imageReq());
    await jobs.check(imageReq(), jobId);
    return jobId;
  };

  it('name the prediction of a genuine delivery, fetching the signing secret once', async () => {
    const jobId = await ended();
    const webhooks = adapter().webhooks!;
    expect(await webhooks.verify(server.delivery(jobId))).toBe(jobId);
    expect(await webhooks.verify(server.delivery(jobId))).toBe(jobId);
    const secretReads = server.received.filter((r) => r.path === '/v1/webhooks/default/secret');
    expect(secretReads).toEqual([expect.objectContaining({ method: 'GET', authorization: `Bearer ${server.token}` })]);
  });

  it('use REPLICATE_WEBHOOK_SECRET without asking the API', async () => {
    const jobId = await ended();
    server.received.length = 0;
    expect(await adapter({ webhookSecret: server.webhookSecret }).webhooks!.verify(server.delivery(jobId))).toBe(jobId);
    expect(server.received).toEqual([]);
  });

  it('refuse a delivery signed with another secret, a tampered body, or a stale or missing timestamp', async () => {
    const jobId = await ended();
    const webhooks = adapter().webhooks!;
    const other = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    expect(await webhooks.verify(server.delivery(jobId, other))).toBeUndefined();
    const genuine = server.delivery(jobId);
    expect(await webhooks.verify({ ...genuine, body: genuine.body.replace(jobId, 'someotherprediction') })).toBeUndefined();
    expect(await webhooks.verify(server.delivery(jobId, undefined, new Date(Date.now() - 6 * 60_000)))).toBeUndefined();
    expect(await webhooks.verify(server.delivery(jobId, undefined, new Date(Date.now() + 6 * 60_000)))).toBeUndefined();
    const headers = new Headers(genuine.headers);
    headers.delete('webhook-timestamp');
    expect(await webhooks.verify({ headers, body: genuine.body })).toBeUndefined();
    expect(await webhooks.verify(genuine)).toBe(jobId);
  });
});

describe('replicate settings', () => {
  it('enable the provider with REPLICATE_API_TOKEN only', () => {
    const from = (values: Record<string, string>) => replicateProvider.fromSettings((name) => values[name]);
    expect(from({})).toBeUndefined();
    expect(from({ REPLICATE_BASE_URL: 'http://127.0.0.1:1' })).toBeUndefined();
    expect(from({ REPLICATE_API_TOKEN: 'r8_x' })).toEqual({ baseUrl: 'https://api.replicate.com', apiToken: 'r8_x' });
    expect(from({ REPLICATE_API_TOKEN: 'r8_x', REPLICATE_BASE_URL: 'http://127.0.0.1:1', REPLICATE_WEBHOOK_SECRET: 'whsec_abc' })).toEqual({
      baseUrl: 'http://127.0.0.1:1',
      apiToken: 'r8_x',
      webhookSecret: 'whsec_abc',
    });
  });
});
