import { describe, expect, it } from 'vitest';
import { type StepFallback, buildModelRegistry } from '@atelier/domain';
import { withFallbacks } from '../src/activities/steps/fallbacks.js';
import { type ExecutorDeps, StepFailure } from '../src/activities/steps/shared.js';
import { withCapacity } from '../src/providers/capacity.js';
import { ProviderJobPending } from '../src/providers/durable-jobs.js';
import {
  PermanentProviderError,
  type ProviderSet,
  ProviderThrottledError,
  type TextRequest,
  TransientProviderError,
} from '../src/providers/types.js';
import type { ExecuteStepInput } from '../src/run-types.js';

const models = buildModelRegistry(['openai']);
const answer = (costUsd = 0.001) => ({ text: 'ok', inputTokens: 1, outputTokens: 1, costUsd });

function textProviders(complete: (req: TextRequest) => Promise<ReturnType<typeof answer>>): ProviderSet {
  return {
    text: () => ({ complete }),
    image: () => undefined,
    video: () => undefined,
    classifier: () => undefined,
    jobs: () => undefined,
    webhooks: () => undefined,
    batches: () => undefined,
  };
}

const input = (binding: string | string[]): ExecuteStepInput => ({
  runId: 'run-1',
  stepIndex: 0,
  step: { id: 'step-1', name: 'Research', kind: 'llm', role: 'researcher' },
  context: { intake: {}, inputs: {}, steps: {} },
  bindings: { researcher: binding },
  artifact: { id: 'a', artifactClass: 'research', artifactType: 'research-report' },
});

const deps = (providers: ProviderSet, extra: Partial<ExecutorDeps> = {}) => ({ models, providers, ...extra }) as unknown as ExecutorDeps;

/** Calls each model's text provider once, as an llm step would. */
const ask = (i: ExecuteStepInput, d: ExecutorDeps, signal = new AbortController().signal) =>
  withFallbacks(i, 'researcher', d, signal, (model, scoped) =>
    scoped.providers.text(model.provider)!.complete({ model, prompt: 'p', seed: 'step-1#1' }),
  );

describe('the fallback loop', () => {
  it('moves to the next model on each failure that means unavailable, in order, and keys fallbacks apart', async () => {
    const seen: TextRequest[] = [];
    const failures = [
      new TransientProviderError('kept failing'),
      new PermanentProviderError('404: no such model', 404),
      new ProviderThrottledError('429'),
    ];
    const d = deps(
      textProviders(async (req) => {
        seen.push(req);
        const failure = failures.shift();
        if (failure) throw failure;
        return answer(0.002);
      }),
    );
    const done = await ask(input(['openai/gpt-4o-mini', 'openai/gpt-4o', 'openai/gpt-4o-2024-08-06', 'local/text-1']), d);
    expect(done.model.id).toBe('local/text-1');
    expect(done.fallbacks.map((f) => [f.model, f.reason])).toEqual([
      ['openai/gpt-4o-mini', 'provider_unavailable'],
      ['openai/gpt-4o', 'model_not_found'],
      ['openai/gpt-4o-2024-08-06', 'provider_throttled'],
    ]);
    // The primary keeps the key it always had (none set here); each fallback gets one of its own.
    expect(seen[0]!.idempotencyKey).toBeUndefined();
    const keys = seen.slice(1).map((r) => r.idempotencyKey);
    expect(new Set(keys).size).toBe(3);
    // Every model but the last gives up on 429s after a bounded wait; the last waits as long as it takes.
    expect(seen.slice(0, 3).every((r) => r.throttlePatienceMs === 30_000)).toBe(true);
    expect(seen[3]!.throttlePatienceMs).toBeUndefined();
  });

  it('a single-model binding calls as before: no patience limit, no key of its own, and the failure as it was', async () => {
    const seen: TextRequest[] = [];
    const refused = new PermanentProviderError('404: no such model', 404);
    const d = deps(
      textProviders(async (req) => {
        seen.push(req);
        throw refused;
      }),
    );
    await expect(ask(input('openai/gpt-4o-mini'), d)).rejects.toBe(refused);
    expect(seen[0]).not.toHaveProperty('throttlePatienceMs');
    expect(seen[0]).not.toHaveProperty('idempotencyKey');
  });

  it('fails at once on a refused request, carrying the models skipped before it', async () => {
    let calls = 0;
    const d = deps(
      textProviders(async () => {
        calls++;
        if (calls === 1) throw new TransientProviderError('down');
        throw new PermanentProviderError('400: content policy', 400);
      }),
    );
    const err = await ask(input(['openai/gpt-4o-mini', 'openai/gpt-4o', 'local/text-1']), d).catch((e) => e);
    expect(err).toBeInstanceOf(StepFailure);
    expect(err).toMatchObject({ errorCode: 'provider_refused', fallbacks: [{ model: 'openai/gpt-4o-mini' }] });
    expect(calls).toBe(2);
  });

  it('does not fall back once the step is cancelled', async () => {
    const controller = new AbortController();
    const down = new TransientProviderError('aborted');
    const d = deps(
      textProviders(async () => {
        controller.abort();
        throw down;
      }),
    );
    await expect(ask(input(['openai/gpt-4o-mini', 'local/text-1']), d, controller.signal)).rejects.toBe(down);
  });

  it("checks the run's per-run cap before a fallback and fails the step with the budget's error code", async () => {
    let calls = 0;
    const d = deps(
      textProviders(async () => {
        calls++;
        throw new TransientProviderError('down');
      }),
      { runBudget: async () => ({ capUsd: 0.01, spentUsd: 0.005 }) },
    );
    const err = await ask(input(['openai/gpt-4o-mini', 'openai/gpt-4o']), d).catch((e) => e);
    expect(err).toBeInstanceOf(StepFailure);
    expect(err).toMatchObject({ errorCode: 'budget_gate_exceeded', fallbacks: [{ model: 'openai/gpt-4o-mini' }] });
    expect(calls).toBe(1);
    // A cheaper fallback within the cap goes ahead.
    const cheap = deps(
      textProviders(async (req) => {
        if (req.model.id === 'openai/gpt-4o') throw new TransientProviderError('down');
        return answer();
      }),
      { runBudget: async () => ({ capUsd: 0.01, spentUsd: 0.005 }) },
    );
    expect((await ask(input(['openai/gpt-4o', 'openai/gpt-4o-mini']), cheap)).model.id).toBe('openai/gpt-4o-mini');
  });

  it('hands the skipped models to a pending job, and a resumed step does not ask them again', async () => {
    const pending = new ProviderJobPending({ provider: 'openai', jobId: 'job-1' });
    let calls = 0;
    const first = deps(
      textProviders(async () => {
        calls++;
        if (calls === 1) throw new TransientProviderError('down');
        throw pending;
      }),
    );
    await expect(ask(input(['openai/gpt-4o-mini', 'openai/gpt-4o']), first)).rejects.toBe(pending);
    expect(pending.fallbacks).toMatchObject([{ model: 'openai/gpt-4o-mini', reason: 'provider_unavailable' }]);
    const asked: string[] = [];
    const resumed = deps(
      textProviders(async (req) => {
        asked.push(req.model.id);
        return answer();
      }),
      { earlierFallbacks: pending.fallbacks as StepFallback[] },
    );
    const done = await ask(input(['openai/gpt-4o-mini', 'openai/gpt-4o']), resumed);
    expect(asked).toEqual(['openai/gpt-4o']);
    expect(done.fallbacks).toMatchObject([{ model: 'openai/gpt-4o-mini' }]);
  });
});

describe('429s with somewhere else to go', () => {
  const model = models.get('openai/gpt-4o-mini')!;
  it('are waited out only as long as the request allows, then handed back', async () => {
    let calls = 0;
    const held = withCapacity(
      textProviders(async () => {
        calls++;
        throw new ProviderThrottledError('429: slow down', 200);
      }),
      { limits: {} },
    );
    const started = performance.now();
    const err = await held
      .text('openai')!
      .complete({ model, prompt: 'x', seed: 's', throttlePatienceMs: 500 })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ProviderThrottledError);
    // Two waits of 200 ms fit in 500; a third would not.
    expect(calls).toBe(3);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
