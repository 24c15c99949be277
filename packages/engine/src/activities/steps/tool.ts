import { ToolInputError } from '../../steps/tools.js';
import { StepFailure, type StepExecutor, invalid, stepInput, toolContext } from './shared.js';

/** A tool step: a named built-in tool (steps/tools.ts) run on the step's input. */
export const executeTool: StepExecutor = async (input, deps, signal) => {
  const { step, context } = input;
  const tool = step.tool ? deps.tools[step.tool] : undefined;
  if (!tool) throw invalid(`step ${step.id}: unknown tool ${step.tool ?? '(none)'}`);
  try {
    const result = await tool.run(stepInput(step, context), toolContext(input, deps, signal));
    return { output: result.output, costUsd: result.costUsd ?? 0 };
  } catch (err) {
    if (err instanceof ToolInputError) throw new StepFailure(`step ${step.id}: tool ${step.tool} ${err.message}`, 'step_invalid', 0);
    throw err;
  }
};
