import { Context } from '@temporalio/activity';

/** What a step's attempt reports with its heartbeats (carried-answers.ts): read back by the next attempt. */
export class AttemptHeartbeat {
  details: () => unknown = () => undefined;
}

const beats = new WeakMap<object, AttemptHeartbeat>();

/** The heartbeat of the activity running now, when it is one `heartbeating` wraps. */
export function attemptHeartbeat(): AttemptHeartbeat | undefined {
  return beats.get(Context.current());
}

/**
 * Sends heartbeats for the whole of an activity, every 2 s, from before its first read to after its last
 * write: a dead worker is noticed within the heartbeat timeout, and a live one waiting for the database or
 * storage to come back is never taken for dead (its attempt then keeps what it bought instead of a second
 * attempt buying it again beside it). Each heartbeat carries the attempt's details. Wrapping twice beats once.
 */
export function heartbeating<I extends unknown[], O>(activity: (...input: I) => Promise<O>): (...input: I) => Promise<O> {
  return async (...input: I) => {
    const ctx = Context.current();
    if (beats.has(ctx)) return activity(...input);
    const beat = new AttemptHeartbeat();
    // Until the attempt says what it holds, it passes on what the one before carried: an attempt that
    // fails before its step begins (the database still away) must not leave the next one empty-handed.
    beat.details = () => ctx.info.heartbeatDetails;
    beats.set(ctx, beat);
    const timer = setInterval(() => ctx.heartbeat(beat.details()), 2_000);
    try {
      return await activity(...input);
    } finally {
      clearInterval(timer);
      beats.delete(ctx);
    }
  };
}
