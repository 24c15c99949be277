import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModelRegistry } from '@atelier/domain';
import {
  type AnthropicLoopback,
  type ReceivedRequest,
  apiError,
  conformingAnswer,
  startAnthropicLoopback,
  toolUseMessage,
} from '../../packages/engine/test/support/anthropic-loopback';
import { type Harness, type TestUser, registerUser, startHarness, waitForOrder, waitForRun } from '../support/harness';

let h: Harness;
let user: TestUser;
let server: AnthropicLoopback;

const KEY = 'sk-ant-loopback';
const HAIKU = 'anthropic/claude-haiku-4-5';
const SONNET = 'anthropic/claude-sonnet-4-5';
const CLASSIFIER = 'anthropic/claude-haiku-4-5:classifier';
// Haiku 4.5 at 0.001 / 0.005 USD per 1k tokens, Sonnet 4.5 at 0.003 / 0.015.
const HAIKU_STEP = 0.007; // 2,000 in, 1,000 out
const SONNET_STEP = 0.021; // 2,000 in, 1,000 out
const VERDICT = 0.00075; // 500 in, 50 out

/** Steps get output that fits the schema the engine sent; gates get a passing verdict. */
const answer = (req: ReceivedRequest) =>
  req.body?.tool_choice?.name === 'verdict'
    ? toolUseMessage('verdict', { pass: true, reasons: [] }, { input_tokens: 500, output_tokens: 50 }, req.body.model)
    : conformingAnswer(req, { input_tokens: 2000, output_tokens: 1000 });

beforeAll(async () => {
  server = await startAnthropicLoopback(answer, KEY);
  h = await startHarness({
    providers: { anthropic: { baseUrl: server.baseUrl, apiKey: KEY, maxAttempts: 2 } },
    models: buildModelRegistry(['anthropic']),
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

const step = (finished: any, stepId: string) => finished.runSteps.find((s: any) => s.id === stepId);

describe('runs on the anthropic provider', () => {
  it('research a report with Claude, priced from the usage the Messages API reported', async () => {
    const models = (await h.request('GET', '/v1/models', { token: user.token })).body.items.map((m: any) => m.id);
    expect(models).toEqual(expect.arrayContaining([HAIKU, SONNET, CLASSIFIER]));
    expect(models.some((id: string) => id.startsWith('openai/'))).toBe(false);
    const finished = await run('plan-research-report', { topic: 'remote models' }, { researcher: HAIKU, textGenerator: HAIKU });
    expect(finished.status).toBe('completed');
    for (const id of ['step-1', 'step-2'])
      expect(step(finished, id)).toMatchObject({ provider: 'anthropic', model: HAIKU, costActualUsd: HAIKU_STEP });
    expect(finished.totalCosts.actualUsd).toBeCloseTo(2 * HAIKU_STEP, 6);
    const calls = server.received.filter((r) => r.body?.model === 'claude-haiku-4-5');
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls.every((r) => r.apiKey === KEY && r.version === '2023-06-01' && r.body.tool_choice?.name === 'step_output')).toBe(true);
    const artifact = await h.request('GET', `/v1/artifacts/${finished.artifactId}`, { token: user.token });
    expect(artifact.body.content.sections).toHaveLength(3);
  });

  // The research runs as a sub-workflow with its own bindings; the article is written on Sonnet.
  it('compose an article from a researched topic, the writing on another Claude model', async () => {
    const finished = await run('compose-article', { topic: 'durable workflows' }, { textGenerator: SONNET });
    expect(finished.status).toBe('completed');
    expect(step(finished, 'step-3')).toMatchObject({ provider: 'anthropic', model: SONNET, costActualUsd: SONNET_STEP });
    // Its own spend is the Sonnet step; its total adds what the research sub-workflow spent (on the default model).
    expect(finished.totalCosts.ownActualUsd).toBeCloseTo(SONNET_STEP, 6);
    const research = finished.runSteps.find((s: { kind: string }) => s.kind === 'subWorkflow');
    expect(research.costActualUsd).toBeGreaterThan(0);
    expect(finished.totalCosts.actualUsd).toBeCloseTo(SONNET_STEP + research.costActualUsd, 6);
    const artifact = await h.request('GET', `/v1/artifacts/${finished.artifactId}`, { token: user.token });
    expect(artifact.body.content.body).toHaveLength(3);
  });

  it('judge a brand profile and an illustration prompt with the Claude classifier', async () => {
    const profile = await run(
      'compose-brand-profile',
      { name: 'Fernway', notes: 'A calm outdoor brand.' },
      { textGenerator: HAIKU, classifier: CLASSIFIER },
    );
    expect(profile.status).toBe('completed');
    expect(step(profile, 'step-2')).toMatchObject({ provider: 'anthropic', model: HAIKU, costActualUsd: HAIKU_STEP + VERDICT });
    const illustration = await run('generate-illustration', { subject: 'a fox' }, { promptWriter: HAIKU, classifier: CLASSIFIER });
    expect(illustration.status).toBe('completed');
    expect(step(illustration, 'step-1')).toMatchObject({ provider: 'anthropic', model: HAIKU, costActualUsd: HAIKU_STEP + VERDICT });
    const verdicts = server.received.filter((r) => r.body?.tool_choice?.name === 'verdict');
    expect(verdicts.map((r) => r.body.messages[0].content.match(/against the (\w+) policy/)?.[1])).toEqual(
      expect.arrayContaining(['quality', 'safety']),
    );
  });

  it('write the prompt of a product shot that completes once approved', async () => {
    const held = await run('generate-product-shot', { product: 'a ceramic teapot' }, { promptWriter: HAIKU });
    expect(held.status, JSON.stringify(held.error)).toBe('review');
    expect(step(held, 'step-1')).toMatchObject({ provider: 'anthropic', model: HAIKU });
    const decided = await h.request('POST', `/v1/queue/${held.id}/decision`, {
      token: user.token,
      body: { decision: 'approve', patch: { usage: 'web' } },
    });
    expect(decided.status, JSON.stringify(decided.body)).toBeLessThan(300);
    expect((await waitForRun(h, user.token, held.id)).status).toBe('completed');
  });

  it('fail at once, deterministically, when the API refuses the request', async () => {
    server.script.push(apiError(400, 'invalid_request_error', 'prompt is too long: 215000 tokens > 200000 maximum'));
    const finished = await run('plan-research-report', { topic: 'too long' }, { researcher: HAIKU });
    expect(finished).toMatchObject({ status: 'failed', errorCode: 'provider_refused' });
    expect(finished.error).toMatch(/invalid_request_error: prompt is too long/);
    expect(finished.error).not.toContain(KEY);
  });
});

describe('batch mode through Anthropic Message Batches', () => {
  it('completes a batch-mode order with every call in a message batch, at half the price', async () => {
    const alone = server.received.filter((r) => r.path === '/v1/messages').length;
    const planned = await h.request('POST', '/v1/orders', {
      token: user.token,
      body: {
        workflowId: 'plan-research-report',
        variationSpec: { resolver: 'list', params: { items: Array.from({ length: 10 }, (_, n) => ({ topic: `harbour ${n}` })) } },
        executionMode: 'batch',
        providerOverrides: { researcher: HAIKU, textGenerator: HAIKU },
      },
    });
    expect(planned.status, JSON.stringify(planned.body)).toBe(201);
    await h.request('POST', `/v1/orders/${planned.body.id}/start`, { token: user.token });
    const order = await waitForOrder(
      h,
      user.token,
      planned.body.id,
      (o: any) => ['completed', 'failed', 'attention'].includes(o.status),
      120_000,
    );
    const kids = (await h.request('GET', `/v1/runs?parentOrderId=${planned.body.id}`, { token: user.token })).body.items;
    expect(order.status, JSON.stringify(kids[0]?.error ?? kids[0])).toBe('completed');
    // No call went alone: 10 children × 2 text steps, all in message batches, each custom id a call key's SHA-256.
    expect(server.received.filter((r) => r.path === '/v1/messages').length).toBe(alone);
    const requests = [...server.batches.batches.values()].flatMap((b) => b.requests);
    expect(requests).toHaveLength(20);
    expect(requests.every((r) => /^[0-9a-f]{64}$/.test(r.custom_id))).toBe(true);
    // Haiku at half price: 2,000 in and 1,000 out per call.
    expect(order.actualCostUsd).toBeCloseTo(20 * HAIKU_STEP * 0.5, 6);
  }, 180_000);
});
