import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModelRegistry } from '@atelier/domain';
import { type OpenAiLoopback, completion, conformingJson, startOpenAiLoopback } from '../../packages/engine/test/support/openai-loopback';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';

/**
 * Role bindings with fallbacks, end to end: a provider that is down or does not have the model moves the
 * step to the next model of its binding, a refused request does not, and a fallback that would take the run
 * past its per-run cap fails the step instead.
 */
let h: Harness;
let server: OpenAiLoopback;

const conforming = (req: { body: any }) => completion(conformingJson(req.body), { prompt_tokens: 2000, completion_tokens: 1000 });
const chatCalls = () => server.received.filter((r) => r.path === '/v1/chat/completions');

beforeAll(async () => {
  server = await startOpenAiLoopback(conforming);
  h = await startHarness({
    providers: { openai: { baseUrl: server.baseUrl, apiKey: 'sk-loopback', maxAttempts: 1 } },
    models: buildModelRegistry(['openai']),
  });
});
afterAll(async () => {
  await h?.stop();
  await server?.close();
});

const start = (user: TestUser, providers: Record<string, string | string[]>) =>
  h.request('POST', '/v1/runs', {
    token: user.token,
    body: { templateId: 'plan-research-report', intake: { topic: 'fallbacks' }, providers },
  });

describe('a role binding with fallbacks', () => {
  it('moves to the next model when the provider is down, and records which model ran, why, and its cost', async () => {
    const user = await registerUser(h);
    const before = chatCalls().length;
    server.script.push({ status: 503, body: { error: { message: 'upstream overloaded' } } });
    const created = await start(user, { researcher: ['openai/gpt-4o-mini', 'local/text-1'] });
    expect(created.status).toBe(201);
    const run = await waitForRun(h, user.token, created.body.id);
    expect(run.status).toBe('completed');
    const [research, writing] = run.runSteps;
    expect(research).toMatchObject({ status: 'completed', provider: 'local', model: 'local/text-1' });
    expect(research.fallbacks).toEqual([
      {
        role: 'researcher',
        model: 'openai/gpt-4o-mini',
        reason: 'provider_unavailable',
        error: expect.stringMatching(/503: upstream overloaded/),
      },
    ]);
    // The cost is the model that ran: the local model's, nothing of the openai model that never answered.
    expect(research.costActualUsd).toBeGreaterThan(0);
    expect(writing.fallbacks).toBeUndefined();
    expect(run.totalCosts.actualUsd).toBeCloseTo(research.costActualUsd + writing.costActualUsd, 6);
    // The primary was asked once (the adapter's one attempt), and the step did not go back to it.
    expect(chatCalls().length - before).toBe(1);
  });

  it("moves past a model the provider does not have (404) to another of the provider's, under a call key of its own", async () => {
    const user = await registerUser(h);
    const before = chatCalls().length;
    server.script.push({ status: 404, body: { error: { message: 'The model `gpt-4o` does not exist' } } });
    const run = await waitForRun(h, user.token, (await start(user, { researcher: ['openai/gpt-4o', 'openai/gpt-4o-mini'] })).body.id);
    expect(run.status).toBe('completed');
    const [research] = run.runSteps;
    // 2,000 input and 1,000 output tokens on gpt-4o-mini: 0.0009 USD, the model that ran.
    expect(research).toMatchObject({ provider: 'openai', model: 'openai/gpt-4o-mini', costActualUsd: 0.0009 });
    expect(research.fallbacks).toMatchObject([{ role: 'researcher', model: 'openai/gpt-4o', reason: 'model_not_found' }]);
    const [first, second] = chatCalls().slice(before);
    expect(first!.body.model).toBe('gpt-4o');
    expect(second!.body.model).toBe('gpt-4o-mini');
    expect(second!.idempotencyKey).toBeDefined();
    expect(second!.idempotencyKey).not.toBe(first!.idempotencyKey);
  });

  it('does not fall back when the provider refuses the request itself (400): the step fails as it would without fallbacks', async () => {
    const user = await registerUser(h);
    const before = chatCalls().length;
    server.script.push({ status: 400, body: { error: { message: 'content policy violation' } } });
    const run = await waitForRun(h, user.token, (await start(user, { researcher: ['openai/gpt-4o-mini', 'local/text-1'] })).body.id);
    expect(run).toMatchObject({ status: 'failed', errorCode: 'provider_refused' });
    expect(run.error).toMatch(/content policy violation/);
    expect(run.runSteps[0]).toMatchObject({ status: 'failed' });
    expect(run.runSteps[0].model).not.toBe('local/text-1');
    expect(run.runSteps[0].fallbacks).toBeUndefined();
    expect(chatCalls().length - before).toBe(1);
  });

  it('never spends past a budget: a fallback whose estimate would pass the per-run cap fails the step instead', async () => {
    const user = await registerUser(h);
    const budget = await h.request('POST', '/v1/budgets', {
      token: user.token,
      body: {
        workspaceId: user.workspaceId,
        scope: 'workspace',
        period: 'month',
        limitUsd: 100,
        enforcementMode: 'hard_stop',
        perRunCapUsd: 0.005,
      },
    });
    expect(budget.status).toBe(201);
    const before = chatCalls().length;
    server.script.push({ status: 500, body: { error: { message: 'internal error' } } });
    // Priced on the primaries (about 0.0013 USD), the run is under the cap; gpt-4o's typical step (about 0.0105) is not.
    const created = await start(user, {
      researcher: ['openai/gpt-4o-mini', 'openai/gpt-4o'],
      textGenerator: 'openai/gpt-4o-mini',
    });
    expect(created.status).toBe(201);
    const run = await waitForRun(h, user.token, created.body.id);
    expect(run).toMatchObject({ status: 'failed', errorCode: 'budget_gate_exceeded' });
    expect(run.error).toMatch(/openai\/gpt-4o .*per-run cap of 0.005 USD/);
    expect(run.runSteps[0]).toMatchObject({ status: 'failed' });
    expect(run.runSteps[0].fallbacks).toMatchObject([{ model: 'openai/gpt-4o-mini', reason: 'provider_unavailable' }]);
    // gpt-4o was never asked.
    expect(
      chatCalls()
        .slice(before)
        .map((r) => r.body.model),
    ).toEqual(['gpt-4o-mini']);
  });

  it('validates every model of a list like a single binding, on runs and on drafts', async () => {
    const user = await registerUser(h);
    const wrongKind = await start(user, { researcher: ['openai/gpt-4o-mini', 'local/image-1'] });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.detail).toMatchObject({ code: 'invalid_provider_override' });
    expect(JSON.stringify(wrongKind.body.detail)).toMatch(/fallback 1: local\/image-1 is an image model/);
    const unknown = await start(user, { researcher: ['openai/gpt-4o-mini', 'nope/model'] });
    expect(unknown.status).toBe(400);
    const empty = await start(user, { researcher: [] });
    expect(empty.status).toBe(422);
    const estimate = await h.request('POST', '/v1/workflows/estimate', {
      token: user.token,
      body: {
        runtimeSteps: [{ id: 's', name: 's', kind: 'llm', role: 'researcher', prompt: 'x' }],
        providers: { researcher: ['local/text-1', 'local/video-1'] },
      },
    });
    expect(estimate.status).toBe(422);
    expect(JSON.stringify(estimate.body)).toMatch(/fallback 1: local\/video-1 is a video model/);
    const fine = await h.request('POST', '/v1/workflows/estimate', {
      token: user.token,
      body: {
        runtimeSteps: [{ id: 's', name: 's', kind: 'llm', role: 'researcher', prompt: 'x' }],
        providers: { researcher: ['local/text-1', 'openai/gpt-4o'] },
      },
    });
    expect(fine.status).toBe(200);
  });
});
