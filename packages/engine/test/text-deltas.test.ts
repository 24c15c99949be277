import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunOutputDelta } from '@atelier/db';
import { TextDeltaPublisher, batched, splitText } from '../src/activities/text-deltas.js';

const target = { runId: 'run-1', stepIndex: 2, stepId: 'step-3', attempt: 1 };

describe('a step output announced as it is written', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('coalesces pieces to one announcement per interval, after the step start, and the rest on close', async () => {
    const sent: RunOutputDelta[] = [];
    const before = vi.fn(async () => undefined);
    const deltas = new TextDeltaPublisher(target, async (d) => void sent.push(d), { intervalMs: 200, before });
    for (let i = 0; i < 10; i++) {
      deltas.push(`w${i} `);
      await vi.advanceTimersByTimeAsync(50);
    }
    // 10 pieces over 500 ms: two announcements so far (at 200 and 400 ms after the first pieces).
    expect(sent.map((d) => d.seq)).toEqual([1, 2]);
    deltas.push('end');
    await deltas.close();
    expect(sent.map((d) => d.seq)).toEqual([1, 2, 3]);
    expect(sent.map((d) => d.text).join('')).toBe(`${Array.from({ length: 10 }, (_, i) => `w${i} `).join('')}end`);
    expect(sent[0]).toMatchObject({ ...target, answer: 1 });
    expect(before).toHaveBeenCalled();
  });

  it('announces nothing for a step that ends within its first interval', async () => {
    const send = vi.fn(async () => undefined);
    const deltas = new TextDeltaPublisher(target, send, { intervalMs: 200 });
    deltas.push('all at once');
    await vi.advanceTimersByTimeAsync(100);
    await deltas.close();
    await vi.advanceTimersByTimeAsync(1000);
    expect(send).not.toHaveBeenCalled();
  });

  it('starts over with a new answer, and never fails the step when announcing does', async () => {
    const sent: RunOutputDelta[] = [];
    const errors: unknown[] = [];
    let fail = false;
    const deltas = new TextDeltaPublisher(
      target,
      async (d) => {
        if (fail) throw new Error('database away');
        sent.push(d);
      },
      { intervalMs: 100, onError: (err) => errors.push(err) },
    );
    deltas.push('{"bad"', 1);
    await vi.advanceTimersByTimeAsync(100);
    deltas.push('{"good"', 2);
    await vi.advanceTimersByTimeAsync(100);
    expect(sent.map((d) => [d.answer, d.text])).toEqual([
      [1, '{"bad"'],
      [2, '{"good"'],
    ]);
    fail = true;
    deltas.push(': true}', 2);
    await vi.advanceTimersByTimeAsync(100);
    deltas.push('more');
    await expect(deltas.close()).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
  });

  it('cuts large text into pieces that fit a NOTIFY, never inside a surrogate pair', async () => {
    expect(splitText('abcdef', 4)).toEqual(['abcd', 'ef']);
    expect(splitText('abc😀def', 4)).toEqual(['abc', '😀de', 'f']);
    const sent: RunOutputDelta[] = [];
    const deltas = new TextDeltaPublisher(target, async (d) => void sent.push(d), { intervalMs: 100 });
    const big = '\u0001'.repeat(2500);
    deltas.push(big);
    await vi.advanceTimersByTimeAsync(100);
    await deltas.close();
    expect(sent.map((d) => d.text).join('')).toBe(big);
    for (const d of sent) expect(Buffer.byteLength(JSON.stringify(d))).toBeLessThan(8000);
    expect(sent.length).toBeGreaterThan(1);
  });
});

describe("the worker's deltas gathered into statements", () => {
  it('sends what came within the window in one call, in order, and each caller hears when it went', async () => {
    const calls: number[][] = [];
    const send = batched<number>(
      async (items) => {
        calls.push(items);
      },
      20,
      100,
    );
    const sent = [1, 2, 3].map((n) => send(n));
    await Promise.all(sent);
    await send(4);
    expect(calls).toEqual([[1, 2, 3], [4]]);
  });

  it('sends at once when the batch is full', async () => {
    const calls: number[][] = [];
    const send = batched<number>(async (items) => void calls.push(items), 60_000, 2);
    await Promise.all([send(1), send(2)]);
    expect(calls).toEqual([[1, 2]]);
  });

  it('fails every caller whose item the failed call carried, and the next batch goes on', async () => {
    let fail = true;
    const send = batched<number>(async () => {
      if (fail) throw new Error('database away');
    }, 5);
    const results = await Promise.allSettled([send(1), send(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    await expect(send(3)).resolves.toBeUndefined();
  });
});
