import { ApplicationFailure } from '@temporalio/common';
import type { Step, WorkflowDefinition } from '@atelier/contracts/workflow-definition';
import { type Db, getRunRow } from '@atelier/db';
import { definitionHash } from '@atelier/domain/hashing';
import type { ExecuteStep, ExecuteStepInput, StepCall, StepResult } from '../run-types.js';
import type { EngineActivities } from './index.js';

/** Definitions a worker keeps: a deployment runs a few dozen workflow versions, each shared by all its runs. */
export const DEFINITIONS_CACHED = 256;

/**
 * The worker's cache of frozen definitions by content hash. The run workflow names its definition by hash
 * (the history no longer carries it); a miss reads the run's own frozen copy (`runs.definition`), which is
 * what the hash was taken of. Bounded: the least recently used definition goes first.
 */
export class DefinitionCache {
  readonly #byHash = new Map<string, WorkflowDefinition>();

  /** `frozenDefinition` reads a run's frozen definition (undefined for a run not in the database). */
  constructor(
    private readonly frozenDefinition: (runId: string) => Promise<unknown>,
    private readonly capacity = DEFINITIONS_CACHED,
  ) {}

  /** The cache of a worker: a miss reads `runs.definition`. */
  static of(db: Db, capacity = DEFINITIONS_CACHED): DefinitionCache {
    return new DefinitionCache(async (runId) => (await getRunRow(db, runId))?.definition, capacity);
  }

  get size(): number {
    return this.#byHash.size;
  }

  /** The definition `hash` names, as frozen on run `runId`. */
  async definition(hash: string, runId: string): Promise<WorkflowDefinition> {
    const cached = this.#byHash.get(hash);
    if (cached) {
      // Map order is insertion order: taking it out and back in makes it the most recently used.
      this.#byHash.delete(hash);
      this.#byHash.set(hash, cached);
      return cached;
    }
    const definition = (await this.frozenDefinition(runId)) as WorkflowDefinition | undefined;
    if (!definition) throw ApplicationFailure.nonRetryable(`run ${runId} is not in the database`, 'run_missing');
    // The run's frozen copy is the truth for this run; it is shared under the hash only if it is what the hash names.
    if (definitionHash(definition) !== hash) return definition;
    this.#byHash.set(hash, definition);
    if (this.#byHash.size > this.capacity) this.#byHash.delete(this.#byHash.keys().next().value!);
    return definition;
  }

  /** The run's artifact as a call names it by id, with its definition's artifact schema. */
  async artifactOf(call: { runId: string; definitionHash: string; artifactId: string }): Promise<ExecuteStepInput['artifact']> {
    const definition = await this.definition(call.definitionHash, call.runId);
    return { id: call.artifactId, ...definition.artifactSchema };
  }

  /** The full step a call names, from the cached definition. */
  async stepOf(call: StepCall): Promise<Step> {
    const definition = await this.definition(call.definitionHash, call.runId);
    const step = definition.runtimeSteps[call.stepIndex];
    if (!step || step.id !== call.step.id)
      throw ApplicationFailure.nonRetryable(
        `run ${call.runId}: step ${call.stepIndex + 1} of its definition is not ${call.step.id}`,
        'step_invalid',
      );
    return step;
  }
}

/**
 * executeStep as the run workflow calls it: the step and the artifact by their ids are made whole before the
 * activity runs it.
 */
export function withFullStep(definitions: DefinitionCache, executeStep: ExecuteStep): (call: StepCall) => Promise<StepResult> {
  return async (call) => {
    const { definitionHash: _hash, artifactId: _id, ...input } = call;
    const step = await definitions.stepOf(call);
    const artifact = await definitions.artifactOf(call);
    return executeStep({ ...input, step, artifact });
  };
}

/**
 * The activities as the run workflow calls them: executeStep takes its step by reference (withFullStep), and
 * executeQuickStep is the same step run as a local activity (a quick step, run shape 7).
 */
export type RunActivities = Omit<EngineActivities, 'executeStep'> & {
  executeStep(call: StepCall): Promise<StepResult>;
  executeQuickStep(call: StepCall): Promise<StepResult>;
};
