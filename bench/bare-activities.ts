/**
 * The baseline's activities: three no-ops. They return at once, so everything the baseline measures is
 * Temporal itself (client start, task queue dispatch, workflow tasks, history writes) on this machine.
 */
export async function stepOne(input: { i: number }): Promise<number> {
  return input.i;
}

export async function stepTwo(input: { i: number }): Promise<number> {
  return input.i;
}

export async function stepThree(input: { i: number }): Promise<number> {
  return input.i;
}

/** A model call that takes `ms` and does nothing else: the bare side of the slow-calls bench. */
export async function slowCall(input: { ms: number }): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, input.ms));
  return input.ms;
}

export type BareActivities = {
  stepOne: typeof stepOne;
  stepTwo: typeof stepTwo;
  stepThree: typeof stepThree;
  slowCall: typeof slowCall;
};
