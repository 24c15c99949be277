import { describe, expect, it } from 'vitest';
import { STEP_KINDS, STEP_KIND_TRAITS, type Gate, type Step } from '@atelier/contracts/workflow-definition';
import {
  approvalHold,
  approvalStepIndex,
  budgetStop,
  gateOf,
  isJudgedGate,
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
    expect(budgetStop(gates[3]!, 0.01, 0.01)).toBeUndefined();
    expect(budgetStop(gates[3]!, undefined, 5)).toBeUndefined();
    expect(budgetStop(gates[0]!, 0.01, 5)).toBeUndefined();
    const stop = budgetStop(gates[3]!, 0.01, 0.02);
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
    expect(approvalHold(gates[2]!)).toEqual({ gateId: 'a', gateName: 'a gate', holdFields: [{ name: 'sku', type: 'string' }] });
    expect(approvalHold(gates[0]!)).toBeUndefined();
    expect(approvalStepIndex({ gates, runtimeSteps: [step('x'), step('y', { gateId: 'a' })] })).toBe(1);
    expect(approvalStepIndex({ gates, runtimeSteps: [step('x')] })).toBe(-1);
  });

  it('describes a rejection with the verdict and reasons', () => {
    expect(rejectionStop(gates[1]!, 'unsafe', ['violence'])).toEqual({
      errorCode: 'gate_rejected',
      error: 's gate rejected the work: unsafe',
      failureDetails: { gateId: 's', gateType: 'safety', verdict: 'unsafe', reasons: ['violence'] },
    });
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
