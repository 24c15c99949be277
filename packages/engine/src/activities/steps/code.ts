import { ExpressionError, evaluateExpression } from '../../steps/code-expression';
import { CODE_FUNCTIONS, CodeStepError } from '../../steps/code-functions';
import { StepFailure, type StepExecutor, invalid, stepInput } from './shared';

/** A code step: a time-boxed JSONata expression over the run context, or a named deterministic function. */
export const executeCode: StepExecutor = async ({ step, context }) => {
  try {
    if (step.expression) return { output: await evaluateExpression(step.expression, context), costUsd: 0 };
    const fn = step.function ? CODE_FUNCTIONS[step.function] : undefined;
    if (!fn) throw invalid(`step ${step.id}: unknown code function ${step.function ?? '(none)'}`);
    return { output: fn(stepInput(step, context), context), costUsd: 0 };
  } catch (err) {
    if (err instanceof CodeStepError || err instanceof ExpressionError)
      throw new StepFailure(`step ${step.id}: ${err.message}`, 'step_invalid', 0);
    throw err;
  }
};
