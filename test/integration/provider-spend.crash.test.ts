import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModelRegistry } from '@atelier/domain';
import {
  type OpenAiLoopback,
  type ReceivedRequest,
  completion,
  startOpenAiLoopback,
  conformingJson,
  schemaProperties,
} from '../../packages/engine/test/support/openai-loopback';
import { type Harness, type TestUser, registerUser, spawnAtelierWorker, startHarness, waitForRun } from '../support/harness';
import { sampleSum } from '../support/prometheus';
import { freePort } from '@atelier/cli/stack/processes';

/**
 * A worker killed mid-step makes the step run again, calling the model again: the provider sees the same
 * Idempotency-Key for the repeated call, and every call's cost is recorded (provider_calls) although the step
 * is billed once.
 *
 * The loopback answers step 2's first call with JSON that misses the schema (charged, then retried by the
 * step) and holds its second call; the worker is killed while that second call is in flight, after the first
 * was answered and recorded. The next worker runs the step again from its first call.
 */

let h: Harness;
let user: TestUser;
let server: OpenAiLoopback;
const workers: ChildProcess[] = [];
let heldSecondCall = false;

const isStep2 = (req: ReceivedRequest) => schemaProperties(req.body).includes('sections');

function answer(req: ReceivedRequest) {
  const conforming = completion(conformingJson(req.body), { prompt_tokens: 2000, completion_tokens: 1000 });
  if (!isStep2(req)) return conforming;
  // Step 2's first call (seed #1): an answer missing the schema's fields, priced at the default usage.
  if (req.idempotencyKey?.endsWith('_231')) return completion('{"title":"only a title"}');
  if (!heldSecondCall) {
    heldSecondCall = true;
    return { ...conforming, delayMs: 30_000 };
  }
  return conforming;
}

function spawnWorker(env: Record<string, string> = {}): ChildProcess {
  const child = spawnAtelierWorker(h, 0, { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-loopback', ...env });
  workers.push(child);
  return child;
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} never happened`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  server = await startOpenAiLoopback(answer);
  h = await startHarness({ worker: false, models: buildModelRegistry(['openai']) });
  user = await registerUser(h);
});
afterAll(async () => {
  for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
  await h?.stop();
  await server?.close();
});

describe('spend from provider calls repeated after a worker died', () => {
  it('sends the repeated call with the same Idempotency-Key and records what every attempt spent', async () => {
    const first = spawnWorker();
    const created = await h.request('POST', '/v1/runs', {
      token: user.token,
      body: {
        templateId: 'plan-research-report',
        intake: { topic: 'paying twice' },
        providers: { researcher: 'openai/gpt-4o-mini', textGenerator: 'openai/gpt-4o-mini' },
      },
    });
    expect(created.status).toBe(201);
    const runId: string = created.body.id;

    // Step 2's first call was answered (and recorded); its second is held: kill the worker now.
    await until('the held call', () => heldSecondCall);
    await until('the first call recorded', async () => {
      const rows = await h.db.selectFrom('provider_calls').select('id').where('run_id', '=', runId).where('step_index', '=', 1).execute();
      return rows.length === 1;
    });
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));

    const port = await freePort();
    spawnWorker({ ATELIER_WORKER_PORT: String(port) });
    const run = await waitForRun(h, user.token, runId, undefined, 120_000);
    expect(run.status).toBe('completed');

    // The provider's view: every call keyed; the repeated calls carry the keys they had the first time.
    const sent = server.received.filter((r) => r.path === '/v1/chat/completions');
    expect(sent.every((r) => typeof r.idempotencyKey === 'string')).toBe(true);
    const k1 = `${runId}:1:step-2_231`;
    const k2 = `${runId}:1:step-2_232`;
    expect(sent.filter(isStep2).map((r) => r.idempotencyKey)).toEqual([k1, k2, k1, k2]);
    expect(sent.filter((r) => !isStep2(r)).map((r) => r.idempotencyKey)).toEqual([`${runId}:0:step-1_231`]);
    expect(new Set(sent.map((r) => r.idempotencyKey)).size).toBe(3);

    // Atelier's view: every answered call recorded with its attempt; the repeated one visible.
    const calls = await h.db
      .selectFrom('provider_calls')
      .select(['step_index', 'step_attempt', 'call_key', 'provider', 'model', 'cost_usd'])
      .where('run_id', '=', runId)
      .orderBy('id')
      .execute();
    const steps = await h.db.selectFrom('run_steps').selectAll().where('run_id', '=', runId).orderBy('step_index').execute();
    const retried = steps[1]!.attempts;
    expect(retried).toBeGreaterThanOrEqual(2);
    expect(calls.map((c) => [c.step_index, c.step_attempt, c.call_key])).toEqual([
      [0, 1, `${runId}:0:step-1_231`],
      [1, 1, k1],
      [1, retried, k1],
      [1, retried, k2],
    ]);
    expect(calls.every((c) => c.provider === 'openai' && c.model === 'openai/gpt-4o-mini')).toBe(true);
    // 1,000/500 tokens for the non-conforming answer, 2,000/1,000 for the others, at 0.00015 and 0.0006 USD per 1k.
    expect(calls.map((c) => Number(c.cost_usd))).toEqual([0.0009, 0.00045, 0.00045, 0.0009]);

    // Billed once (the last attempt's calls), paid for every call.
    const billed = steps.reduce((sum, s) => sum + Number(s.cost_actual_usd), 0);
    const spent = calls.reduce((sum, c) => sum + Number(c.cost_usd), 0);
    expect(billed).toBeCloseTo(0.0009 + 0.00045 + 0.0009, 6);
    expect(run.totalCosts.actualUsd).toBeCloseTo(billed, 6);
    expect(spent).toBeCloseTo(billed + 0.00045, 6);
    expect(spent).toBeGreaterThanOrEqual(billed);

    // What the run shows: attempts and what the providers charged per step, beside what is billed.
    expect(run.runSteps.map((s: any) => s.attempts)).toEqual([1, retried, 1]);
    expect(run.runSteps[0]).toMatchObject({ costActualUsd: 0.0009, providerSpendUsd: 0.0009 });
    expect(run.runSteps[1].costActualUsd).toBeCloseTo(0.00135, 6);
    expect(run.runSteps[1].providerSpendUsd).toBeCloseTo(0.0018, 6);
    expect(run.runSteps[2]).toMatchObject({ costActualUsd: 0, providerSpendUsd: 0 });

    // The surviving worker counted the calls it made, the repeated one included.
    const scraped = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(sampleSum(scraped, 'atelier_provider_spend_usd_total', { provider: 'openai', model: 'openai/gpt-4o-mini' })).toBeCloseTo(
      0.00045 + 0.0009,
      6,
    );
  }, 240_000);
});
