import jsonata from 'jsonata';
import type { RunContext } from '@atelier/domain/run-context';

/**
 * JSONata expressions over the run context `{ intake, inputs, steps }` for `code` steps. Each evaluation
 * is time-boxed and depth-limited through JSONata's evaluation hooks, so a runaway or infinitely
 * recursive expression fails the step instead of hanging or crashing the worker.
 */
export class ExpressionError extends Error {}

const TIME_LIMIT_MS = 2_000;
const DEPTH_LIMIT = 300;

export async function evaluateExpression(expression: string, context: RunContext): Promise<unknown> {
  let expr: ReturnType<typeof jsonata>;
  try {
    expr = jsonata(expression);
  } catch (err) {
    throw new ExpressionError(`the expression does not parse: ${(err as Error).message}`);
  }
  const started = Date.now();
  let depth = 0;
  const env = expr as unknown as { assign(name: symbol, value: unknown): void };
  env.assign(Symbol.for('jsonata.__evaluate_entry'), () => {
    depth += 1;
    if (depth > DEPTH_LIMIT) throw new ExpressionError(`the expression recursed deeper than ${DEPTH_LIMIT} levels`);
    if (Date.now() - started > TIME_LIMIT_MS) throw new ExpressionError(`the expression ran longer than ${TIME_LIMIT_MS} ms`);
  });
  env.assign(Symbol.for('jsonata.__evaluate_exit'), () => {
    depth -= 1;
  });
  try {
    return (await expr.evaluate(context)) ?? null;
  } catch (err) {
    if (err instanceof ExpressionError) throw err;
    const message = (err as { message?: string }).message ?? String(err);
    throw new ExpressionError(`the expression failed: ${message}`);
  }
}
