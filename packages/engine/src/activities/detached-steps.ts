import type { Info } from '@temporalio/activity';
import type { Logger } from 'pino';

/**
 * The step attempts a worker runs detached from its slots (step-attempt.ts `detached`): at most `limit` at
 * once, bounded by the worker's memory rather than by Temporal's slots. The worker drains them when it stops:
 * their results are reported before the connection closes, and what is still waiting after the grace time is
 * stopped and reported failed, for Temporal to retry on another worker.
 */
export class DetachedSteps {
  private readonly inFlight = new Map<Promise<unknown>, AbortController>();
  private readonly waiting: Array<() => void> = [];
  /** Admitted, not yet tracked. */
  private reserved = 0;

  constructor(
    readonly limit: number,
    private readonly logger: Logger,
    /** Called with the number in flight whenever it changes (a gauge). */
    private readonly onCount: (n: number) => void = () => undefined,
    /** Called once an admitted attempt ends in its slot (`release`) or detaches (`track`): a counter. */
    private readonly onAttempt: (ended: 'slot' | 'detached') => void = () => undefined,
  ) {}

  get size(): number {
    return this.inFlight.size;
  }

  /** Whether `admit` would resolve at once. */
  get hasRoom(): boolean {
    return this.inFlight.size + this.reserved < this.limit;
  }

  /** Resolves when there is room for one more; an attempt cancelled meanwhile gives its turn up. */
  admit(signal: AbortSignal): Promise<void> {
    if (this.hasRoom) {
      this.reserved++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const turn = () => {
        signal.removeEventListener('abort', giveUp);
        this.reserved++;
        resolve();
      };
      const giveUp = () => {
        const at = this.waiting.indexOf(turn);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', giveUp, { once: true });
      this.waiting.push(turn);
    });
  }

  /** Gives an admitted attempt's room back: it ended in its slot without detaching. */
  release(): void {
    this.onAttempt('slot');
    this.reserved--;
    this.waiting.shift()?.();
  }

  /** Keeps `reported` (an admitted attempt's report of its outcome) until it settles; `stop` ends it early. */
  track(reported: Promise<unknown>, stop: AbortController, info: Info): void {
    this.onAttempt('detached');
    this.reserved--;
    const done = reported
      .catch((err) =>
        // Not reported (the attempt was taken for dead meanwhile, or the server is away): Temporal's timeouts retry it.
        this.logger.warn(
          { err, workflowId: info.workflowExecution?.workflowId, activityId: info.activityId },
          'step attempt outcome not reported',
        ),
      )
      .finally(() => {
        this.inFlight.delete(done);
        this.onCount(this.inFlight.size);
        this.waiting.shift()?.();
      });
    this.inFlight.set(done, stop);
    this.onCount(this.inFlight.size);
  }

  /**
   * Waits up to `graceMs` for the attempts in flight to end and report; then stops the rest and waits up to
   * `reportMs` more for their failures to be reported.
   */
  async drain(graceMs: number, reportMs = 5_000): Promise<void> {
    if (this.inFlight.size === 0) return;
    this.logger.info({ inFlight: this.inFlight.size, graceMs }, 'waiting for detached step attempts to end');
    if (await settledWithin([...this.inFlight.keys()], graceMs)) return;
    this.logger.warn({ inFlight: this.inFlight.size }, 'stopping detached step attempts still running; Temporal retries them');
    for (const stop of this.inFlight.values()) stop.abort(new Error('worker shutting down'));
    await settledWithin([...this.inFlight.keys()], reportMs);
  }
}

async function settledWithin(promises: Array<Promise<unknown>>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([Promise.allSettled(promises).then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
