import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { CpuSlots, mediaConcurrencyFromEnv } from '../src/media/cpu-slots.js';

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));

describe('CPU slots for media work', () => {
  it('runs at most `size` jobs at once, the others in the order they came', async () => {
    const slots = new CpuSlots(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const job = (i: number) =>
      slots.run(async () => {
        started.push(i);
        most = Math.max(most, ++running);
        await tick(10);
        running--;
        return i;
      });
    expect(await Promise.all([0, 1, 2, 3, 4].map(job))).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(slots.load).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the slot of a job that throws, and never starts a job cancelled while it waits', async () => {
    const slots = new CpuSlots(1);
    const failing = slots.run(async () => {
      await tick();
      throw new Error('encode failed');
    });
    const cancel = new AbortController();
    let ranCancelled = false;
    const cancelled = slots.run(async () => {
      ranCancelled = true;
    }, cancel.signal);
    const next = slots.run(async () => 'ran');
    expect(slots.load).toEqual({ running: 1, waiting: 2 });
    cancel.abort(new Error('activity cancelled'));
    await expect(cancelled).rejects.toThrow('activity cancelled');
    expect(slots.load.waiting).toBe(1);
    await expect(failing).rejects.toThrow('encode failed');
    expect(await next).toBe('ran');
    expect(ranCancelled).toBe(false);
    await expect(slots.run(async () => 1, cancel.signal)).rejects.toThrow('activity cancelled');
  });

  it('is sized by ATELIER_MEDIA_CONCURRENCY, else by the cores', () => {
    expect(mediaConcurrencyFromEnv({})).toBe(os.availableParallelism());
    expect(mediaConcurrencyFromEnv({ ATELIER_MEDIA_CONCURRENCY: '3' })).toBe(3);
    expect(() => mediaConcurrencyFromEnv({ ATELIER_MEDIA_CONCURRENCY: '0' })).toThrow(/positive integer/);
    expect(() => new CpuSlots(0)).toThrow(/positive integer/);
  });
});
