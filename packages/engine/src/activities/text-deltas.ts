import { DELTA_TEXT_MAX_CHARS, type Db, type RunOutputDelta, deltaTextBudget, notifyRunDeltas } from '@atelier/db';

/** At most one announcement of a step's output this often (a larger piece goes as several, back to back). */
export const TEXT_DELTA_INTERVAL_MS = 200;
/** How long a worker gathers the deltas of all its steps into one statement, and how many at most. */
const DELTA_BATCH_MS = 20;
const DELTA_BATCH_MAX = 200;

/**
 * Announces deltas to the gateways' event streams: NOTIFYs on the worker's pool, no row (notifyRunDeltas).
 * The deltas of all the worker's steps that come within `batchMs` go in one statement, in the order they
 * came: with 400 steps streaming, a statement each made them four in five of the worker's statements, and
 * each one a round trip that woke PostgreSQL. A failed statement fails every delta it carried.
 */
export function announceTextDeltas(db: Db): (delta: RunOutputDelta) => Promise<void> {
  return batched((deltas) => notifyRunDeltas(db, deltas));
}

/** One item at a time for callers, `sendMany` with all that came within `batchMs` (up to `max`) for the sink. */
export function batched<T>(
  sendMany: (items: T[]) => Promise<void>,
  batchMs = DELTA_BATCH_MS,
  max = DELTA_BATCH_MAX,
): (item: T) => Promise<void> {
  let batch: Array<{ item: T; resolve: () => void; reject: (err: unknown) => void }> = [];
  let timer: NodeJS.Timeout | undefined;
  const send = () => {
    clearTimeout(timer);
    timer = undefined;
    const taken = batch;
    batch = [];
    sendMany(taken.map((b) => b.item)).then(
      () => {
        for (const b of taken) b.resolve();
      },
      (err) => {
        for (const b of taken) b.reject(err);
      },
    );
  };
  return (item) =>
    new Promise<void>((resolve, reject) => {
      batch.push({ item, resolve, reject });
      if (batch.length >= max) send();
      else timer ??= setTimeout(send, batchMs);
    });
}

/** The step attempt whose output is announced. */
export interface TextDeltaTarget {
  runId: string;
  stepIndex: number;
  stepId: string;
  attempt: number;
}

export interface TextDeltaOptions {
  intervalMs?: number;
  /** Awaited before the first announcement: the step's start is written, so its deltas follow `step.started`. */
  before?: () => Promise<unknown>;
  /** An announcement that failed; the step goes on without announcing more (its output is stored all the same). */
  onError?: (err: unknown) => void;
}

/** `text` in pieces of at most `max` UTF-16 units, never between the two halves of a surrogate pair. */
export function splitText(text: string, max = DELTA_TEXT_MAX_CHARS): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let cut = max;
    const last = rest.charCodeAt(cut - 1);
    if (last >= 0xd800 && last <= 0xdbff) cut--;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest) pieces.push(rest);
  return pieces;
}

/**
 * A text step's output announced as it is written, coalesced: what the model wrote since the last
 * announcement goes out once the interval has passed since its first piece, so a step costs at most one
 * NOTIFY per interval however fast the tokens come. A step that ends before its first announcement
 * announces nothing (its completion carries the whole output); one that did announces the rest on `close`,
 * before its settlement is written, so its pieces concatenate to the output and all come before its end.
 * Announcing is best effort: a failure is reported and never fails the step.
 */
export class TextDeltaPublisher {
  private pending = '';
  private answer = 1;
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> = Promise.resolve();
  private announced = false;
  private stopped = false;
  private failed = false;

  constructor(
    private readonly target: TextDeltaTarget,
    private readonly send: (delta: RunOutputDelta) => Promise<void>,
    private readonly opts: TextDeltaOptions = {},
  ) {}

  /** A piece of answer `answer`; a new answer drops what the discarded one had not announced yet. */
  readonly push = (text: string, answer = 1): void => {
    if (this.stopped || !text) return;
    if (answer !== this.answer) {
      this.answer = answer;
      this.pending = '';
    }
    this.pending += text;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.opts.intervalMs ?? TEXT_DELTA_INTERVAL_MS);
  };

  /** The step ended: the rest is announced when anything was, and every announcement made. */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.announced) this.flush();
    this.stopped = true;
    await this.sending;
  }

  /** The attempt failed: nothing more is announced. */
  discard(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.stopped = true;
    this.pending = '';
  }

  private flush(): void {
    const text = this.pending;
    this.pending = '';
    if (!text || this.stopped) return;
    this.announced = true;
    const answer = this.answer;
    // A seq of 7 digits and the time as now: the largest a delta of this step can be but for its text.
    const budget = deltaTextBudget({ ...this.target, answer, seq: 9_999_999, at: new Date().toISOString() });
    const pieces = splitText(text, Math.max(1, budget));
    this.sending = this.sending.then(async () => {
      if (this.failed) return;
      try {
        await this.opts.before?.();
        for (const piece of pieces) await this.send({ ...this.target, answer, seq: ++this.seq, text: piece, at: new Date().toISOString() });
      } catch (err) {
        this.failed = true;
        this.stopped = true;
        this.opts.onError?.(err);
      }
    });
  }
}
