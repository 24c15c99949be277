import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRun } from '@atelier/db';
import { StepOutputCache, withStepOutputs } from '@atelier/engine/activities/step-outputs';
import type { ExecuteStepInput, StepResult } from '@atelier/engine/run-types';
import { type Harness, type TestUser, registerUser, startHarness } from '../support/harness';
import { researchRunRow } from '../support/run-rows';

/**
 * Step outputs by reference (RunShape 4) against real PostgreSQL: a worker that ran the step has its output
 * at hand; any other worker reads what the step's settlement recorded in `run_steps`.
 */
let h: Harness;
let user: TestUser;

async function runWithSteps(outputs: Record<string, unknown>): Promise<string> {
  const id = `run-${randomBytes(4).toString('hex')}`;
  await insertRun(h.db, researchRunRow(id, user.workspaceId, 'running', 'outputs by reference'));
  const rows = Object.entries(outputs).map(([stepId, output], i) => ({
    run_id: id,
    step_index: i,
    step_id: stepId,
    name: stepId,
    kind: 'llm',
    status: 'completed',
    output: JSON.stringify(output),
    cost_actual_usd: '0',
  }));
  await h.db.insertInto('run_steps').values(rows).execute();
  return id;
}

beforeAll(async () => {
  h = await startHarness({ worker: false });
  user = await registerUser(h);
});
afterAll(() => h?.stop());

describe('a worker without the outputs at hand', () => {
  it('reads them as the steps recorded them, and fails a step whose reads were never recorded', async () => {
    const runId = await runWithSteps({ 'step-1': { title: 'T', angles: ['a'] }, 'step-2': { sections: [1, 2] } });
    const cache = StepOutputCache.of(h.db);
    expect(await cache.outputs(runId, ['step-2', 'step-1'])).toEqual({
      'step-2': { sections: [1, 2] },
      'step-1': { title: 'T', angles: ['a'] },
    });
    await expect(cache.outputs(runId, ['step-1', 'step-9'])).rejects.toMatchObject({ type: 'step_invalid', nonRetryable: true });
  });
});

describe('executeStep with outputs by reference', () => {
  const call = (runId: string, extra: Partial<ExecuteStepInput>): ExecuteStepInput => ({
    runId,
    stepIndex: 1,
    step: { id: 'step-2', name: 'Write', kind: 'llm' },
    context: { intake: { topic: 't' }, inputs: {}, steps: {} },
    bindings: {},
    artifact: { id: 'artifact-1', artifactClass: 'research', artifactType: 'research-report' },
    ...extra,
  });

  it('fills the context from what it kept, keeps an output the workflow never reads, and forgets a settled run', async () => {
    const runId = await runWithSteps({ 'step-1': { title: 'recorded' } });
    const reads: string[][] = [];
    const cache = new StepOutputCache(async (id, stepIds) => {
      reads.push([...stepIds]);
      return StepOutputCache.of(h.db)
        .outputs(id, stepIds)
        .then((o) => new Map(Object.entries(o)));
    });
    const seen: ExecuteStepInput[] = [];
    const step = withStepOutputs(cache, async (input): Promise<StepResult> => {
      seen.push(input);
      return { output: { echo: input.context.steps }, costUsd: 0.01 };
    });

    // A cold worker reads step-1's recorded output; step-2's is kept, not returned.
    const second = await step(call(runId, { outputRefs: ['step-1'], returnOutput: false }));
    expect(second).toEqual({ output: undefined, costUsd: 0.01 });
    expect(seen[0]).not.toHaveProperty('outputRefs');
    expect(seen[0]!.context.steps).toEqual({ 'step-1': { title: 'recorded' } });
    expect(reads).toEqual([['step-1']]);

    // The last step reads both: step-2's from memory (only step-1 read again), and returns its own output.
    const last = await step(
      call(runId, {
        stepIndex: 2,
        step: { id: 'step-3', name: 'Assemble', kind: 'code' },
        outputRefs: ['step-1', 'step-2'],
        settleRun: { artifactId: 'artifact-1', sourceReportArtifactId: null },
      }),
    );
    expect(seen[1]!.context.steps).toEqual({ 'step-1': { title: 'recorded' }, 'step-2': { echo: { 'step-1': { title: 'recorded' } } } });
    expect(last.output).toEqual({ echo: seen[1]!.context.steps });
    expect(reads).toEqual([['step-1'], ['step-1']]);
    expect(cache.size).toBe(0);
  });

  it('gives each reader a copy of what it kept', async () => {
    const cache = new StepOutputCache(async () => new Map());
    cache.keep('run-a', 's', { sections: ['one'] });
    const first = await cache.outputs('run-a', ['s']);
    (first.s as { sections: string[] }).sections.push('changed by a step');
    expect(await cache.outputs('run-a', ['s'])).toEqual({ s: { sections: ['one'] } });
  });

  it('keeps outputs for a bounded number of runs, the least recently added to going first', async () => {
    const cache = new StepOutputCache(async () => new Map(), 2);
    cache.keep('run-a', 's', 1);
    cache.keep('run-b', 's', 2);
    cache.keep('run-a', 't', 3);
    cache.keep('run-c', 's', 4);
    expect(cache.size).toBe(2);
    expect(await cache.outputs('run-a', ['s', 't'])).toEqual({ s: 1, t: 3 });
    await expect(cache.outputs('run-b', ['s'])).rejects.toMatchObject({ type: 'step_invalid' });
  });
});
