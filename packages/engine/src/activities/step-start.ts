import {
  type Db,
  type RunRow,
  type RunSettledRow,
  type RunSettledWithStep,
  type RunStepRow,
  type StepSettlement,
  type StepStart,
  settleRunWithStep,
  settleStartedStep,
  settleStep,
  settleStepReturningRun,
  startStep,
} from '@atelier/db';

/**
 * How long a step runs before its start is written on its own. Most steps (code, tools, a fast model)
 * finish well within it, and their start is written with their settlement, one statement and one round
 * trip instead of two; a step still running by then shows as running from then on, as if it had just
 * begun. Short enough that nobody watching a run sees the difference.
 */
export const STEP_START_DEFER_MS = 250;

/**
 * When one attempt of a step writes its start. Not before it runs: the start is written once the step has
 * run `deferMs` (then observers see it running; 0: never on a timer), before anything else the attempt
 * writes (a provider call's record refers to the step's row: `now()`), or with the settlement when neither
 * came first. A retry asks `now()` at once, since the row says what the earlier attempt did.
 */
export class StepStartRecord {
  /** When the attempt began: the step's `started_at` when the start is written with the settlement. */
  readonly at = new Date();
  private written: Promise<RunStepRow> | undefined;
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly start: StepStart,
    deferMs: number,
  ) {
    if (deferMs <= 0) return;
    this.timer = setTimeout(() => {
      // A failed write fails the attempt when it settles (it awaits the same promise).
      this.now().catch(() => undefined);
    }, deferMs);
    this.timer.unref();
  }

  /** A step resumed after its provider job: its start was written by the execution that submitted the job. */
  static resumed(db: Db, start: StepStart, row: RunStepRow): StepStartRecord {
    const record = new StepStartRecord(db, start, 0);
    record.written = Promise.resolve(row);
    return record;
  }

  /** The step's row, its start written now unless it was. A write that failed (the database away) is tried again by the next call. */
  now(): Promise<RunStepRow> {
    clearTimeout(this.timer);
    if (!this.written) {
      const written = startStep(this.db, this.start);
      this.written = written;
      written.catch(() => {
        if (this.written === written) this.written = undefined;
      });
    }
    return this.written;
  }

  /**
   * Settles the step, its start with it when not written yet. `earlier` is the step's row when the start
   * found it settled by an earlier execution (then nothing is settled again); `run` is the run as the
   * settlement left it, with `returnRun`. With `settlesRun` (a last step that completed its run), the
   * run's settlement goes in the same statement when it can (settleRunWithStep), and `settled` says how the
   * run settled; otherwise the caller settles the run after.
   */
  async settle(
    s: StepSettlement,
    returnRun: boolean,
    settlesRun?: RunSettledWithStep,
  ): Promise<{ run?: RunRow; earlier?: RunStepRow; settled?: RunSettledRow }> {
    if (!this.written) {
      clearTimeout(this.timer);
      const start = { ...this.start, at: this.at };
      const settled = settlesRun && (await settleRunWithStep(this.db, { ...s, start }, settlesRun));
      if (settled) return { settled };
      const done = await settleStartedStep(this.db, { ...s, start }, returnRun);
      if (done) return done === true ? {} : { run: done };
      // The step was begun before, or its run is not waiting or running: the two statements decide.
    }
    const row = await this.now();
    if (row.status !== 'pending') return { earlier: row };
    if (returnRun) return { run: await settleStepReturningRun(this.db, s) };
    await settleStep(this.db, s);
    return {};
  }
}
