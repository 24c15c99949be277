import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STEP_INPUT_MAX_BYTES, insertRun, startStep } from '@atelier/db';
import { type Harness, type TestUser, registerUser, startHarness, waitForRun } from '../support/harness';
import { researchRunRow } from '../support/run-rows';

/**
 * Each step's input as it was resolved when the step started (run_steps.input, migration 0029): on the read
 * of one run beside the step's output, left out of lists as outputs are, and not kept when it is too large.
 */
let h: Harness;
let user: TestUser;

beforeAll(async () => {
  h = await startHarness({ localLatencyMs: 0 });
  user = await registerUser(h);
});
afterAll(() => h?.stop());

describe('step inputs on the run read', () => {
  it("carries each finished step's resolved input: rendered prompts, and the value a code step read", async () => {
    const topic = `step inputs ${randomBytes(3).toString('hex')}`;
    const created = await h.request('POST', '/v1/runs', {
      token: user.token,
      body: { templateId: 'plan-research-report', intake: { topic } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const run = await waitForRun(h, user.token, created.body.id);
    expect(run.status, JSON.stringify(run)).toBe('completed');
    const [outline, sections, assemble] = run.runSteps;

    // The prompts as the model got them: the intake in, the default depth applied, an earlier step's output too.
    expect(outline.input).toEqual({ prompt: expect.stringContaining(`Outline a standard research report on "${topic}"`) });
    expect(sections.input.prompt).toContain(`titled ${outline.output.title}`);
    // A code function reads its inputPath: the previous step's output, as recorded.
    expect(assemble.input).toEqual(sections.output);
    for (const step of run.runSteps) expect(step.inputOmitted).toBe(false);

    // Lists stay small: no inputs, as no outputs.
    const listed = await h.request('GET', `/v1/runs?limit=5`, { token: user.token });
    const item = listed.body.items.find((r: any) => r.id === run.id);
    expect(item.runSteps[0]).not.toHaveProperty('input');
    expect(item.runSteps[0]).not.toHaveProperty('output');
  });

  it('keeps no input over 64 KB, and says so; a step not started has none', async () => {
    const runId = `run-${randomBytes(4).toString('hex')}`;
    await insertRun(h.db, researchRunRow(runId, user.workspaceId, 'queued', 'large inputs'));
    const step = { runId, stepIndex: 0, stepId: 'step-1', name: 'Outline the report', kind: 'llm' };
    await startStep(h.db, { ...step, input: { prompt: 'x'.repeat(STEP_INPUT_MAX_BYTES) } });
    await startStep(h.db, { ...step, stepIndex: 1, stepId: 'step-2', name: 'Write the sections', input: { prompt: 'short' } });

    const read = await h.request('GET', `/v1/runs/${runId}`, { token: user.token });
    expect(read.status).toBe(200);
    expect(read.body.runSteps.map((s: any) => [s.input, s.inputOmitted])).toEqual([
      [null, true],
      [{ prompt: 'short' }, false],
      [null, false],
    ]);
  });
});
