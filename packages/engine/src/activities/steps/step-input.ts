import type { ExecuteStepInput } from '../../run-types.js';
import { mediaPrompt, stepInput, stepPrompt } from './shared.js';

/**
 * What a step is given, resolved against its run as its executor resolves it, to be recorded with its start
 * (run_steps.input): a model step's rendered prompt (an image step's params beside it), a tool's or a code
 * function's input, and for a code expression the run context it is evaluated over. Undefined for a kind
 * with no input of its own, or when the step's templates do not resolve: the executor then fails the step
 * with the reason, which is what the run should show, not a failure to record the input.
 */
export function resolvedStepInput({ step, context }: Pick<ExecuteStepInput, 'step' | 'context'>): unknown {
  try {
    switch (step.kind) {
      case 'llm':
      case 'agent':
        return { prompt: stepPrompt(step, context) };
      case 'image': {
        // As generateImage and the video step read them: a prompt among the params wins over the template.
        const params = step.params || step.inputPath ? (stepInput(step, context) as Record<string, unknown> | undefined) : undefined;
        return { prompt: mediaPrompt(step, context, params), ...(params ? { params } : {}) };
      }
      case 'code':
        return step.expression ? context : stepInput(step, context);
      case 'tool':
        return stepInput(step, context);
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}
