import { setTimeout as sleep } from 'node:timers/promises';
import { classifyDbError } from '@atelier/db';
import { type ObjectStorage, isStorageOutage } from '@atelier/storage';

/** A dependency whose outage a step waits out: the platform's, not the step's own failure. */
export type Dependency = 'database' | 'storage';

/** Which dependency `err` says is unavailable, if any (of `only`, when given). */
export function outageOf(err: unknown, only?: Dependency): Dependency | undefined {
  if (only !== 'storage' && classifyDbError(err) === 'unavailable') return 'database';
  if (only !== 'database' && isStorageOutage(err)) return 'storage';
  return undefined;
}

/** Storage was unavailable for longer than a step waits within its attempt: retried like a database outage, never counted. */
export class StorageUnavailableError extends Error {
  readonly code = 'storage_unavailable';
  constructor(override readonly cause: unknown) {
    super(`storage unavailable: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'StorageUnavailableError';
  }
}

export interface OutageWait {
  /** Ends the wait (the attempt is cancelled or timed out): the last failure is thrown. */
  signal?: AbortSignal;
  /** How long an outage is waited out within the attempt before its failure is thrown all the same. */
  maxMs?: number;
  /** When the wait ends at the latest (epoch ms): before the attempt's own timeout, which would drop what it holds. */
  until?: number;
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** The one dependency `work` uses (its outages only are waited out); both by default. */
  dependency?: Dependency;
  /** Each failure waited out, with the delay before the next try. */
  onWait?: (dependency: Dependency, err: unknown, delayMs: number) => void;
}

/**
 * Within an attempt that holds something it paid for (a model's answer, a generated image), the database
 * or storage being unavailable is waited out, not thrown: `work` is tried again with backoff (250 ms
 * doubling to 5 s) while the outage lasts, up to `maxMs` (10 minutes: the step's attempt may run 15) and
 * never past `until`, so what was bought is written down and used instead of bought again by the next
 * attempt. Any other failure is thrown at once. `work` must be safe to repeat (its writes idempotent).
 */
export async function waitOutOutages<T>(work: () => Promise<T>, opts: OutageWait = {}): Promise<T> {
  const maxMs = opts.maxMs ?? 10 * 60_000;
  const maxDelayMs = opts.maxDelayMs ?? 5_000;
  const until = opts.until !== undefined && Number.isFinite(opts.until) ? opts.until : Number.POSITIVE_INFINITY;
  const deadline = Math.min(Date.now() + maxMs, until);
  let delayMs = opts.firstDelayMs ?? 250;
  for (;;) {
    try {
      return await work();
    } catch (err) {
      const dependency = outageOf(err, opts.dependency);
      if (!dependency || opts.signal?.aborted || Date.now() + delayMs > deadline) throw err;
      opts.onWait?.(dependency, err, delayMs);
      try {
        await sleep(delayMs, undefined, opts.signal ? { signal: opts.signal } : undefined);
      } catch {
        throw err;
      }
      delayMs = Math.min(delayMs * 2, maxDelayMs);
    }
  }
}

/**
 * `storage` whose writes and reads wait out the storage's outages (a put is idempotent: write then rename,
 * or one object; a get and a delete are too). An outage longer than the wait fails the attempt with
 * StorageUnavailableError, which the retry budget does not count. A missing object is no outage.
 */
export function patientStorage<S extends ObjectStorage>(storage: S, opts: OutageWait): S {
  const patiently = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await waitOutOutages(work, { ...opts, dependency: 'storage' });
    } catch (err) {
      throw isStorageOutage(err) ? new StorageUnavailableError(err) : err;
    }
  };
  const patient: Partial<ObjectStorage> = {
    put: (key, bytes, contentType) => patiently(() => storage.put(key, bytes, contentType)),
    get: (key) => patiently(() => storage.get(key)),
    delete: (key) => patiently(() => storage.delete(key)),
  };
  return new Proxy(storage, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && prop in patient) return patient[prop as keyof ObjectStorage];
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
