import { describe, expect, it } from 'vitest';
import {
  bindingModels,
  buildModelRegistry,
  estimateDraft,
  fallbackBudgetStop,
  fallbackReason,
  primaryBindings,
  primaryModel,
  roleProblem,
  runCharacterUse,
} from '../src/index.js';

const models = buildModelRegistry(['openai']);

describe('a binding with fallbacks', () => {
  it('names its models in order, the first the primary; a plain string is a list of one', () => {
    expect(bindingModels('local/text-1')).toEqual(['local/text-1']);
    expect(bindingModels(['openai/gpt-4o', 'local/text-1'])).toEqual(['openai/gpt-4o', 'local/text-1']);
    expect(bindingModels(undefined)).toEqual([]);
    expect(primaryModel(['openai/gpt-4o', 'local/text-1'])).toBe('openai/gpt-4o');
    expect(primaryBindings({ a: ['openai/gpt-4o', 'local/text-1'], b: 'local/image-1' })).toEqual({
      a: 'openai/gpt-4o',
      b: 'local/image-1',
    });
  });

  it('is validated id by id like a single binding: registered, of the kind the role needs, each once', () => {
    expect(models.bindingProblem('researcher', 'local/text-1')).toBeNull();
    expect(models.bindingProblem('researcher', ['openai/gpt-4o-mini', 'local/text-1'])).toBeNull();
    expect(models.bindingProblem('researcher', ['openai/gpt-4o-mini', 'local/image-1'])).toMatch(
      /^fallback 1: local\/image-1 is an image model/,
    );
    expect(models.bindingProblem('researcher', ['nope/model', 'local/text-1'])).toMatch(/^primary: nope\/model is not a registered model/);
    expect(models.bindingProblem('researcher', ['local/text-1', 'local/text-1'])).toMatch(/listed more than once/);
    expect(models.bindingProblem('researcher', [])).toMatch(/empty list/);
    expect(models.bindingProblem('researcher', Array(6).fill('local/text-1'))).toMatch(/at most 5 models/);
  });

  it('is priced on its primary model', () => {
    const steps = [{ id: 's', name: 's', kind: 'llm' as const, role: 'researcher' }];
    const withList = estimateDraft(steps, { researcher: ['openai/gpt-4o-mini', 'openai/gpt-4o'] }, undefined, models);
    const primaryOnly = estimateDraft(steps, { researcher: 'openai/gpt-4o-mini' }, undefined, models);
    expect(withList.estimatedCost).toEqual(primaryOnly.estimatedCost);
    expect(roleProblem(steps[0]!, { researcher: ['local/text-1'] })).toBeUndefined();
  });

  it('sends work to every provider it lists, for the character gate', () => {
    const use = runCharacterUse({
      artifactClass: 'visual',
      bindings: { imageGenerator: ['openai/gpt-image-1', 'local/image-1'] },
      intake: {},
      on: '2026-12-01',
    });
    expect(use.providers.sort()).toEqual(['local', 'openai']);
  });
});

describe('which failures fall back', () => {
  it('a provider that is down, out of capacity or says the model is unavailable moves to the next model', () => {
    expect(fallbackReason({ kind: 'transient' })).toBe('provider_unavailable');
    expect(fallbackReason({ kind: 'transient', status: 500 })).toBe('provider_unavailable');
    expect(fallbackReason({ kind: 'refused', status: 503 })).toBe('provider_unavailable');
    expect(fallbackReason({ kind: 'refused', status: 404 })).toBe('model_not_found');
    expect(fallbackReason({ kind: 'throttled', status: 429 })).toBe('provider_throttled');
  });

  it('a refusal of the request itself does not', () => {
    for (const status of [400, 401, 403, 422, undefined]) expect(fallbackReason({ kind: 'refused', status })).toBeUndefined();
  });
});

describe('a fallback and the budget', () => {
  it('may not take the run past its per-run cap', () => {
    expect(fallbackBudgetStop('researcher', 'openai/gpt-4o', { capUsd: undefined, spentUsd: 5, estimateUsd: 5 })).toBeUndefined();
    expect(fallbackBudgetStop('researcher', 'openai/gpt-4o', { capUsd: 0.02, spentUsd: 0.005, estimateUsd: 0.015 })).toBeUndefined();
    const stop = fallbackBudgetStop('researcher', 'openai/gpt-4o', { capUsd: 0.02, spentUsd: 0.006, estimateUsd: 0.015 });
    expect(stop).toMatchObject({
      errorCode: 'budget_gate_exceeded',
      failureDetails: { reasons: ['per_run_cap_exceeded'], capUsd: 0.02, fallbackModel: 'openai/gpt-4o' },
    });
    expect(stop?.error).toMatch(/openai\/gpt-4o .*over its per-run cap of 0.02 USD/);
  });
});
