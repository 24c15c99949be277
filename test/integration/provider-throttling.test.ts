import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModelRegistry, isTerminalRunStatus } from '@atelier/domain';
import {
  type OpenAiLoopback,
  type ReceivedRequest,
  completion,
  startOpenAiLoopback,
  conformingJson,
} from '../../packages/engine/test/support/openai-loopback';
import { type Harness, type TestUser, registerUser, startHarness } from '../support/harness';

/**
 * A provider that sheds load answers 429 to a burst, with Retry-After or without it, and no capacity is
 * configured: the calls wait and go out again, and the runs complete on their first step attempt.
 */

const SHED_MS = 6_000;
let h: Harness;
let user: TestUser;
let server: OpenAiLoopback;
let firstAt: number | undefined;
let refused = 0;

function answer(req: ReceivedRequest) {
  firstAt ??= Date.now();
  if (Date.now() - firstAt < SHED_MS) {
    refused++;
    // Every other refusal says when to come back; the rest leave it to the caller's backoff.
    return { status: 429, ...(refused % 2 ? { headers: { 'retry-after': '1' } } : {}), body: { error: { message: 'rate limit reached' } } };
  }
  return completion(conformingJson(req.body));
}

beforeAll(async () => {
  server = await startOpenAiLoopback(answer);
  // One attempt per call in the adapter: before 429s were back-pressure, each one cost the step an attempt.
  h = await startHarness({
    providers: { openai: { baseUrl: server.baseUrl, apiKey: 'sk-loopback', maxAttempts: 1 } },
    models: buildModelRegistry(['openai']),
  });
  user = await registerUser(h);
});
afterAll(async () => {
  await h?.stop();
  await server?.close();
});

describe('429 as back-pressure', () => {
  it('waits out a burst of 429s without a configured limit: every run completes, no step attempt spent', async () => {
    const created = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        h.request('POST', '/v1/runs', {
          token: user.token,
          body: {
            templateId: 'plan-research-report',
            intake: { topic: `shed ${i}` },
            providers: { researcher: 'openai/gpt-4o-mini', textGenerator: 'openai/gpt-4o-mini' },
          },
        }),
      ),
    );
    const ids = created.map((c) => c.body.id as string);
    const deadline = Date.now() + 120_000;
    let runs: Array<{ id: string; status: string }> = [];
    while (Date.now() < deadline) {
      runs = await h.db.selectFrom('runs').select(['id', 'status']).where('id', 'in', ids).execute();
      if (runs.every((r) => isTerminalRunStatus(r.status as never))) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(refused).toBeGreaterThan(10);
    expect(runs.map((r) => r.status)).toEqual(ids.map(() => 'completed'));
    const steps = await h.db.selectFrom('run_steps').select(['step_index', 'attempts']).where('run_id', 'in', ids).execute();
    expect(steps.filter((s) => s.attempts !== 1)).toEqual([]);
  }, 180_000);
});
