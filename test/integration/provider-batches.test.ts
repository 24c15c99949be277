import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_PRICE_FACTOR, buildModelRegistry } from '@atelier/domain';
import { type OpenAiLoopback, completion, conformingJson, startOpenAiLoopback } from '../../packages/engine/test/support/openai-loopback';
import { type Harness, type TestUser, registerUser, startHarness, waitForOrder, waitForRun } from '../support/harness';

/**
 * Batch mode for real: an order with `executionMode: batch` sends its children's model calls through
 * OpenAI's Batch API (a loopback that speaks it: files, batches, output files), waits for the batches
 * without a worker, reads each answer back to its child and prices it at the batch rate.
 */
let h: Harness;
let user: TestUser;
let server: OpenAiLoopback;
const USAGE = { prompt_tokens: 2000, completion_tokens: 1000 };
/** gpt-4o-mini: 2,000 input and 1,000 output tokens at 0.00015 and 0.0006 USD per 1k, halved in a batch. */
const STEP_USD = 0.0009 * BATCH_PRICE_FACTOR;

beforeAll(async () => {
  server = await startOpenAiLoopback((req) => completion(conformingJson(req.body), USAGE));
  h = await startHarness({
    worker: false,
    providers: { openai: { baseUrl: server.baseUrl, apiKey: 'sk-loopback', maxAttempts: 2 } },
    models: buildModelRegistry(['openai']),
  });
  user = await registerUser(h);
  // Steps look at a sent batch every 5 s, and are told at once when it ends; a batch collects for 1 s.
  await h.startWorker({ providerJobs: { checkAfterMs: 5_000, batchCollectMs: 1_000, batchCheckMs: 300 } });
}, 60_000);
afterAll(async () => {
  await h?.stop();
  await server?.close();
});

const OVERRIDES = { researcher: 'openai/gpt-4o-mini', textGenerator: 'openai/gpt-4o-mini' };
const chatCalls = () => server.received.filter((r) => r.path === '/v1/chat/completions').length;

describe('batch mode through the OpenAI Batch API', () => {
  it('completes a 200-child order through batches at the batch price, sending no call alone', async () => {
    const items = Array.from({ length: 200 }, (_, n) => ({ topic: `tide table ${n}` }));
    const planned = await h.request('POST', '/v1/orders', {
      token: user.token,
      body: {
        workflowId: 'plan-research-report',
        variationSpec: { resolver: 'list', params: { items } },
        executionMode: 'batch',
        providerOverrides: OVERRIDES,
      },
    });
    expect(planned.status, JSON.stringify(planned.body)).toBe(201);
    const chatBefore = chatCalls();
    expect((await h.request('POST', `/v1/orders/${planned.body.id}/start`, { token: user.token })).status).toBe(200);
    const order = await waitForOrder(
      h,
      user.token,
      planned.body.id,
      (o: any) => o.status === 'completed' || o.status === 'failed',
      240_000,
    );
    expect(order.status, JSON.stringify(order)).toBe('completed');
    expect(order.counts.succeeded).toBe(200);

    // Every model call went up in a batch: 200 children × 2 text steps, none sent on its own.
    expect(chatCalls() - chatBefore).toBe(0);
    expect(server.batches.batchedLines()).toBe(400);
    expect(server.batches.batches.size).toBeGreaterThanOrEqual(2);
    expect(server.batches.batches.size).toBeLessThan(100);
    const uploads = server.received.filter((r) => r.path === '/v1/files');
    expect(uploads.length).toBe(server.batches.batches.size);

    // Each child is billed at the batch rate, once per step, and the ledger agrees.
    const calls = await h.db.selectFrom('provider_calls').select(['cost_usd', 'run_id']).where('provider', '=', 'openai').execute();
    expect(calls).toHaveLength(400);
    expect(calls.every((c) => Math.abs(Number(c.cost_usd) - STEP_USD) < 1e-9)).toBe(true);
    expect(order.actualCostUsd).toBeCloseTo(400 * STEP_USD, 6);
  }, 300_000);

  it('sends a failed item’s call again in a later batch, by the step’s retry rules', async () => {
    let refused = 0;
    server.fallback = (req) => {
      // The first call of this run is answered 500 inside the batch (a line of OpenAI's error file).
      if (JSON.stringify(req.body).includes('lighthouse') && refused === 0) {
        refused++;
        return { status: 500, body: { error: { message: 'internal' } } };
      }
      return completion(conformingJson(req.body), USAGE);
    };
    const batchesBefore = server.batches.batches.size;
    const planned = await h.request('POST', '/v1/orders', {
      token: user.token,
      body: {
        workflowId: 'plan-research-report',
        variationSpec: { resolver: 'list', params: { items: [{ topic: 'lighthouse keepers' }] } },
        executionMode: 'batch',
        providerOverrides: OVERRIDES,
      },
    });
    await h.request('POST', `/v1/orders/${planned.body.id}/start`, { token: user.token });
    const order = await waitForOrder(
      h,
      user.token,
      planned.body.id,
      (o: any) => o.status === 'completed' || o.status === 'failed',
      120_000,
    );
    expect(order.status).toBe('completed');
    const [child] = (await h.request('GET', `/v1/runs?parentOrderId=${planned.body.id}`, { token: user.token })).body.items;
    const run = await waitForRun(h, user.token, child.id);
    expect(run.runSteps[0]).toMatchObject({ status: 'completed', attempts: 2 });
    expect(refused).toBe(1);
    // The refused call went up again in a batch of its own, then the child's second step in another.
    expect(server.batches.batches.size - batchesBefore).toBe(3);
  }, 180_000);
});
