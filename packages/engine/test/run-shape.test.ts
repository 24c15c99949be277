import { describe, expect, it } from 'vitest';
import { loadBuiltinWorkflows } from '@atelier/catalog';
import { plannedRunInput } from '../src/run-input.js';
import {
  CHILD_SHAPE_UNNAMED,
  ORDER_SHAPE,
  RUN_SHAPE,
  hearsChildrenSettle,
  runsLocally,
  waitsForDecision,
} from '../src/workflows/shapes.js';
import { STEP_KINDS } from '@atelier/contracts/workflow-definition';

describe('the run workflow’s shape, carried in its input', () => {
  it('is named by every input the engine starts a run with, so the workflow asks no patch marker', () => {
    const definition = loadBuiltinWorkflows().find((d) => d.id === 'plan-research-report')!;
    const start = { runId: 'run-1', workspaceId: 'ws-1', intake: { topic: 't' }, inputs: {}, bindings: {} };
    expect(RUN_SHAPE).toBe(7);
    expect(plannedRunInput(start, definition)).toMatchObject({ shape: RUN_SHAPE, runId: 'run-1', plan: { id: definition.id } });
    // A child whose parent names no shape takes the one that closes in review, which such a parent waits for.
    expect(plannedRunInput(start, definition, CHILD_SHAPE_UNNAMED)).toMatchObject({ shape: 5 });
  });

  it('runs a quick step in a local activity from shape 7: a code step whose gate no model judges', () => {
    expect([5, 6, 7].map((s) => runsLocally(s as 5 | 6 | 7, 'code', false))).toEqual([false, false, true]);
    expect(runsLocally(RUN_SHAPE, 'code', false)).toBe(true);
    // A model call, a tool's fetch or media work, or a child run can take minutes: each keeps a task of its own.
    expect(STEP_KINDS.filter((kind) => runsLocally(RUN_SHAPE, kind, false))).toEqual(['code']);
    // So can a classifier judging the step's gate.
    expect(runsLocally(RUN_SHAPE, 'code', true)).toBe(false);
  });

  it('waits in review from shape 6, and an order hears its children settle from shape 4', () => {
    expect([5, 6, 7].map((s) => waitsForDecision(s as 5 | 6 | 7))).toEqual([false, true, true]);
    expect(waitsForDecision(RUN_SHAPE)).toBe(true);
    expect([3, 4].map((s) => hearsChildrenSettle(s as 3 | 4))).toEqual([false, true]);
    expect(hearsChildrenSettle(ORDER_SHAPE)).toBe(true);
  });
});
