import os from 'node:os';

/**
 * How many CPU-heavy media jobs (sharp decodes and encodes, the background cut-out, ffmpeg and ffprobe
 * runs) one worker process runs at once; the rest wait their turn in order. The activity slots are sized
 * for work that waits on the network (a thousand model calls cost little), so media work cannot be bounded
 * by them: a thousand encodes at once would only share the cores, hold a thousand decoded images in
 * memory and starve the event loop that the waiting calls need.
 */
export class CpuSlots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`CPU slots must be a positive integer (got ${size})`);
  }

  /** Runs `work` once a slot is free; a job cancelled while it waits (`signal`) never starts. */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  /** Jobs running and jobs waiting, for tests and diagnostics. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private acquire(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.running < this.size) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const start = () => {
        signal?.removeEventListener('abort', cancel);
        this.running++;
        resolve();
      };
      const cancel = () => {
        const at = this.waiting.indexOf(start);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', cancel, { once: true });
      this.waiting.push(start);
    });
  }

  private release(): void {
    this.running--;
    this.waiting.shift()?.();
  }
}

/** ATELIER_MEDIA_CONCURRENCY, else the cores this process may use (os.availableParallelism()). */
export function mediaConcurrencyFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.ATELIER_MEDIA_CONCURRENCY?.trim();
  if (!raw) return os.availableParallelism();
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`ATELIER_MEDIA_CONCURRENCY must be a positive integer (got "${raw}")`);
  return n;
}

let shared: CpuSlots | undefined;

/**
 * The process's media slots, shared by every worker in it (the cores are the process's, not a queue's).
 * A job must not take a second slot while it holds one: with every slot held that way, none would be freed.
 */
export function mediaSlots(): CpuSlots {
  shared ??= new CpuSlots(mediaConcurrencyFromEnv());
  return shared;
}

/** Runs one CPU-heavy media job under the process's media slots. */
export const cpuBound = <T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> => mediaSlots().run(work, signal);
