import jsonata from 'jsonata';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunContext } from '@atelier/domain/run-context';
import { EXPRESSION_LIMITS, ExpressionError, ExpressionEvaluator, ExpressionTimeout } from '../src/steps/code-expression.js';

/**
 * The bounded evaluator of code steps' expressions, on real worker threads: a runaway regular expression
 * is stopped at the time limit without stalling this thread, ordinary expressions answer as JSONata does
 * in-process, and the depth limit still names itself.
 */
const evaluator = new ExpressionEvaluator();
afterAll(() => evaluator.close());

const context: RunContext = {
  intake: { s: `${'a'.repeat(34)}!`, text: 'Tomatoes like sun', n: [3, 1, 2] },
  inputs: { tone: 'dry' },
  steps: { 'step-1': { title: 'Notes', words: 3, tags: ['a', 'b'] } },
};

const CATASTROPHIC = '{"m": $contains(intake.s, /^(a+)+$/)}';

/** Runs `work` while sampling this thread's event loop; answers the longest gap between ticks (ms). */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: PromiseSettledResult<T>; stallMs: number; ms: number }> {
  let last = performance.now();
  let stallMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 10);
  const started = performance.now();
  const [result] = await Promise.allSettled([work()]);
  const ms = performance.now() - started;
  clearInterval(ticker);
  return { result: result!, stallMs, ms };
}

describe('the bounded expression evaluator', () => {
  it('answers ordinary expressions as JSONata does in-process, and stays warm between them', async () => {
    const expressions = [
      '{ "text": intake.text, "upper": $uppercase(intake.text) }',
      '$sum(intake.n) * 2',
      '$sort(intake.n)',
      '{ "title": steps.`step-1`.title, "tags": steps.`step-1`.tags, "tone": inputs.tone }',
      'intake.missing',
      '$contains(intake.text, /sun$/)',
      '$map(intake.n, function($v) { $v * $v })',
    ];
    const first = performance.now();
    await evaluator.evaluate('1', context);
    const coldMs = performance.now() - first;
    const warm: number[] = [];
    for (const expression of expressions) {
      const started = performance.now();
      const answer = await evaluator.evaluate(expression, context);
      warm.push(performance.now() - started);
      const inProcess = JSON.parse(JSON.stringify((await jsonata(expression).evaluate(context)) ?? null));
      expect(answer, expression).toEqual(inProcess);
    }
    console.info(`expression evaluator: first ${coldMs.toFixed(1)} ms, warm ${warm.map((m) => m.toFixed(2)).join(', ')} ms`);
    // A warm thread answers without a thread start (one costs some 100-300 ms here).
    expect(Math.max(...warm)).toBeLessThan(50);
  });

  it('stops a catastrophic regular expression at the time limit, and this thread keeps turning meanwhile', async () => {
    const { result, stallMs, ms } = await longestStall(() => evaluator.evaluate(CATASTROPHIC, context));
    console.info(`catastrophic regex: stopped after ${ms.toFixed(0)} ms; longest event-loop stall ${stallMs.toFixed(0)} ms`);
    expect(result.status).toBe('rejected');
    const err = (result as PromiseRejectedResult).reason;
    expect(err).toBeInstanceOf(ExpressionTimeout);
    expect(err.message).toBe(`the expression ran longer than ${EXPRESSION_LIMITS.timeMs} ms and was stopped`);
    expect(ms).toBeGreaterThanOrEqual(EXPRESSION_LIMITS.timeMs - 5);
    expect(ms).toBeLessThan(EXPRESSION_LIMITS.timeMs + 1_500);
    // In-process, the regex would hold this thread for minutes; here only scheduling noise remains.
    expect(stallMs).toBeLessThan(EXPRESSION_LIMITS.timeMs / 4);
    // The terminated thread is replaced: the next expression answers.
    expect(await evaluator.evaluate('$sum(intake.n)', context)).toBe(6);
  });

  it('keeps the depth limit: an unbounded recursion fails naming it, not the clock', async () => {
    const recursion = '($f := function($n) { $n = 0 ? 0 : 1 + $f($n - 1) }; $f(100000))';
    await expect(evaluator.evaluate(recursion, context)).rejects.toThrow(
      new ExpressionError(`the expression recursed deeper than ${EXPRESSION_LIMITS.depth} levels`),
    );
    await expect(evaluator.evaluate(recursion, context)).rejects.not.toBeInstanceOf(ExpressionTimeout);
    // Within the limit the same function answers.
    expect(await evaluator.evaluate('($f := function($n) { $n = 0 ? 0 : 1 + $f($n - 1) }; $f(50))', context)).toBe(50);
  });

  it('fails an expression that does not parse, or that raises, with the message of the old evaluator', async () => {
    await expect(evaluator.evaluate('{ "a": ', context)).rejects.toThrow(/^the expression does not parse: /);
    await expect(evaluator.evaluate('$error("asked to fail")', context)).rejects.toThrow('the expression failed: asked to fail');
  });

  it('stops an expression that outgrows its thread heap, and the process lives on', async () => {
    // A longer clock than production's so that the heap limit, not the time limit, is what stops it.
    const roomy = new ExpressionEvaluator({ ...EXPRESSION_LIMITS, timeMs: 30_000 });
    try {
      await expect(roomy.evaluate('$length($pad("", 200000000))', context)).rejects.toThrow(
        new ExpressionError(`the expression needed more than ${EXPRESSION_LIMITS.memoryMb} MB of memory and was stopped`),
      );
      expect(await roomy.evaluate('$length($pad("", 1000))', context)).toBe(1000);
    } finally {
      await roomy.close();
    }
  });

  it('counts the limit from when a thread starts an expression, not while it waits behind runaway ones', async () => {
    const tight = new ExpressionEvaluator({ ...EXPRESSION_LIMITS, timeMs: 400 });
    try {
      const runaways = [1, 2, 3, 4, 5].map(() => tight.evaluate(CATASTROPHIC, context));
      const ordinary = tight.evaluate('$sum(intake.n)', context);
      const settled = await Promise.allSettled(runaways);
      expect(settled.every((s) => s.status === 'rejected' && s.reason instanceof ExpressionTimeout)).toBe(true);
      expect(await ordinary).toBe(6);
    } finally {
      await tight.close();
    }
  });

  it('starts afresh after close', async () => {
    const once = new ExpressionEvaluator();
    expect(await once.evaluate('1 + 1', context)).toBe(2);
    await once.close();
    expect(await once.evaluate('2 + 2', context)).toBe(4);
    await once.close();
  });
});
