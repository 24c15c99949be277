import { describe, expect, it } from 'vitest';
import { TryAgain, withRetries } from '../src/providers/http-attempt.js';
import { PermanentProviderError, ProviderThrottledError, TransientProviderError } from '../src/providers/types.js';

describe('withRetries, the provider calls’ retry loop', () => {
  it('tries as many times as it is given, then fails transiently naming the provider and the last reason', async () => {
    const seen: number[] = [];
    const started = Date.now();
    const call = withRetries('Acme', 3, undefined, async (attempt) => {
      seen.push(attempt);
      return new TryAgain(`503: busy (try ${attempt})`, 0);
    });
    await expect(call).rejects.toThrow(TransientProviderError);
    await expect(call).rejects.toThrow('Acme kept failing after 3 attempts (503: busy (try 3))');
    expect(seen).toEqual([1, 2, 3]);
    // Asked for no wait, none is made: the default back-off would be 375 ms at the least over the two gaps.
    expect(Date.now() - started).toBeLessThan(200);
  });

  it('answers with the first value an attempt returns, without further attempts', async () => {
    let calls = 0;
    const value = await withRetries('Acme', 5, undefined, async (attempt) => {
      calls++;
      return attempt < 2 ? new TryAgain('reset', 0) : { ok: attempt };
    });
    expect(value).toEqual({ ok: 2 });
    expect(calls).toBe(2);
  });

  it('takes a value shaped like a retry for a value: a provider’s answer cannot ask for one', async () => {
    const answer = { reason: 'overloaded', notBeforeMs: 1, tryAgain: true };
    await expect(withRetries('Acme', 3, undefined, async () => answer)).resolves.toBe(answer);
  });

  it('waits before the next attempt as long as the attempt asked', async () => {
    const at: number[] = [];
    await withRetries('Acme', 2, undefined, async (attempt) => {
      at.push(Date.now());
      return attempt === 1 ? new TryAgain('503: wait', 300) : 'done';
    });
    // Longer than the default first back-off can be (250 ms at the most), so only the asked wait explains it.
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(299);
  });

  it('does not wait after the last attempt', async () => {
    const started = Date.now();
    await expect(withRetries('Acme', 1, undefined, async () => new TryAgain('slow', 10_000))).rejects.toThrow(
      'Acme kept failing after 1 attempts (slow)',
    );
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('lets what an attempt throws through at once, unwrapped', async () => {
    const refusal = new PermanentProviderError('400: bad input', 400);
    let calls = 0;
    await expect(
      withRetries('Acme', 3, undefined, async () => {
        calls++;
        throw refusal;
      }),
    ).rejects.toBe(refusal);
    expect(calls).toBe(1);

    const throttled = new ProviderThrottledError('429: slow down', 1_000);
    await expect(
      withRetries('Acme', 3, undefined, async () => {
        throw throttled;
      }),
    ).rejects.toBe(throttled);
  });

  it('stops when the caller’s signal aborts during a wait', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled by the run');
    let calls = 0;
    const started = Date.now();
    setTimeout(() => controller.abort(reason), 20);
    await expect(
      withRetries('Acme', 3, controller.signal, async () => {
        calls++;
        return new TryAgain('busy', 5_000);
      }),
    ).rejects.toBe(reason);
    expect(calls).toBe(1);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
