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

export type BareActivities = {
  stepOne: typeof stepOne;
  stepTwo: typeof stepTwo;
  stepThree: typeof stepThree;
};
