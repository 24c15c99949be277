import { describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '@atelier/contracts/workflow-definition';
import { LOCAL_MODELS, ModelRegistry } from '../src/models.js';
import { compareVersions, isDateVersion, workflowIdProblem, workflowRuleErrors } from '../src/workflow-rules.js';

const models = new ModelRegistry(LOCAL_MODELS);
const valid: WorkflowDefinition = {
  id: 'plan-garden',
  name: 'Garden plan',
  artifactClass: 'research',
  version: '2026.11.01',
  cadence: 'on-demand',
  intakeSchema: { fields: [{ name: 'topic', type: 'string', required: true }] },
  runtimeSteps: [
    { id: 's1', name: 'Write', kind: 'llm', role: 'textGenerator', prompt: '{{intake.topic}}', gateId: 'g1' },
    { id: 's2', name: 'Shape', kind: 'code', function: 'identity' },
  ],
  gates: [{ id: 'g1', name: 'Quality', type: 'quality', inputs: [], outputs: [], unlocks: [] }],
  providers: { textGenerator: 'local/text-1', classifier: 'local/classifier-1' },
  budgetPolicy: { perRunCapUsd: 1 },
  artifactSchema: { artifactClass: 'research', artifactType: 'research-report', files: [], metadata: [] },
  outputShape: [{ artifactClass: 'research', artifactType: 'research-report' }],
};

describe('workflow ids', () => {
  it('accepts verb-noun slugs with an allowed verb only', () => {
    expect(workflowIdProblem('plan-research-report')).toBeNull();
    expect(workflowIdProblem('transcribe-audio')).toBeNull();
    expect(workflowIdProblem('create-image')).toMatch(/must start with one of the verbs/);
    expect(workflowIdProblem('make-video')).toMatch(/must start with one of the verbs/);
    expect(workflowIdProblem('assemble-pack')).toMatch(/reserved/);
    expect(workflowIdProblem('Plan_Report')).toMatch(/kebab-case/);
    expect(workflowIdProblem('generate')).toMatch(/kebab-case/);
  });
});

describe('versions', () => {
  it('are real dates, ordered, with an optional same-day suffix', () => {
    expect(isDateVersion('2026.02.30')).toBe(false);
    expect(isDateVersion('2026.11.01')).toBe(true);
    expect(isDateVersion('2026.11.01.2')).toBe(true);
    expect(isDateVersion('v1')).toBe(false);
    expect(compareVersions('2026.11.02', '2026.11.01')).toBeGreaterThan(0);
    expect(compareVersions('2026.11.01.2', '2026.11.01')).toBeGreaterThan(0);
    expect(compareVersions('2025.12.31', '2026.01.01')).toBeLessThan(0);
  });
});

describe('workflow rules before publishing', () => {
  it('pass for a valid definition', () => {
    expect(workflowRuleErrors(valid, { models })).toEqual([]);
  });

  it('report every broken rule at once', () => {
    const broken: WorkflowDefinition = {
      ...valid,
      id: 'make-garden',
      version: '2026.13.01',
      gates: [
        { id: 'g1', name: 'A', type: 'quality', inputs: [], outputs: [], unlocks: ['g9'] },
        { id: 'g1', name: 'B', type: 'safety', inputs: [], outputs: [] },
      ],
      providers: { textGenerator: 'local/image-1', painter: 'nope/model' },
      outputShape: [{ artifactClass: 'visual', artifactType: 'hologram' }],
      runtimeSteps: [
        { id: 's1', name: 'Write', kind: 'llm', role: 'researcher', gateId: 'g7' },
        { id: 's1', name: 'Code', kind: 'code' },
        { id: 's3', name: 'Tool', kind: 'tool' },
        { id: 's4', name: 'Child', kind: 'subWorkflow', templateId: 'plan-x' },
      ],
    };
    const errors = workflowRuleErrors(broken, { models });
    const expected = [
      /must start with one of the verbs/,
      /version "2026.13.01" must be date-tagged/,
      /gate id "g1" is used more than once/,
      /unlocks "g9"/,
      /hologram is not a registered artifact type/,
      /textGenerator: local\/image-1 is an image model; role textGenerator needs a text model/,
      /painter: nope\/model is not a registered model/,
      /role "researcher" has no model/,
      /gate "g7" is not a gate/,
      /step id is used more than once/,
      /a code step needs a function or an expression/,
      /a tool step needs a tool name/,
      /subWorkflow step needs templateId, templateVersion and intakeMapping/,
    ];
    for (const pattern of expected)
      expect(
        errors.some((e) => pattern.test(e)),
        String(pattern),
      ).toBe(true);
  });

  it('place gates where they can work: approval last, unlocked gates after their unlockers, a classifier for judged gates', () => {
    const misplaced: WorkflowDefinition = {
      ...valid,
      providers: { textGenerator: 'local/text-1' },
      gates: [
        { id: 'ok', name: 'Approve', type: 'approval', inputs: [], outputs: [] },
        { id: 'q', name: 'Quality', type: 'quality', inputs: [], outputs: [], unlocks: ['s'] },
        { id: 's', name: 'Safety', type: 'safety', inputs: [], outputs: [] },
      ],
      runtimeSteps: [
        { id: 's1', name: 'Safety first', kind: 'llm', role: 'textGenerator', gateId: 's' },
        { id: 's2', name: 'Approve early', kind: 'code', function: 'identity', gateId: 'ok' },
        { id: 's3', name: 'Quality late', kind: 'code', function: 'identity', gateId: 'q' },
      ],
    };
    const errors = workflowRuleErrors(misplaced, { models });
    expect(errors).toEqual([
      'quality and safety gates need a classifier: bind the role "classifier" in providers',
      'step 2 ("s2"): an approval gate ends the run in review, so it must judge the last step',
      'gate "s" is unlocked by "q", so the step it judges must come after the step "q" judges',
    ]);
  });

  it('requires a new version to sort after the previous one', () => {
    expect(workflowRuleErrors(valid, { models, previousVersion: '2026.11.01' })).toEqual([
      'version "2026.11.01" must be later than the previous version "2026.11.01"',
    ]);
  });
});
