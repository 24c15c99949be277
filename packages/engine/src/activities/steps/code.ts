import { ExpressionError, ExpressionTimeout } from '../../steps/code-expression.js';
import { CODE_FUNCTIONS, CodeStepError } from '../../steps/code-functions.js';
import { StepFailure, type StepExecutor, invalid, stepInput } from './shared.js';

/**
 * A code step: a JSONata expression over the run context, evaluated in a thread that is stopped at the
 * time limit (`code_timeout`), or a named deterministic function.
 */
export const executeCode: StepExecutor = async ({ step, context }, deps) => {
  try {
    if (step.expression) return { output: await deps.expressions.evaluate(step.expression, context), costUsd: 0 };
    const fn = step.function ? CODE_FUNCTIONS[step.function] : undefined;
    if (!fn) throw invalid(`step ${step.id}: unknown code function ${step.function ?? '(none)'}`);
    return { output: fn(stepInput(step, context), context), costUsd: 0 };
  } catch (err) {
    if (err instanceof ExpressionTimeout) throw new StepFailure(`step ${step.id}: ${err.message}`, 'code_timeout', 0);
    if (err instanceof CodeStepError || err instanceof ExpressionError)
      throw new StepFailure(`step ${step.id}: ${err.message}`, 'step_invalid', 0);
    throw err;
  }
};
