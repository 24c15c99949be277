import { describe, expect, it } from 'vitest';
import { outputsReadOf, workflowReadsOutput } from '../src/output-refs.js';
import type { PlannedStep, RunPlan } from '../src/run-plan.js';

const planned = (id: string, extra: Partial<PlannedStep> = {}): PlannedStep => ({
  id,
  name: id,
  kind: 'llm',
  reads: { paths: ['intake.topic'], whole: false },
  ...extra,
});
const plan = (...runtimeSteps: PlannedStep[]): RunPlan => ({
  id: 'p',
  version: '1',
  runtimeSteps,
  gates: [],
  budgetPolicy: {},
  artifactSchema: { artifactClass: 'research', artifactType: 'research-report', files: [], metadata: [] },
});

describe('which step outputs the run workflow keeps', () => {
  it('keeps none but the last of steps that only later steps read', () => {
    const p = plan(
      planned('a'),
      planned('b', { reads: { paths: ['steps.a.title'], whole: false } }),
      planned('c', { reads: { paths: [], whole: true } }),
    );
    expect(p.runtimeSteps.map((_, i) => workflowReadsOutput(p, i))).toEqual([false, false, true]);
  });

  it('keeps a gated step’s, an early artifact’s, the last step’s and every one before a sub-workflow', () => {
    const p = plan(planned('a'), planned('b', { gateId: 'qa' }), planned('c', { emitsArtifact: true }), planned('d'), planned('e'));
    expect(p.runtimeSteps.map((_, i) => workflowReadsOutput(p, i))).toEqual([false, true, true, false, true]);
    const child = plan(planned('a'), planned('b'), planned('child', { kind: 'subWorkflow' }), planned('d'), planned('e'));
    expect(child.runtimeSteps.map((_, i) => workflowReadsOutput(child, i))).toEqual([true, true, false, false, true]);
    expect(workflowReadsOutput(p, 9)).toBe(true);
  });
});

describe('the held outputs a step reads', () => {
  const held = ['a', 'b', 'c'];
  it('names those its paths name, by root or by the steps shorthand', () => {
    expect(outputsReadOf({ paths: ['intake.topic', 'steps.b.title', 'c.url'], whole: false }, held)).toEqual(['b', 'c']);
    expect(outputsReadOf({ paths: ['intake.topic', 'inputs.report', 'steps.z.x'], whole: false }, held)).toEqual([]);
  });
  it('names every held one for a step that reads anything or all steps', () => {
    expect(outputsReadOf({ paths: [], whole: true }, held)).toEqual(held);
    expect(outputsReadOf({ paths: ['steps'], whole: false }, held)).toEqual(held);
    expect(outputsReadOf({ paths: [], whole: true }, [])).toEqual([]);
  });
});
