import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModelRegistry } from '@atelier/domain';
import { type OpenAiLoopback, completion, startOpenAiLoopback } from '../../packages/engine/test/support/openai-loopback';
import { conformingValue } from '../../packages/engine/test/support/conforming-value';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';

/**
 * Every built-in workflow whose kind the openai adapter serves, end to end against its loopback: text steps
 * through chat completions (structured outputs), images through image generations at the per-image price.
 */
let h: Harness;
let user: TestUser;
let server: OpenAiLoopback;
let png: Buffer;
const MINI = 'openai/gpt-4o-mini';
const IMAGE = 'openai/gpt-image-1';
/** 2,000 input and 1,000 output tokens at 0.00015 and 0.0006 USD per 1k. */
const STEP_USD = 0.0009;

beforeAll(async () => {
  png = await sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
  server = await startOpenAiLoopback((req) => {
    if (req.path === '/v1/images/generations') return { body: { created: 1, data: [{ b64_json: png.toString('base64') }] } };
    const schema = req.body?.response_format?.json_schema?.schema;
    const content = schema ? JSON.stringify(conformingValue(schema)) : 'A prompt for a calm, well-lit picture of the subject.';
    return completion(content, { prompt_tokens: 2000, completion_tokens: 1000 });
  });
  h = await startHarness({
    providers: { openai: { baseUrl: server.baseUrl, apiKey: 'sk-loopback', maxAttempts: 2 } },
    models: buildModelRegistry(['openai']),
  });
  user = await registerUser(h);
}, 60_000);
afterAll(async () => {
  await h?.stop();
  await server?.close();
});

async function run(templateId: string, intake: Record<string, unknown>, providers: Record<string, string>) {
  const created = await h.request('POST', '/v1/runs', { token: user.token, body: { templateId, intake, providers } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return waitForRun(h, user.token, created.body.id);
}
const step = (finished: any, stepId: string) => finished.runSteps.find((s: any) => s.id === stepId);

describe('the built-in workflows on the openai provider', () => {
  it('compose an article and a brand profile with chat completions', async () => {
    const article = await run('compose-article', { topic: 'tidal energy' }, { textGenerator: MINI });
    expect(article.status, JSON.stringify(article.error)).toBe('completed');
    expect(step(article, 'step-3')).toMatchObject({ provider: 'openai', model: MINI, costActualUsd: STEP_USD });
    const profile = await run('compose-brand-profile', { name: 'Fernway', notes: 'A calm outdoor brand.' }, { textGenerator: MINI });
    expect(profile.status, JSON.stringify(profile.error)).toBe('completed');
    expect(step(profile, 'step-2')).toMatchObject({ provider: 'openai', model: MINI });
  });

  it('draw an illustration and a product shot with gpt-image-1 at its per-image price', async () => {
    const illustration = await run('generate-illustration', { subject: 'a lighthouse' }, { promptWriter: MINI, imageGenerator: IMAGE });
    expect(illustration.status, JSON.stringify(illustration.error)).toBe('completed');
    expect(illustration.runSteps[1]).toMatchObject({ kind: 'image', provider: 'openai', model: IMAGE, costActualUsd: 0.04 });
    const shot = await run('generate-product-shot', { product: 'a ceramic teapot' }, { promptWriter: MINI, imageGenerator: IMAGE });
    expect(shot.status, JSON.stringify(shot.error)).toBe('review');
    const decided = await h.request('POST', `/v1/queue/${shot.id}/decision`, {
      token: user.token,
      body: { decision: 'approve', patch: { usage: 'web' } },
    });
    expect(decided.status, JSON.stringify(decided.body)).toBeLessThan(300);
    expect((await waitForRun(h, user.token, shot.id)).status).toBe('completed');
    const generations = server.received.filter((r) => r.path === '/v1/images/generations');
    expect(generations.length).toBe(2);
    expect(generations.every((r) => r.body.model === 'gpt-image-1' && r.body.response_format === 'b64_json')).toBe(true);
  });
});
