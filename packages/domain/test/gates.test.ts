import { describe, expect, it } from 'vitest';
import { GATE_TYPES, STEP_KINDS, STEP_KIND_TRAITS, type Gate, type Step } from '@atelier/contracts/workflow-definition';
import {
  GATE_TYPE_RULES,
  gateHold,
  gateOf,
  gateRuleErrors,
  gateStop,
  gatesIncludeQa,
  holdingStepIndex,
  isJudgedGate,
  settledVerdict,
  verdictReadsAsked,
  kindNeedsRole,
  lockedStop,
  lockingGates,
  rejectionStop,
  requiredFieldsProblem,
  roleProblem,
} from '../src/index.js';

const gate = (id: string, type: Gate['type'], extra: Partial<Gate> = {}): Gate => ({
  id,
  name: `${id} gate`,
  type,
  inputs: [],
  outputs: [],
  ...extra,
});
const step = (id: string, extra: Partial<Step> = {}): Step => ({ id, name: id, kind: 'code', function: 'f', ...extra }) as Step;

describe('gates', () => {
  const gates = [
    gate('q', 'quality', { unlocks: ['a'] }),
    gate('s', 'safety', { unlocks: ['a'] }),
    gate('a', 'approval', { holdFields: [{ name: 'sku', type: 'string' }] }),
    gate('b', 'budget'),
  ];

  it('judges quality and safety gates in the step activity, and no other type', () => {
    expect(gates.filter(isJudgedGate).map((g) => g.id)).toEqual(['q', 's']);
    expect(isJudgedGate(undefined)).toBe(false);
  });

  it('finds a step’s gate by id', () => {
    expect(gateOf(gates, step('x', { gateId: 'b' }))?.type).toBe('budget');
    expect(gateOf(gates, step('x'))).toBeUndefined();
  });

  it('keeps a gate locked until every gate that unlocks it passed', () => {
    expect(lockingGates(gates, 'a', new Set())).toEqual(['q', 's']);
    expect(lockingGates(gates, 'a', new Set(['q']))).toEqual(['s']);
    expect(lockingGates(gates, 'a', new Set(['q', 's']))).toEqual([]);
    expect(lockedStop(gates[2]!, ['s'])).toEqual({ errorCode: 'gate_locked', error: 'gate a is judged before s unlocked it' });
  });

  it('stops a run over its per-run cap at a budget gate, and only there', () => {
    expect(gateStop(gates[3]!, { capUsd: 0.01, spentUsd: 0.01 })).toBeUndefined();
    expect(gateStop(gates[3]!, { capUsd: undefined, spentUsd: 5 })).toBeUndefined();
    for (const other of gates.slice(0, 3)) expect(gateStop(other, { capUsd: 0.01, spentUsd: 5 })).toBeUndefined();
    const stop = gateStop(gates[3]!, { capUsd: 0.01, spentUsd: 0.02 });
    expect(stop?.errorCode).toBe('budget_gate_exceeded');
    expect(stop?.failureDetails).toMatchObject({
      gateId: 'b',
      gateType: 'budget',
      reasons: ['per_run_cap_exceeded'],
      capUsd: 0.01,
      spentUsd: 0.02,
    });
  });

  it('holds an approval gate’s fields for review', () => {
    expect(gateHold(gates[2]!)).toEqual({ gateId: 'a', gateName: 'a gate', holdFields: [{ name: 'sku', type: 'string' }] });
    for (const other of [gates[0]!, gates[1]!, gates[3]!]) expect(gateHold(other)).toBeUndefined();
    expect(holdingStepIndex({ gates, runtimeSteps: [step('x', { gateId: 'b' }), step('y', { gateId: 'a' })] })).toBe(1);
    expect(holdingStepIndex({ gates, runtimeSteps: [step('x')] })).toBe(-1);
  });

  it('describes a rejection with the verdict and reasons', () => {
    expect(rejectionStop(gates[1]!, 'unsafe', ['violence'])).toEqual({
      errorCode: 'gate_rejected',
      error: 's gate rejected the work: unsafe',
      failureDetails: { gateId: 's', gateType: 'safety', verdict: 'unsafe', reasons: ['violence'] },
    });
  });
});

describe('gate types', () => {
  const gates = [gate('q', 'quality'), gate('s', 'safety'), gate('a', 'approval'), gate('b', 'budget')];
  const facts = { requested: 'completed', written: 'completed', errorCode: undefined, present: false, holding: false };

  it('has rules for every gate type of the contract', () => {
    expect(Object.keys(GATE_TYPE_RULES).sort()).toEqual([...GATE_TYPES].sort());
  });

  it('reads what was asked in a safety verdict only', () => {
    expect(gates.filter(verdictReadsAsked).map((g) => g.id)).toEqual(['s']);
    expect(verdictReadsAsked(undefined)).toBe(false);
  });

  it('reports the verdicts the workflow reached when the run settles', () => {
    expect(settledVerdict('budget', { ...facts, requested: 'failed', written: 'failed', errorCode: 'budget_gate_exceeded' })).toBe('fail');
    expect(settledVerdict('budget', { ...facts, present: true })).toBe('pass');
    expect(settledVerdict('budget', { ...facts, written: 'failed', present: true })).toBeUndefined();
    expect(settledVerdict('budget', facts)).toBeUndefined();
    expect(settledVerdict('approval', { ...facts, requested: 'review', written: 'review', present: true, holding: true })).toBe('held');
    expect(settledVerdict('approval', { ...facts, present: true })).toBeUndefined();
    expect(settledVerdict('quality', { ...facts, present: true })).toBeUndefined();
  });

  it('presents QA as included with a quality or safety gate', () => {
    expect(gatesIncludeQa([gates[0]!])).toBe(true);
    expect(gatesIncludeQa([gates[1]!, gates[2]!])).toBe(true);
    expect(gatesIncludeQa([gates[2]!, gates[3]!])).toBe(false);
  });

  it('puts an approval gate on the last step and asks a classifier for judged gates', () => {
    const def = {
      gates: [gates[0]!, gates[2]!],
      runtimeSteps: [step('x', { gateId: 'a' }), step('y', { gateId: 'q' })],
      providers: {},
    } as unknown as Parameters<typeof gateRuleErrors>[0];
    expect(gateRuleErrors(def)).toEqual([
      'quality and safety gates need a classifier: bind the role "classifier" in providers',
      'step 1 ("x"): an approval gate ends the run in review, so it must judge the last step',
    ]);
  });
});

describe('step kinds', () => {
  it('has traits for every kind of the contract', () => {
    expect(Object.keys(STEP_KIND_TRAITS).sort()).toEqual([...STEP_KINDS].sort());
    expect(STEP_KINDS.filter(kindNeedsRole).sort()).toEqual(['agent', 'image', 'llm']);
  });

  it('names a missing role, and a role without a model', () => {
    expect(roleProblem({ kind: 'llm' }, {})).toBe('a llm step needs a role');
    expect(roleProblem({ kind: 'image', role: 'painter' }, {})).toBe('role "painter" has no model in providers');
    expect(roleProblem({ kind: 'image', role: 'painter' }, { painter: 'm' })).toBeUndefined();
    expect(roleProblem({ kind: 'code', role: 'x' }, {})).toBeUndefined();
  });

  it('names the fields a kind cannot do without', () => {
    expect(requiredFieldsProblem(step('c', { function: undefined }))).toBe('a code step needs a function or an expression');
    expect(requiredFieldsProblem(step('c', { function: undefined, expression: '$' }))).toBeUndefined();
    expect(requiredFieldsProblem(step('t', { kind: 'tool', function: undefined }))).toBe('a tool step needs a tool name');
    expect(requiredFieldsProblem(step('w', { kind: 'subWorkflow', templateId: 'x', templateVersion: '2026.01.01' }))).toBe(
      'a subWorkflow step needs templateId, templateVersion and intakeMapping',
    );
    expect(requiredFieldsProblem(step('l', { kind: 'llm' }))).toBeUndefined();
  });
});
