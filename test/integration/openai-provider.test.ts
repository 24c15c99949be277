import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModelRegistry } from '@atelier/domain';
import { type OpenAiLoopback, completion, startOpenAiLoopback, conformingJson } from '../../packages/engine/test/support/openai-loopback';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';

let h: Harness;
let user: TestUser;
let server: OpenAiLoopback;

/** Answers each structured-output request with an object that fits the schema the engine sent. */
const conforming = (req: { body: any }) => completion(conformingJson(req.body), { prompt_tokens: 2000, completion_tokens: 1000 });

beforeAll(async () => {
  server = await startOpenAiLoopback(conforming);
  h = await startHarness({
    providers: { openai: { baseUrl: server.baseUrl, apiKey: 'sk-loopback', maxAttempts: 2 } },
    models: buildModelRegistry(['openai']),
  });
  user = await registerUser(h);
});
afterAll(async () => {
  await h?.stop();
  await server?.close();
});

const start = (providers: Record<string, string>) =>
  h.request('POST', '/v1/runs', {
    token: user.token,
    body: { templateId: 'plan-research-report', intake: { topic: 'remote models' }, providers },
  });

describe('runs on the openai provider', () => {
  it('complete with provider, model and cost from the usage the API reported', async () => {
    expect((await h.request('GET', '/v1/models', { token: user.token })).body.items.map((m: any) => m.id)).toContain('openai/gpt-4o-mini');
    const created = await start({ researcher: 'openai/gpt-4o-mini', textGenerator: 'openai/gpt-4o-mini' });
    expect(created.status).toBe(201);
    const run = await waitForRun(h, user.token, created.body.id);
    expect(run.status).toBe('completed');
    // 2,000 input and 1,000 output tokens at 0.00015 and 0.0006 USD per 1k.
    for (const step of run.runSteps.slice(0, 2))
      expect(step).toMatchObject({ provider: 'openai', model: 'openai/gpt-4o-mini', costActualUsd: 0.0009 });
    expect(run.totalCosts.actualUsd).toBeCloseTo(0.0018, 6);
    const calls = server.received.filter((r) => r.path === '/v1/chat/completions');
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls.every((r) => r.authorization === 'Bearer sk-loopback' && r.body.model === 'gpt-4o-mini')).toBe(true);
    const artifact = await h.request('GET', `/v1/artifacts/${run.artifactId}`, { token: user.token });
    expect(artifact.body.content.sections).toHaveLength(3);
  });

  it('fail at once, deterministically, when the API refuses the request', async () => {
    server.script.push({ status: 400, body: { error: { message: 'model not supported' } } });
    const run = await waitForRun(h, user.token, (await start({ researcher: 'openai/gpt-4o-mini' })).body.id);
    expect(run).toMatchObject({ status: 'failed', errorCode: 'provider_refused' });
    expect(run.error).toMatch(/model not supported/);
  });
});
