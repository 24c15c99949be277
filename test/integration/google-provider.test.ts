import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModelRegistry } from '@atelier/domain';
import { renderLocalClip } from '../../packages/engine/src/providers/local/video';
import { type GoogleLoopback, geminiAnswer, googleError, startGoogleLoopback } from '../../packages/engine/test/support/google-loopback';
import { conformingValue } from '../../packages/engine/test/support/conforming-value';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';

let h: Harness;
let user: TestUser;
let server: GoogleLoopback;

const FLASH = 'google/gemini-2.5-flash';
const IMAGEN = 'google/imagen-4.0-generate-001';
const VEO = 'google/veo-3.0-fast-generate-001';
const USAGE = { promptTokenCount: 2000, candidatesTokenCount: 800, thoughtsTokenCount: 200 };
// 2,000 input tokens at 0.0003 and 800 + 200 thinking output tokens at 0.0025 USD per 1k.
const TEXT_COST = 0.0031;

beforeAll(async () => {
  server = await startGoogleLoopback({
    apiKey: 'AIza-loopback',
    models: ['gemini-2.5-flash', 'imagen-4.0-generate-001', 'veo-3.0-fast-generate-001'],
  });
  // Each structured-output request is answered with an object that fits the schema the engine sent.
  server.text = (req) => geminiAnswer(JSON.stringify(conformingValue(req.body.generationConfig?.responseJsonSchema)), USAGE);
  server.image = {
    bytes: await sharp({ create: { width: 1024, height: 1024, channels: 3, background: { r: 200, g: 120, b: 40 } } })
      .png()
      .toBuffer(),
    mimeType: 'image/png',
  };
  // What Veo renders for a 4-second 16:9 ask: with a soundtrack, always.
  server.video = await renderLocalClip({
    prompt: 'veo',
    seed: 's',
    width: 640,
    height: 360,
    fps: 24,
    durationSeconds: 4,
    generateAudio: true,
  });
  server.pendingChecks = 1;
  h = await startHarness({
    providers: { google: { baseUrl: server.baseUrl, apiKey: 'AIza-loopback', maxAttempts: 2 } },
    models: buildModelRegistry(['google']),
  });
  user = await registerUser(h);
});
afterAll(async () => {
  await h?.stop();
  await server?.close();
});

async function run(templateId: string, intake: Record<string, unknown>, providers: Record<string, string>) {
  const created = await h.request('POST', '/v1/runs', { token: user.token, body: { templateId, intake, providers } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return waitForRun(h, user.token, created.body.id);
}

describe('runs on the google provider', () => {
  it('list the Gemini, Imagen and Veo models once the provider is configured', async () => {
    const ids = (await h.request('GET', '/v1/models', { token: user.token })).body.items.map((m: any) => m.id);
    expect(ids).toEqual(expect.arrayContaining([FLASH, IMAGEN, VEO]));
    expect(ids.some((id: string) => id.startsWith('openai/'))).toBe(false);
  });

  it('research a report and compose an article with Gemini, priced from the usage it reported', async () => {
    const report = await run('plan-research-report', { topic: 'remote models' }, { researcher: FLASH, textGenerator: FLASH });
    expect(report.status, JSON.stringify(report.error)).toBe('completed');
    for (const step of report.runSteps.slice(0, 2))
      expect(step).toMatchObject({ provider: 'google', model: FLASH, costActualUsd: TEXT_COST });
    const article = await run('compose-article', { sourceReport: report.artifactId }, { textGenerator: FLASH });
    expect(article.status, JSON.stringify(article.error)).toBe('completed');
    expect(article.runSteps.find((s: any) => s.kind === 'llm')).toMatchObject({
      provider: 'google',
      model: FLASH,
      costActualUsd: TEXT_COST,
    });
    // Text steps stream their answers: streamGenerateContent.
    const calls = server.received.filter((r) => r.path.startsWith('/v1beta/models/gemini-2.5-flash:streamGenerateContent'));
    expect(calls.length).toBeGreaterThanOrEqual(3);
    expect(calls.every((r) => r.apiKey === 'AIza-loopback' && !r.path.includes('key='))).toBe(true);
  });

  it('compose a brand profile with Gemini', async () => {
    const profile = await run('compose-brand-profile', { name: 'Fernway', notes: 'A calm outdoor brand.' }, { textGenerator: FLASH });
    expect(profile.status, JSON.stringify(profile.error)).toBe('completed');
    expect(profile.runSteps.find((s: any) => s.id === 'step-2')).toMatchObject({ provider: 'google', model: FLASH });
  });

  it('draw an illustration and a product shot with Imagen at its per-image price', async () => {
    const illustration = await run(
      'generate-illustration',
      { subject: 'a lighthouse on a cliff' },
      { promptWriter: FLASH, imageGenerator: IMAGEN },
    );
    expect(illustration.status, JSON.stringify(illustration.error)).toBe('completed');
    expect(illustration.runSteps[1]).toMatchObject({ kind: 'image', provider: 'google', model: IMAGEN, costActualUsd: 0.04 });
    const shot = await run('generate-product-shot', { product: 'a ceramic teapot' }, { promptWriter: FLASH, imageGenerator: IMAGEN });
    // The product shot holds for a person's approval; approved, it completes.
    expect(shot.status, JSON.stringify(shot.error)).toBe('review');
    expect(shot.runSteps[1]).toMatchObject({ provider: 'google', model: IMAGEN, costActualUsd: 0.04 });
    const decided = await h.request('POST', `/v1/queue/${shot.id}/decision`, {
      token: user.token,
      body: { decision: 'approve', patch: { usage: 'web' } },
    });
    expect(decided.status, JSON.stringify(decided.body)).toBeLessThan(300);
    expect((await waitForRun(h, user.token, shot.id)).status).toBe('completed');
    const predicts = server.received.filter((r) => r.path === '/v1beta/models/imagen-4.0-generate-001:predict');
    expect(predicts.map((r) => r.body.parameters)).toEqual([
      { sampleCount: 1, aspectRatio: '1:1' },
      { sampleCount: 1, aspectRatio: '1:1' },
    ]);
  });

  it('render a clip with Veo as one long-running operation, priced per second generated, passing QA', async () => {
    const before = server.submissions;
    const clip = await run(
      'generate-video-clip',
      { prompt: 'a paper boat on a pond', durationSeconds: 4 },
      { promptWriter: FLASH, videoGenerator: VEO },
    );
    expect(clip.status, JSON.stringify(clip.error)).toBe('completed');
    // 4 seconds at 0.15 USD a second (and the local quality classifier's fraction of a cent on the same step).
    expect(clip.runSteps[1]).toMatchObject({ provider: 'google', model: VEO });
    expect(clip.runSteps[1].costActualUsd).toBeCloseTo(0.6, 4);
    expect(server.submissions).toBe(before + 1);
    const artifact = (await h.request('GET', `/v1/artifacts/${clip.artifactId}`, { token: user.token })).body;
    expect(artifact).toMatchObject({
      qa: { status: 'passed' },
      content: { mimeType: 'video/mp4', width: 640, height: 360, hasAudio: false },
    });
    const operation = [...server.operations.values()].at(-1)!;
    expect(operation).toMatchObject({ model: 'veo-3.0-fast-generate-001', cancelled: false });
    expect(operation.checks).toBeGreaterThan(server.pendingChecks);
  });

  it('fail at once, deterministically, when Gemini refuses the request', async () => {
    server.script.push(googleError(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.'));
    const failed = await run('plan-research-report', { topic: 'anything' }, { researcher: FLASH });
    expect(failed).toMatchObject({ status: 'failed', errorCode: 'provider_refused' });
    expect(failed.error).toMatch(/INVALID_ARGUMENT: Request contains an invalid argument/);
    expect(failed.error).not.toContain('AIza-loopback');
  });
});
