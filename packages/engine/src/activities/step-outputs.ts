import { ApplicationFailure } from '@temporalio/common';
import { type Db, getStepOutputs } from '@atelier/db';
import type { ExecuteStep } from '../run-types.js';

/** Runs whose outputs a worker keeps: a few outputs each, with room for a thousand runs in flight. */
export const RUNS_WITH_OUTPUTS_CACHED = 1_024;

/**
 * Step outputs the run workflow holds by reference (RunShape 4, domain/output-refs.ts): kept by the worker
 * that ran the step, for the later steps of the run that read them, so they never enter the history. A step
 * run by another worker (or after a restart) reads them from `run_steps`, where the step's settlement
 * recorded them. Bounded by runs: the run least recently added to goes first, and a run's outputs go when
 * its last step settles it.
 */
export class StepOutputCache {
  readonly #byRun = new Map<string, Map<string, unknown>>();

  constructor(
    private readonly recorded: (runId: string, stepIds: readonly string[]) => Promise<Map<string, unknown>>,
    private readonly capacity = RUNS_WITH_OUTPUTS_CACHED,
  ) {}

  /** The cache of a worker: a miss reads `run_steps`. */
  static of(db: Db, capacity = RUNS_WITH_OUTPUTS_CACHED): StepOutputCache {
    return new StepOutputCache((runId, stepIds) => getStepOutputs(db, runId, stepIds), capacity);
  }

  /** How many runs have outputs kept. */
  get size(): number {
    return this.#byRun.size;
  }

  keep(runId: string, stepId: string, output: unknown): void {
    const outputs = this.#byRun.get(runId) ?? new Map<string, unknown>();
    // Map order is insertion order: taking the run out and back in makes it the most recent.
    this.#byRun.delete(runId);
    this.#byRun.set(runId, outputs.set(stepId, output));
    if (this.#byRun.size > this.capacity) this.#byRun.delete(this.#byRun.keys().next().value!);
  }

  forget(runId: string): void {
    this.#byRun.delete(runId);
  }

  /** The outputs of `stepIds`, from this worker when it has them, else as recorded; a missing one fails the step. */
  async outputs(runId: string, stepIds: readonly string[]): Promise<Record<string, unknown>> {
    const kept = this.#byRun.get(runId);
    const found: Record<string, unknown> = {};
    const missing: string[] = [];
    for (const id of stepIds) {
      // A copy, as a history or run_steps would give: a step that changes what it reads changes no other step's.
      if (kept?.has(id)) found[id] = structuredClone(kept.get(id));
      else missing.push(id);
    }
    if (missing.length === 0) return found;
    const recorded = await this.recorded(runId, missing);
    for (const id of missing) {
      if (!recorded.has(id)) throw ApplicationFailure.nonRetryable(`run ${runId}: step ${id} has no recorded output`, 'step_invalid');
      found[id] = recorded.get(id);
    }
    return found;
  }
}

/**
 * executeStep with outputs by reference: the outputs a step reads are put in its context before it runs,
 * and an output the workflow never reads is kept here and left out of the result (and so of the history).
 */
export function withStepOutputs(cache: StepOutputCache, executeStep: ExecuteStep): ExecuteStep {
  return async (call) => {
    const { outputRefs, returnOutput, ...input } = call;
    if (outputRefs?.length) {
      const fetched = await cache.outputs(input.runId, outputRefs);
      input.context = { ...input.context, steps: { ...input.context.steps, ...fetched } };
    }
    const result = await executeStep(input);
    // The last step settles the run: nothing after it reads what the run's steps kept.
    if (input.settleRun) cache.forget(input.runId);
    if (returnOutput !== false) return result;
    cache.keep(input.runId, input.step.id, result.output);
    return { ...result, output: undefined };
  };
}
