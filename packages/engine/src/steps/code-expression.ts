import { availableParallelism } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import Tinypool from 'tinypool';
import type { RunContext } from '@atelier/domain/run-context';

/**
 * JSONata expressions over the run context `{ intake, inputs, steps }` for `code` steps, evaluated in
 * worker threads so that user code cannot stall the process it runs in. JSONata's own hooks can only look
 * at the clock between evaluation nodes, and one call (a catastrophic regular expression, `/^(a+)+$/`
 * against a long near-match) runs for as long as it likes inside a single node; on the main thread that
 * stalls every activity and, where the gateway shares the process (`npm start`, the test harness), every
 * request. Here the thread running an expression is terminated when the time limit passes.
 */
export class ExpressionError extends Error {}

/** The expression ran past the time limit and its thread was terminated (errorCode `code_timeout`). */
export class ExpressionTimeout extends ExpressionError {}

export interface ExpressionLimits {
  /** Wall time one evaluation may run, counted from when its thread starts it (not while it queues). */
  timeMs: number;
  /** How deeply JSONata may nest evaluations (recursive functions), checked in the thread. */
  depth: number;
  /** The heap of one evaluation thread; an expression that needs more fails instead of growing the worker. */
  memoryMb: number;
}

export const EXPRESSION_LIMITS: ExpressionLimits = { timeMs: 2_000, depth: 300, memoryMb: 256 };

const THREAD_ENTRY = new URL('./expression-thread.mjs', import.meta.url);

type ThreadAnswer = { value: unknown } | { error: string };

/**
 * A pool of evaluation threads, started on first use. One thread stays warm so an ordinary code step pays
 * no thread start; a terminated thread is replaced. At most all cores but one evaluate at once, so a core
 * is left to the event loop even while expressions run to their limit; more expressions wait their turn.
 * The worker owns one and closes it when it stops.
 */
export class ExpressionEvaluator {
  #pool: Tinypool | undefined;

  constructor(readonly limits: ExpressionLimits = EXPRESSION_LIMITS) {}

  async evaluate(expression: string, context: RunContext): Promise<unknown> {
    const pool = (this.#pool ??= new Tinypool({
      filename: THREAD_ENTRY.href,
      minThreads: 1,
      maxThreads: Math.min(4, Math.max(1, availableParallelism() - 1)),
      idleTimeout: 60_000,
      // The entry is plain JavaScript: the threads need none of the process's loaders (tsx) or flags.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: this.limits.memoryMb },
    }));
    const stop = new AbortController();
    const { port1: started, port2: startedInThread } = new MessageChannel();
    let timer: NodeJS.Timeout | undefined;
    started.once('message', () => {
      timer = setTimeout(() => stop.abort(), this.limits.timeMs);
    });
    try {
      const answer: ThreadAnswer = await pool.run(
        { expression, context, depthLimit: this.limits.depth, started: startedInThread },
        { signal: stop.signal, transferList: [startedInThread] },
      );
      if ('error' in answer) throw new ExpressionError(answer.error);
      return answer.value;
    } catch (err) {
      if (err instanceof ExpressionError) throw err;
      if (stop.signal.aborted) throw new ExpressionTimeout(`the expression ran longer than ${this.limits.timeMs} ms and was stopped`);
      // Closing the pool ends the evaluations in flight: the worker is stopping, and another attempt runs it.
      if (pool !== this.#pool) throw err;
      // The thread died under the expression: the same expression would kill it the same way.
      if ((err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY')
        throw new ExpressionError(`the expression needed more than ${this.limits.memoryMb} MB of memory and was stopped`);
      throw new ExpressionError(`the expression stopped its evaluation thread: ${(err as Error).message}`);
    } finally {
      clearTimeout(timer);
      started.close();
    }
  }

  /** Ends the threads; an evaluation after this starts a new pool. */
  async close(): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    await pool?.destroy();
  }
}
