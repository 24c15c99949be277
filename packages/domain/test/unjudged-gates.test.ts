import { describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '@atelier/contracts/workflow-definition';
import { LOCAL_MODELS, ModelRegistry } from '../src/models.js';
import { workflowRuleErrors } from '../src/workflow-rules.js';

const models = new ModelRegistry(LOCAL_MODELS);
const base: WorkflowDefinition = {
  id: 'compose-garden',
  name: 'Garden article',
  artifactClass: 'knowledge',
  version: '2026.11.01',
  cadence: 'on-demand',
  intakeSchema: {
    fields: [
      { name: 'topic', type: 'string', required: true },
      { name: 'report', type: 'artifactReference', required: false, artifactClass: 'research' },
    ],
  },
  runtimeSteps: [
    {
      id: 's1',
      name: 'Research',
      kind: 'subWorkflow',
      templateId: 'plan-research-report',
      templateVersion: '2026.11.01',
      intakeMapping: { topic: 'intake.topic' },
    },
    { id: 's2', name: 'Write', kind: 'llm', role: 'textGenerator', prompt: '{{intake.topic}}' },
  ],
  gates: [],
  providers: { textGenerator: 'local/text-1', classifier: 'local/classifier-1' },
  budgetPolicy: { perRunCapUsd: 1 },
  artifactSchema: { artifactClass: 'knowledge', artifactType: 'article', files: [], metadata: [] },
  outputShape: [{ artifactClass: 'knowledge', artifactType: 'article' }],
};
const gate = (type: 'quality' | 'safety' | 'approval' | 'budget') => ({
  id: 'g1',
  name: `A ${type} gate`,
  type,
  inputs: [],
  outputs: [],
  unlocks: [],
});
const withGateOn = (
  index: number,
  type: 'quality' | 'safety' | 'approval' | 'budget',
  patch: Record<string, unknown> = {},
): WorkflowDefinition => ({
  ...base,
  gates: [gate(type)],
  runtimeSteps: base.runtimeSteps.map((s, i) => (i === index ? { ...s, gateId: 'g1', ...patch } : s)),
});

describe('gates the engine would never judge', () => {
  it('the base definition is valid', () => {
    expect(workflowRuleErrors(base, { models })).toEqual([]);
  });

  it('refuses a quality or safety gate on a subWorkflow step', () => {
    for (const type of ['quality', 'safety'] as const) {
      const errors = workflowRuleErrors(withGateOn(0, type), { models });
      expect(errors).toEqual([
        expect.stringMatching(new RegExp(`step 1 \\("s1"\\): the ${type} gate "g1" would never be judged because it runs a sub-workflow`)),
      ]);
    }
  });

  it('refuses a quality or safety gate on a supplied step', () => {
    for (const type of ['quality', 'safety'] as const) {
      const errors = workflowRuleErrors(withGateOn(1, type, { suppliedBy: 'report' }), { models });
      expect(errors).toEqual([
        expect.stringMatching(/step 2 \("s2"\): .* would never be judged because its output is supplied by the intake field "report"/),
      ]);
    }
  });

  it('keeps accepting judged gates on executed steps, and budget gates anywhere', () => {
    expect(workflowRuleErrors(withGateOn(1, 'quality'), { models })).toEqual([]);
    expect(workflowRuleErrors(withGateOn(1, 'safety'), { models })).toEqual([]);
    expect(workflowRuleErrors(withGateOn(0, 'budget'), { models })).toEqual([]);
  });
});
