import { AsyncLocalStorage } from 'node:async_hooks';
import { CompleteAsyncError, Context, type Info, asyncLocalStorage as sdkContext } from '@temporalio/activity';
import { ActivityCancelledError, ActivityNotFoundError, ActivityPausedError, ActivityResetError, type Client } from '@temporalio/client';
import { traceStepAttempt } from '../tracing.js';
import type { DetachedSteps } from './detached-steps.js';

/**
 * One attempt of a step's activity as the step's code sees it: what Temporal says of the attempt, a client
 * of the worker's connection, the signal that stops it, and what its heartbeats carry (carried-answers.ts),
 * read back by the next attempt. The same whether the SDK holds the attempt in a slot or it runs detached.
 */
export interface StepAttempt {
  readonly info: Info;
  readonly client: Client;
  readonly signal: AbortSignal;
  details: () => unknown;
}

const attempts = new AsyncLocalStorage<StepAttempt>();

/** How often an attempt the SDK holds in a slot heartbeats. */
const SLOT_HEARTBEAT_MS = 2_000;

/** The attempt running now: one `heartbeating` or `detached` began, else the SDK's own activity context. */
export function currentAttempt(): StepAttempt {
  const attempt = attempts.getStore();
  if (attempt) return attempt;
  const ctx = Context.current();
  return { info: ctx.info, client: ctx.client, signal: ctx.cancellationSignal, details: () => ctx.info.heartbeatDetails };
}

/** An attempt that, until it says what it holds, passes on what the one before carried. */
function attemptOf(info: Info, client: Client, signal: AbortSignal): StepAttempt {
  // An attempt that fails before its step begins (the database still away) must not leave the next one empty-handed.
  return { info, client, signal, details: () => info.heartbeatDetails };
}

/**
 * Sends heartbeats for the whole of an activity the SDK holds in a slot, every 2 s, from before its first
 * read to after its last write: a dead worker is noticed within the heartbeat timeout, and a live one waiting
 * for the database or storage to come back is never taken for dead (its attempt then keeps what it bought
 * instead of a second attempt buying it again beside it). Each heartbeat carries the attempt's details.
 * Wrapping twice, or around a detached attempt, beats once.
 */
export function heartbeating<I extends unknown[], O>(activity: (...input: I) => Promise<O>): (...input: I) => Promise<O> {
  return async (...input: I) => {
    if (attempts.getStore()) return activity(...input);
    const ctx = Context.current();
    const attempt = attemptOf(ctx.info, ctx.client, ctx.cancellationSignal);
    const timer = setInterval(() => ctx.heartbeat(attempt.details()), SLOT_HEARTBEAT_MS);
    try {
      return await attempts.run(attempt, () => activity(...input));
    } finally {
      clearInterval(timer);
    }
  };
}

/**
 * How long an attempt runs in its slot before it detaches. A step that ends sooner (a quick model call, a
 * code step) is reported by the SDK with its task, which costs the worker less than a report of its own
 * through the client; the SDK's activity machinery is held that long at most.
 */
export const DETACH_AFTER_MS = 250;

/**
 * Runs each attempt of `activity` detached from the worker's slot (asynchronous completion) once it has run
 * `detachAfterMs` in it: the slot is handed back and the attempt reports its result, its failure and its
 * heartbeats through the worker's client with its task token. A step waiting minutes on its provider then
 * costs the worker its own promises, not the SDK's pipeline of an activity in flight. One that ends sooner
 * is reported with its slot, as the SDK reports any activity. While `steps` is full an attempt waits for room
 * in its slot, heartbeating as a slot's attempt does.
 *
 * Heartbeats go every half heartbeat timeout, the first after as long: a step that ends sooner sends none. A
 * heartbeat answered with a cancellation, a pause, a reset, or an attempt Temporal no longer knows (timed out,
 * taken for dead) stops the attempt through its signal, as the SDK's cancellation would (endsAttempt). One
 * that could not be sent (Temporal away) is tried again a second later, and the attempt goes on.
 */
export function detached<I extends unknown[], O>(
  steps: DetachedSteps,
  activity: (...input: I) => Promise<O>,
  detachAfterMs = DETACH_AFTER_MS,
): (...input: I) => Promise<O> {
  return async (...input: I) => {
    if (attempts.getStore()) return activity(...input);
    const ctx = Context.current();
    const { info, client, cancellationSignal } = ctx;
    // Waiting in its slot for room, it heartbeats as a slot's attempt does, passing on what the one before
    // carried: a wait longer than the heartbeat timeout would otherwise be taken for a dead worker.
    const waiting = steps.hasRoom ? undefined : setInterval(() => ctx.heartbeat(info.heartbeatDetails), SLOT_HEARTBEAT_MS);
    try {
      await steps.admit(cancellationSignal);
    } finally {
      clearInterval(waiting);
    }
    // Begun, waited for and detached outside the SDK's context: a promise or timer made inside it keeps that
    // context, and through it the slot's activity and its pipeline, alive for as long as a detached attempt runs.
    const attempt = sdkContext.exit(() => new SlotAttempt(info, client, cancellationSignal, () => activity(...input)));
    const ended = await sdkContext.exit(() => attempt.endsWithin(detachAfterMs));
    if (ended) {
      steps.release();
      if (ended.ok) return ended.value as O;
      throw ended.error;
    }
    sdkContext.exit(() => attempt.detach(steps));
    throw new CompleteAsyncError();
  };
}

type Ended = { ok: true; value: unknown } | { ok: false; error: unknown };

/** An attempt begun in its slot, which either ends there or detaches from it. */
class SlotAttempt {
  private readonly stop = new AbortController();
  private readonly attempt: StepAttempt;
  private readonly outcome: Promise<unknown>;
  /** Ends the SDK's hold on the attempt; once called, the attempt keeps nothing of the slot's activity. */
  private leaveSlot: (() => void) | undefined;

  constructor(
    private readonly info: Info,
    private readonly client: Client,
    slotSignal: AbortSignal,
    run: () => Promise<unknown>,
  ) {
    // In its slot, the SDK's cancellation (a stopping worker) stops it as it would any activity.
    const cancelled = () => this.stop.abort(slotSignal.reason);
    slotSignal.addEventListener('abort', cancelled, { once: true });
    this.leaveSlot = () => slotSignal.removeEventListener('abort', cancelled);
    this.attempt = attemptOf(info, client, this.stop.signal);
    this.outcome = attempts.run(this.attempt, () => traceStepAttempt(info.activityType, run));
  }

  private left(): void {
    this.leaveSlot?.();
    this.leaveSlot = undefined;
  }

  /** The attempt's end if it comes within `ms`; a failure has sent what the attempt bought in a last heartbeat. */
  async endsWithin(ms: number): Promise<Ended | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), ms);
    });
    const settled = this.outcome.then(
      (value): Ended => ({ ok: true, value }),
      (error): Ended => ({ ok: false, error }),
    );
    const ended = await Promise.race([settled, late]).finally(() => clearTimeout(timer));
    if (!ended) return undefined;
    this.left();
    if (!ended.ok) await this.carryDetails();
    return ended;
  }

  /** What the attempt bought goes with it to the next attempt, as the slot's last heartbeat would carry it. */
  private async carryDetails(): Promise<void> {
    const details = this.attempt.details();
    if (details !== undefined) await this.client.activity.heartbeat(this.info.taskToken, details).catch(() => undefined);
  }

  /** From here on the attempt heartbeats and reports through the client; `steps` keeps it until it has reported. */
  detach(steps: DetachedSteps): void {
    this.left();
    const { client, info, stop, attempt } = this;
    const token = info.taskToken;
    let retry: NodeJS.Timeout | undefined;
    const beat = (): void => {
      clearTimeout(retry);
      client.activity.heartbeat(token, attempt.details()).catch((err) => {
        if (stop.signal.aborted) return;
        if (endsAttempt(err)) stop.abort(err);
        else retry = setTimeout(beat, HEARTBEAT_RETRY_MS);
      });
    };
    const timer = setInterval(beat, Math.max(1_000, (info.heartbeatTimeoutMs ?? 30_000) / 2));
    const reported = this.outcome
      .then(
        (result) => client.activity.complete(token, result),
        async (err) => {
          // Stopped because the workflow cancelled the step: reported as cancelled, as the SDK would.
          if (stop.signal.reason instanceof ActivityCancelledError) return client.activity.reportCancellation(token, attempt.details());
          await this.carryDetails();
          await client.activity.fail(token, err);
        },
      )
      .finally(() => {
        clearInterval(timer);
        clearTimeout(retry);
      });
    steps.track(reported, stop, info);
  }
}

/** How soon a heartbeat that could not be sent is tried again. */
const HEARTBEAT_RETRY_MS = 1_000;

/**
 * Whether a heartbeat's error ends the attempt: the workflow cancelled it, an operator paused or reset it, or
 * Temporal no longer knows it. Anything else (Temporal unreachable for a while) leaves it running.
 */
export function endsAttempt(err: unknown): boolean {
  return (
    err instanceof ActivityCancelledError ||
    err instanceof ActivityPausedError ||
    err instanceof ActivityResetError ||
    err instanceof ActivityNotFoundError
  );
}
