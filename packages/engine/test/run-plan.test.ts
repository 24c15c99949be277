import { describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '@atelier/contracts/workflow-definition';
import { loadBuiltinWorkflows } from '@atelier/catalog';
import { definitionHash } from '@atelier/domain/hashing';
import { gateOf } from '@atelier/domain/gates';
import { contextFor, sliceContext } from '@atelier/domain/run-context';
import { runPlanOf } from '@atelier/domain/run-plan';
import { stepReads } from '@atelier/domain/step-kinds';
import { DefinitionCache, withFullStep } from '../src/activities/definitions.js';
import type { ExecuteStepInput } from '../src/run-types.js';

const builtins = loadBuiltinWorkflows();
const byId = (id: string) => builtins.find((d) => d.id === id)!;

describe('a run plan: the definition as the run workflow decides on it', () => {
  it('keeps what the workflow decides on and leaves prompts, schemas and params to the worker', () => {
    const definition = byId('plan-research-report');
    const plan = runPlanOf(definition);
    expect(plan).toMatchObject({ id: definition.id, version: definition.version, gates: definition.gates });
    expect(plan.artifactSchema).toEqual(definition.artifactSchema);
    expect(plan.runtimeSteps.map((s) => [s.id, s.name, s.kind])).toEqual(definition.runtimeSteps.map((s) => [s.id, s.name, s.kind]));
    for (const step of plan.runtimeSteps) {
      expect(step).not.toHaveProperty('prompt');
      expect(step).not.toHaveProperty('jsonSchema');
      expect(step).not.toHaveProperty('params');
    }
    expect(JSON.stringify(plan).length).toBeLessThan(JSON.stringify(definition).length / 2);
  });

  it('slices every built-in step’s context as the step’s own prompt, params and gate would', () => {
    const context = {
      intake: { topic: 'tea', product: 'kettle', notes: 'n', image: 'a-1' },
      inputs: { sourceReport: { summary: 's' } },
      steps: Object.fromEntries(builtins.flatMap((d) => d.runtimeSteps.map((s) => [s.id, { of: s.id }]))),
    };
    for (const definition of builtins) {
      const plan = runPlanOf(definition);
      definition.runtimeSteps.forEach((step, i) => {
        const expected = contextFor(stepReads(step, gateOf(definition.gates, step)), context);
        expect(sliceContext(plan.runtimeSteps[i]!.reads, context), `${definition.id} ${step.id}`).toEqual(expected);
      });
    }
  });

  it('keeps a subWorkflow step’s child, the gate it names, what the intake supplies and the budget cap', () => {
    const definition = byId('compose-article');
    const plan = runPlanOf({ ...definition, budgetPolicy: { perRunCapUsd: 2, note: 'x' } } as WorkflowDefinition);
    const child = definition.runtimeSteps.findIndex((s) => s.kind === 'subWorkflow');
    const { templateId, templateVersion, intakeMapping, suppliedBy } = definition.runtimeSteps[child]!;
    expect(plan.runtimeSteps[child]).toMatchObject({ templateId, templateVersion, intakeMapping, suppliedBy });
    expect(plan.budgetPolicy).toEqual({ perRunCapUsd: 2 });
    const gated = byId('generate-product-shot');
    const gatedPlan = runPlanOf(gated);
    expect(gatedPlan.runtimeSteps.map((s) => s.gateId)).toEqual(gated.runtimeSteps.map((s) => s.gateId));
  });
});

describe('the worker’s cache of definitions', () => {
  const definitions = builtins.filter((d) => d.runtimeSteps.length >= 2).slice(0, 3);
  const call = (definition: WorkflowDefinition, runId: string, stepIndex = 0) => ({
    runId,
    stepIndex,
    step: { id: definition.runtimeSteps[stepIndex]!.id },
    definitionHash: definitionHash(definition),
    context: { intake: {}, inputs: {}, steps: {} },
    bindings: {},
    artifactId: 'artifact-5',
  });

  it('reads a definition once per hash, keeps the most recently used, and answers with the full step', async () => {
    const reads: string[] = [];
    const cache = new DefinitionCache(async (runId) => {
      reads.push(runId);
      return definitions[Number(runId.slice(4))];
    }, 2);
    expect(await cache.stepOf(call(definitions[0]!, 'run-0', 1))).toEqual(definitions[0]!.runtimeSteps[1]);
    await cache.stepOf(call(definitions[0]!, 'run-0'));
    await cache.stepOf(call(definitions[1]!, 'run-1'));
    await cache.stepOf(call(definitions[0]!, 'run-0'));
    await cache.stepOf(call(definitions[2]!, 'run-2')); // the least recently used (definition 1) goes
    await cache.stepOf(call(definitions[0]!, 'run-0'));
    await cache.stepOf(call(definitions[1]!, 'run-1'));
    expect(reads).toEqual(['run-0', 'run-1', 'run-2', 'run-1']);
    expect(cache.size).toBe(2);
  });

  it('refuses a step the definition does not have there', async () => {
    const cache = new DefinitionCache(async () => definitions[0]);
    await expect(cache.stepOf({ ...call(definitions[0]!, 'run-0'), stepIndex: 1 })).rejects.toMatchObject({ type: 'step_invalid' });
    await expect(new DefinitionCache(async () => undefined).stepOf(call(definitions[0]!, 'run-9'))).rejects.toMatchObject({
      type: 'run_missing',
    });
  });

  it('makes a call whole: the step from its id, the artifact from its id and the definition’s schema', async () => {
    const definition = byId('plan-research-report');
    const received: ExecuteStepInput[] = [];
    const execute = withFullStep(new DefinitionCache(async () => definition), async (input) => {
      received.push(input);
      return { output: null, costUsd: 0 };
    });
    await execute(call(definition, 'run-5', 2));
    expect(received[0]!.step).toBe(definition.runtimeSteps[2]);
    // The artifact as the activity works with it, and nothing of the reference.
    expect(received[0]!.artifact).toEqual({ id: 'artifact-5', ...definition.artifactSchema });
    expect(received[0]).not.toHaveProperty('artifactId');
    expect(received[0]).not.toHaveProperty('definitionHash');
  });
});
