import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MODEL_CATALOG, type ModelEntry } from '@atelier/domain';
import { inScratch } from '../src/media/video/files.js';
import { probeMedia } from '../src/media/video/probe.js';
import { createGoogleProvider, googleProvider, nearestAspectRatio } from '../src/providers/google/index.js';
import { withJobsAwaited } from '../src/providers/jobs.js';
import { renderLocalClip } from '../src/providers/local/video.js';
import {
  type Adapter,
  PermanentProviderError,
  ProviderThrottledError,
  TransientProviderError,
  type VideoRequest,
} from '../src/providers/types.js';
import { type GoogleLoopback, geminiAnswer, googleError, startGoogleLoopback } from './support/google-loopback.js';

const KEY = 'AIza-loopback-secret';
const model = (id: string): ModelEntry => MODEL_CATALOG.google!.find((m) => m.id === id)!;
const flash = model('google/gemini-2.5-flash');
const imagen = model('google/imagen-4.0-generate-001');
const veo = model('google/veo-3.0-generate-001');
let server: GoogleLoopback;

beforeAll(async () => {
  server = await startGoogleLoopback({ apiKey: KEY, models: ['gemini-2.5-flash', 'imagen-4.0-generate-001', 'veo-3.0-generate-001'] });
  // Veo 3 on the Gemini API always renders a soundtrack.
  server.video = await renderLocalClip({
    prompt: 'a fox',
    seed: 's',
    width: 160,
    height: 90,
    fps: 12,
    durationSeconds: 4,
    generateAudio: true,
  });
}, 60_000);
afterAll(() => server.close());
beforeEach(() => {
  server.received.length = 0;
  server.script.length = 0;
  server.pendingChecks = 2;
});

const provider = (extra: Record<string, unknown> = {}): Adapter =>
  createGoogleProvider({ baseUrl: server.baseUrl, apiKey: KEY, maxAttempts: 3, ...extra });
const complete = (extra: Record<string, unknown> = {}) => provider(extra).text!.complete({ model: flash, prompt: 'Title this', seed: 's' });

/** Rejects with `kind`, and nowhere in the message is the key. */
async function refusal(call: Promise<unknown>, kind: new (...args: any[]) => Error): Promise<Error> {
  const err = await call.then(
    () => undefined,
    (e: Error) => e,
  );
  expect(err).toBeInstanceOf(kind);
  expect(err!.message).not.toContain(KEY);
  return err!;
}

describe('the google provider: Gemini text', () => {
  it('sends generateContent with the key in its header and a JSON schema, and prices reported usage with thinking as output', async () => {
    const schema = { type: 'object', properties: { title: { type: 'string' } } };
    server.script.push(geminiAnswer('{"title":"ok"}'));
    const answer = await provider().text!.complete({
      model: flash,
      prompt: 'Title this',
      jsonSchema: schema,
      seed: 's',
      idempotencyKey: 'k1',
    });
    // 1,000 input tokens at 0.0003 and 400 + 100 thinking output tokens at 0.0025 per 1k.
    expect(answer).toEqual({ text: '{"title":"ok"}', inputTokens: 1000, outputTokens: 500, costUsd: 0.00155 });
    const [req] = server.received;
    expect(req).toMatchObject({
      method: 'POST',
      path: '/v1beta/models/gemini-2.5-flash:generateContent',
      apiKey: KEY,
      idempotencyKey: 'k1',
    });
    expect(req!.path).not.toContain('key=');
    expect(req!.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Title this' }] }],
      generationConfig: { seed: expect.any(Number), responseMimeType: 'application/json', responseJsonSchema: schema },
    });
  });

  it('streams an answer with streamGenerateContent (SSE), handing on its pieces and answering as the whole call would', async () => {
    const whole = await complete();
    const pieces: string[] = [];
    const streamed = await provider().text!.complete({ model: flash, prompt: 'Title this', seed: 's', onDelta: (t) => pieces.push(t) });
    expect(streamed).toEqual(whole);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(whole.text);
    expect(server.received.at(-1)!.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
  });

  it('joins the answer parts and leaves out thoughts; without a schema asks for no JSON', async () => {
    server.script.push({
      body: {
        candidates: [
          { content: { parts: [{ text: 'pondering', thought: true }, { text: 'Hello, ' }, { text: 'world' }] }, finishReason: 'STOP' },
        ],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      },
    });
    expect(await complete()).toMatchObject({ text: 'Hello, world', inputTokens: 10, outputTokens: 5 });
    expect(Object.keys(server.received[0]!.body.generationConfig)).toEqual(['seed']);
  });

  it('prices an answer without usage from the prompt and answer lengths, never at nothing', async () => {
    server.script.push(geminiAnswer('{"title":"ok"}', null));
    const answer = await complete();
    expect(answer).toMatchObject({ inputTokens: 3, outputTokens: 4 });
    expect(answer.costUsd).toBeGreaterThan(0);
  });

  it('hands a 429 back at once with the RetryInfo delay Google put in the body', async () => {
    server.script.push(
      googleError(429, 'RESOURCE_EXHAUSTED', 'You exceeded your current quota.', [
        { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaMetric: 'generate_content_requests' }] },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '12s' },
      ]),
    );
    const err = await refusal(complete(), ProviderThrottledError);
    expect(err).toMatchObject({ retryAfterMs: 12_000, status: 429 });
    expect(err.message).toMatch(/RESOURCE_EXHAUSTED: You exceeded your current quota/);
    expect(server.received).toHaveLength(1);
  });

  it('takes a Retry-After header on a 429 as well', async () => {
    server.script.push({ ...googleError(429, 'RESOURCE_EXHAUSTED', 'slow down'), headers: { 'retry-after': '2' } });
    expect(await refusal(complete(), ProviderThrottledError)).toMatchObject({ retryAfterMs: 2000 });
  });

  it('retries 5xx and gives up with a transient error after its attempts', async () => {
    server.script.push(
      ...Array.from({ length: 3 }, () => googleError(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.')),
    );
    expect((await refusal(complete(), TransientProviderError)).message).toMatch(/503 UNAVAILABLE: The model is overloaded/);
    expect(server.received).toHaveLength(3);
  });

  it('gets through when a 500 or an ABORTED 409 is followed by an answer', async () => {
    server.script.push(
      googleError(500, 'INTERNAL', 'An internal error has occurred.'),
      googleError(409, 'ABORTED', 'The request was aborted.'),
      geminiAnswer('fine'),
    );
    expect((await complete()).text).toBe('fine');
    expect(server.received).toHaveLength(3);
  });

  it('treats 400, 403 and 404 as permanent, without retrying, keeping Google’s message', async () => {
    server.script.push(googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received. Unknown name "foo"'));
    expect((await refusal(complete(), PermanentProviderError)).message).toMatch(/400 INVALID_ARGUMENT: Invalid JSON payload/);
    const wrongKey = createGoogleProvider({ baseUrl: server.baseUrl, apiKey: 'AIza-wrong-key' }).text!.complete({
      model: flash,
      prompt: 'x',
      seed: 's',
    });
    await expect(wrongKey).rejects.toThrow(/API key not valid/);
    const unknown = provider().text!.complete({ model: { ...flash, id: 'google/gemini-0-nonexistent' }, prompt: 'x', seed: 's' });
    expect((await refusal(unknown, PermanentProviderError)).message).toMatch(/404 NOT_FOUND: models\/gemini-0-nonexistent is not found/);
    expect(server.received).toHaveLength(3);
  });

  it('never lets the key out in a message, even when the server echoes it', async () => {
    server.script.push(googleError(400, 'INVALID_ARGUMENT', `bad request with key ${KEY}`));
    expect((await refusal(complete(), PermanentProviderError)).message).toContain('[redacted]');
  });

  it('refuses permanently when the answer or the prompt was blocked for safety', async () => {
    server.script.push(geminiAnswer('', undefined, 'SAFETY'));
    expect((await refusal(complete(), PermanentProviderError)).message).toMatch(/finishReason SAFETY/);
    server.script.push({ body: { promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, usageMetadata: { promptTokenCount: 4 } } });
    expect((await refusal(complete(), PermanentProviderError)).message).toMatch(/blocked the prompt \(PROHIBITED_CONTENT\)/);
  });

  it('times out a hanging call and reports it as transient; a malformed 200 too', async () => {
    server.script.push({ delayMs: 600, ...geminiAnswer('late') }, { delayMs: 600, ...geminiAnswer('late') });
    await expect(complete({ textTimeoutMs: 150, maxAttempts: 2 })).rejects.toThrow(/timed out after 150 ms/);
    server.script.push({ raw: 'not json at all' });
    await refusal(complete(), TransientProviderError);
  });
});

describe('the google provider: Imagen images', () => {
  it('predicts one image at the nearest aspect ratio and prices it per image', async () => {
    server.image = { bytes: Buffer.from('fake png bytes'), mimeType: 'image/png' };
    const image = await provider().image!.generate({
      model: imagen,
      prompt: 'a fox',
      width: 1024,
      height: 1024,
      seed: 's',
      transparentBackground: true,
    });
    expect(image).toMatchObject({ mimeType: 'image/png', nativeTransparency: false, costUsd: 0.04 });
    expect(image.bytes.toString()).toBe('fake png bytes');
    expect(server.received[0]).toMatchObject({
      path: '/v1beta/models/imagen-4.0-generate-001:predict',
      apiKey: KEY,
      body: { instances: [{ prompt: 'a fox' }], parameters: { sampleCount: 1, aspectRatio: '1:1' } },
    });
  });

  it('maps any size to the nearest ratio Imagen and Veo know', () => {
    expect(nearestAspectRatio(1920, 1080)).toBe('16:9');
    expect(nearestAspectRatio(360, 640)).toBe('9:16');
    expect(nearestAspectRatio(1000, 1300)).toBe('3:4');
    expect(nearestAspectRatio(1200, 900)).toBe('4:3');
    expect(nearestAspectRatio(3000, 1000)).toBe('16:9');
  });

  it('refuses permanently when Imagen filtered every image', async () => {
    server.script.push({ body: { predictions: [{ raiFilteredReason: 'The image was filtered for safety.' }] } });
    const call = provider().image!.generate({
      model: imagen,
      prompt: 'x',
      width: 512,
      height: 512,
      seed: 's',
      transparentBackground: false,
    });
    expect((await refusal(call, PermanentProviderError)).message).toMatch(/filtered for safety/);
  });
});

const clipRequest = (extra: Partial<VideoRequest> = {}): VideoRequest => ({
  model: veo,
  prompt: 'a fox running',
  width: 640,
  height: 360,
  fps: 24,
  durationSeconds: 4,
  generateAudio: false,
  seed: 's',
  ...extra,
});

const probeBytes = (bytes: Buffer) =>
  inScratch(async (dir) => {
    const file = path.join(dir, 'clip.mp4');
    await writeFile(file, bytes);
    return probeMedia(file);
  });

describe('the google provider: Veo videos as long-running operations', () => {
  it('submits once, stays pending, then downloads the clip (the key only to the API) and prices its seconds', async () => {
    const jobs = provider().videoJobs!;
    const before = server.submissions;
    const { jobId } = await jobs.submit(clipRequest());
    expect(jobId).toMatch(/^models\/veo-3\.0-generate-001\/operations\//);
    expect(server.received[0]).toMatchObject({
      path: '/v1beta/models/veo-3.0-generate-001:predictLongRunning',
      body: { instances: [{ prompt: 'a fox running' }], parameters: { aspectRatio: '16:9', durationSeconds: 4 } },
    });
    expect(await jobs.check(clipRequest(), jobId)).toEqual({ state: 'pending' });
    expect(await jobs.check(clipRequest(), jobId)).toEqual({ state: 'pending' });
    const done = await jobs.check(clipRequest(), jobId);
    expect(server.submissions).toBe(before + 1);
    if (done.state !== 'succeeded') throw new Error(`expected a clip, got ${done.state}`);
    // 4 seconds at 0.40 USD a second; the soundtrack Veo always renders is dropped when none was asked.
    expect(done.result).toMatchObject({ mimeType: 'video/mp4', costUsd: 1.6 });
    const probe = await probeBytes(done.result.bytes);
    expect(probe).toMatchObject({ hasAudio: false, width: 160, height: 90 });
    expect(probe.durationSeconds).toBeCloseTo(4, 0);
    const [download, stored] = server.received.slice(-2);
    expect(download).toMatchObject({ host: 'api', method: 'GET', apiKey: KEY });
    expect(download!.path).toMatch(/^\/v1beta\/files\/.+:download\?alt=media$/);
    expect(stored).toMatchObject({ host: 'storage' });
    expect(stored!.apiKey).toBeUndefined();
  });

  it('answers plain video calls by awaiting the job, keeping the soundtrack when one was asked', async () => {
    server.pendingChecks = 0;
    const clip = await withJobsAwaited(provider()).video!.generate(clipRequest({ generateAudio: true }));
    expect(clip.costUsd).toBe(1.6);
    expect((await probeBytes(clip.bytes)).hasAudio).toBe(true);
  });

  it('passes the refusal of a duration or ratio Veo does not render on as permanent', async () => {
    const jobs = provider().videoJobs!;
    const odd = await refusal(jobs.submit(clipRequest({ durationSeconds: 5 })), PermanentProviderError);
    expect(odd.message).toMatch(/400 INVALID_ARGUMENT: .*durationSeconds/);
    await refusal(jobs.submit(clipRequest({ width: 480, height: 480 })), PermanentProviderError);
  });

  it('reports a failed operation by its google.rpc code: permanent for INVALID_ARGUMENT, transient for UNAVAILABLE', async () => {
    const jobs = provider().videoJobs!;
    const { jobId } = await jobs.submit(clipRequest());
    const failed = (code: number, message: string) => ({ body: { name: jobId, done: true, error: { code, message } } });
    server.script.push(failed(3, 'The prompt could not be submitted.'), failed(14, 'Service unavailable.'));
    const permanent = await jobs.check(clipRequest(), jobId);
    expect(permanent).toMatchObject({ state: 'failed', error: expect.any(PermanentProviderError) });
    expect(permanent.state === 'failed' && permanent.error.message).toMatch(/code 3.*could not be submitted/);
    expect(await jobs.check(clipRequest(), jobId)).toMatchObject({ state: 'failed', error: expect.any(TransientProviderError) });
  });

  it('refuses permanently when Veo filtered the video, and cancels an operation', async () => {
    const jobs = provider().videoJobs!;
    const { jobId } = await jobs.submit(clipRequest());
    server.script.push({
      body: {
        name: jobId,
        done: true,
        response: { generateVideoResponse: { raiMediaFilteredCount: 1, raiMediaFilteredReasons: ['Unsafe content.'] } },
      },
    });
    expect(await jobs.check(clipRequest(), jobId)).toMatchObject({
      state: 'failed',
      error: { message: 'Veo filtered the video: Unsafe content.' },
    });
    await jobs.cancel!({ model: clipRequest().model, jobId });
    expect(server.received.at(-1)).toMatchObject({ method: 'POST', path: `/v1beta/${jobId}:cancel`, apiKey: KEY });
    expect(server.operations.get(jobId)?.cancelled).toBe(true);
    // An operation Google no longer knows is no error to cancel.
    await jobs.cancel!({ model: clipRequest().model, jobId: 'models/veo-3.0-generate-001/operations/gone' });
  });

  it('refuses a job id that is not an operation name before calling anyone', async () => {
    await refusal(provider().videoJobs!.check(clipRequest(), '../../files/x?key=1'), PermanentProviderError);
    expect(server.received).toHaveLength(0);
  });
});

describe('the google provider settings', () => {
  const from = (values: Record<string, string>) => googleProvider.fromSettings((name) => values[name]);
  it('is enabled by GEMINI_API_KEY or GOOGLE_API_KEY, at Google unless a base URL is set', () => {
    expect(from({})).toBeUndefined();
    expect(from({ GEMINI_BASE_URL: 'http://x' })).toBeUndefined();
    expect(from({ GOOGLE_API_KEY: 'g' })).toEqual({ baseUrl: 'https://generativelanguage.googleapis.com', apiKey: 'g' });
    expect(from({ GEMINI_API_KEY: 'a', GOOGLE_API_KEY: 'g', GEMINI_BASE_URL: 'http://x', GEMINI_TIMEOUT_MS: '5000' })).toEqual({
      baseUrl: 'http://x',
      apiKey: 'a',
      textTimeoutMs: 5000,
    });
  });
});
