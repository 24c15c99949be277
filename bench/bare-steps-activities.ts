/**
 * The per-step baseline's activity (bench/engine.ts): a no-op. It returns its input at once, so what the
 * baseline measures per step is Temporal alone: scheduling the activity, dispatching it to the worker,
 * recording its result and the workflow task that schedules the next one.
 */
export async function noopStep(input: { step: number; value: number }): Promise<number> {
  return input.value;
}

export type BareStepActivities = {
  noopStep: typeof noopStep;
};
