import { describe, expect, it } from 'vitest';
import { loadBuiltinWorkflows } from '@atelier/catalog';
import { RUN_SHAPE, plannedRunInput } from '../src/run-input.js';

describe('the run workflow’s shape, carried in its input', () => {
  it('is named by every input the engine starts a run with, so the workflow asks no patch marker', () => {
    const definition = loadBuiltinWorkflows().find((d) => d.id === 'plan-research-report')!;
    const start = { runId: 'run-1', workspaceId: 'ws-1', intake: { topic: 't' }, inputs: {}, bindings: {} };
    expect(RUN_SHAPE).toBe(5);
    expect(plannedRunInput(start, definition)).toMatchObject({ shape: RUN_SHAPE, runId: 'run-1', plan: { id: definition.id } });
  });
});
