// The thread side of the bounded expression evaluator (code-expression.ts). Plain JavaScript on purpose:
// a worker thread loads its entry with Node's own loader, and this file must load the same way under
// tsx (`npm start`, `atelier worker`, the Docker image), under vitest, and with no TypeScript loader at all.
import jsonata from 'jsonata';

class DepthExceeded extends Error {}

/**
 * Evaluates one JSONata expression over the run context. The time limit is not kept here: the main
 * thread terminates this thread when it passes, which also stops work that never returns to JSONata's
 * node hooks (one catastrophic regular expression). The depth limit is kept through those hooks, so an
 * infinitely recursive expression fails with a clear message instead of overflowing the stack.
 *
 * @param {{ expression: string, context: unknown, depthLimit: number, started: import('node:worker_threads').MessagePort }} task
 * @returns {Promise<{ value: unknown } | { error: string }>}
 */
export default async function evaluate({ expression, context, depthLimit, started }) {
  // The main thread's clock starts now, not when the task was queued behind others.
  started.postMessage('started');
  started.close();
  let expr;
  try {
    expr = jsonata(expression);
  } catch (err) {
    return { error: `the expression does not parse: ${err.message}` };
  }
  let depth = 0;
  expr.assign(Symbol.for('jsonata.__evaluate_entry'), () => {
    depth += 1;
    if (depth > depthLimit) throw new DepthExceeded(`the expression recursed deeper than ${depthLimit} levels`);
  });
  expr.assign(Symbol.for('jsonata.__evaluate_exit'), () => {
    depth -= 1;
  });
  try {
    const value = (await expr.evaluate(context)) ?? null;
    // The step output is stored as JSON; JSONata's sequences and functions become what JSON makes of them.
    return { value: JSON.parse(JSON.stringify(value) ?? 'null') };
  } catch (err) {
    if (err instanceof DepthExceeded) return { error: err.message };
    return { error: `the expression failed: ${err?.message ?? String(err)}` };
  }
}
