import type { Info } from '@temporalio/activity';
import {
  ActivityCancelledError,
  ActivityCompletionError,
  ActivityNotFoundError,
  ActivityPausedError,
  ActivityResetError,
} from '@temporalio/client';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { DetachedSteps } from '../src/activities/detached-steps.js';
import { endsAttempt } from '../src/activities/step-attempt.js';

const info = { activityId: '1', workflowExecution: { workflowId: 'run-1', runId: 'r' } } as Info;
const quiet = pino({ level: 'silent' });

/** A promise with its resolve, standing for an attempt's report of its outcome. */
function report() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const settledSoon = (p: Promise<unknown>) =>
  Promise.race([
    p.then(
      () => 'settled',
      () => 'rejected',
    ),
    new Promise((r) => setTimeout(() => r('waiting'), 30)),
  ]);

describe('DetachedSteps', () => {
  it('admits up to its limit, then one more each time an attempt in flight reports', async () => {
    const counts: number[] = [];
    const steps = new DetachedSteps(2, quiet, (n) => counts.push(n));
    const reports = [report(), report()];
    for (const r of reports) {
      await steps.admit(new AbortController().signal);
      steps.track(r.promise, new AbortController(), info);
    }
    const third = steps.admit(new AbortController().signal);
    expect(await settledSoon(third)).toBe('waiting');
    reports[0]!.resolve();
    expect(await settledSoon(third)).toBe('settled');
    expect(steps.size).toBe(1);
    expect(counts).toEqual([1, 2, 1]);
  });

  it('counts an admitted attempt against the limit before it is tracked', async () => {
    const steps = new DetachedSteps(1, quiet);
    await steps.admit(new AbortController().signal);
    expect(await settledSoon(steps.admit(new AbortController().signal))).toBe('waiting');
  });

  it('lets a waiting attempt cancelled in its slot give its turn up', async () => {
    const steps = new DetachedSteps(1, quiet);
    const first = report();
    await steps.admit(new AbortController().signal);
    steps.track(first.promise, new AbortController(), info);
    const cancelled = new AbortController();
    const gaveUp = steps.admit(cancelled.signal);
    const next = steps.admit(new AbortController().signal);
    cancelled.abort(new Error('cancelled'));
    await expect(gaveUp).rejects.toThrow('cancelled');
    first.resolve();
    expect(await settledSoon(next)).toBe('settled');
  });

  it('gives the room of an attempt that ended in its slot to the next one, and counts where each ended', async () => {
    const ended: string[] = [];
    const steps = new DetachedSteps(1, quiet, undefined, (where) => ended.push(where));
    await steps.admit(new AbortController().signal);
    const next = steps.admit(new AbortController().signal);
    expect(await settledSoon(next)).toBe('waiting');
    steps.release();
    expect(await settledSoon(next)).toBe('settled');
    steps.track(report().promise, new AbortController(), info);
    expect(steps.size).toBe(1);
    expect(ended).toEqual(['slot', 'detached']);
  });

  it('keeps an attempt whose report failed from holding its place', async () => {
    const steps = new DetachedSteps(1, quiet);
    await steps.admit(new AbortController().signal);
    steps.track(Promise.reject(new Error('server away')), new AbortController(), info);
    expect(await settledSoon(steps.admit(new AbortController().signal))).toBe('settled');
  });

  it('drains: waits for attempts to report, then stops the rest and waits for their reports', async () => {
    const steps = new DetachedSteps(10, quiet);
    const quick = report();
    const stop = new AbortController();
    // Reports only once stopped, as an attempt does when its signal ends its provider call.
    const stuck = new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => setTimeout(resolve, 10)));
    for (const [r, s] of [
      [quick.promise, new AbortController()],
      [stuck, stop],
    ] as const) {
      await steps.admit(new AbortController().signal);
      steps.track(r, s, info);
    }
    setTimeout(quick.resolve, 20);
    const began = Date.now();
    await steps.drain(200, 1_000);
    expect(Date.now() - began).toBeGreaterThanOrEqual(190);
    expect(stop.signal.aborted).toBe(true);
    expect(steps.size).toBe(0);
  });
});

describe('what a detached attempt makes of a heartbeat that failed', () => {
  it('stops for a cancellation, a pause, a reset or an attempt Temporal no longer knows; goes on when Temporal was unreachable', () => {
    for (const err of [
      new ActivityCancelledError('cancelled'),
      new ActivityPausedError('paused'),
      new ActivityResetError('reset'),
      new ActivityNotFoundError('Not found'),
    ])
      expect(endsAttempt(err), err.constructor.name).toBe(true);
    // What the client throws for any other gRPC error, a server away past the connection's retries among them.
    expect(endsAttempt(new ActivityCompletionError('14 UNAVAILABLE: connection refused'))).toBe(false);
    expect(endsAttempt(new Error('socket hang up'))).toBe(false);
  });
});
