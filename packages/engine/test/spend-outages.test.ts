import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asyncLocalStorage } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LOCAL_MODELS, OPENAI_MODELS } from '@atelier/domain';
import { LocalStorage, ObjectNotFoundError, type ObjectStorage, isStorageOutage } from '@atelier/storage';
import { heartbeating } from '../src/activities/step-attempt.js';
import { CarriedAnswers } from '../src/activities/carried-answers.js';
import { StorageUnavailableError, outageOf, patientStorage, waitOutOutages } from '../src/activities/outage-wait.js';
import { ProviderCallLog } from '../src/activities/provider-call-log.js';
import { withRetryBudget } from '../src/activities/retry-budget.js';
import { createWorkerMetrics } from '../src/metrics.js';
import { type AnsweredCall, createProviders, keyedProviders } from '../src/providers/index.js';
import { createOpenAiProvider } from '../src/providers/openai/index.js';
import { type OpenAiLoopback, completion, startOpenAiLoopback } from './support/openai-loopback.js';

const errno = (code: string) => Object.assign(new Error(code), { code });
const fast = { firstDelayMs: 5, maxDelayMs: 20 };

/** Runs `work` as an activity attempt would: Context.current() answers with `attempt` and records heartbeats. */
function asActivity<T>(attempt: number, work: () => Promise<T>, heartbeats: unknown[] = [], heartbeatDetails?: unknown): Promise<T> {
  const ctx = {
    info: { attempt, heartbeatDetails },
    heartbeat: (details: unknown) => heartbeats.push(details),
    cancellationSignal: new AbortController().signal,
  };
  return asyncLocalStorage.run(ctx as never, work);
}

describe('what counts as an outage', () => {
  it('storage: a full, read-only or missing volume and a bucket’s 408/429/5xx; not a bad key or a missing object', () => {
    for (const code of ['ENOSPC', 'EROFS', 'EIO', 'ENOTDIR', 'EACCES']) expect(isStorageOutage(errno(code))).toBe(true);
    for (const code of [503, 500, 429, 408]) expect(isStorageOutage(Object.assign(new Error('gcs'), { code }))).toBe(true);
    expect(isStorageOutage(Object.assign(new Error('gcs'), { code: 403 }))).toBe(false);
    expect(isStorageOutage(new ObjectNotFoundError('a/b.webp'))).toBe(false);
    expect(isStorageOutage(new Error('invalid storage key "../x"'))).toBe(false);
  });

  it('names the dependency, only the one asked about when one is', () => {
    expect(outageOf(errno('ECONNREFUSED'))).toBe('database');
    expect(outageOf(errno('ENOSPC'))).toBe('storage');
    expect(outageOf(errno('ENOSPC'), 'database')).toBeUndefined();
    expect(outageOf(new Error('boom'))).toBeUndefined();
  });
});

describe('waitOutOutages', () => {
  it('tries again while the database or storage is away, then returns what the work returns', async () => {
    const failures = [errno('ECONNREFUSED'), errno('ENOSPC'), new Error('Connection terminated unexpectedly')];
    const waited: string[] = [];
    const work = vi.fn(async () => {
      const next = failures.shift();
      if (next) throw next;
      return 'kept';
    });
    expect(await waitOutOutages(work, { ...fast, onWait: (d) => waited.push(d) })).toBe('kept');
    expect(work).toHaveBeenCalledTimes(4);
    expect(waited).toEqual(['database', 'storage', 'database']);
  });

  it('throws any other failure at once, and an outage once it lasted longer than allowed or the attempt ends', async () => {
    const bug = vi.fn(async () => {
      throw new Error('a bug');
    });
    await expect(waitOutOutages(bug, fast)).rejects.toThrow('a bug');
    expect(bug).toHaveBeenCalledTimes(1);
    const away = vi.fn(async () => {
      throw errno('ECONNREFUSED');
    });
    await expect(waitOutOutages(away, { ...fast, maxMs: 60 })).rejects.toThrow('ECONNREFUSED');
    expect(away.mock.calls.length).toBeGreaterThan(2);
    away.mockClear();
    await expect(waitOutOutages(away, { ...fast, until: Date.now() + 40 })).rejects.toThrow('ECONNREFUSED');
    expect(away.mock.calls.length).toBeGreaterThan(1);
    expect(away.mock.calls.length).toBeLessThan(6);
    const ended = new AbortController();
    setTimeout(() => ended.abort(), 30);
    await expect(waitOutOutages(away, { ...fast, signal: ended.signal })).rejects.toThrow('ECONNREFUSED');
  });
});

describe('patientStorage', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'patient-storage-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('stores a file once the volume is back, and reads it back through an outage', async () => {
    const root = path.join(dir, 'root');
    const storage: ObjectStorage = patientStorage(new LocalStorage(root), fast);
    expect(storage.driver).toBe('local');
    // The volume is gone: its root is a file, so every write under it fails (ENOTDIR).
    await writeFile(root, '');
    setTimeout(() => rm(root), 100);
    await storage.put('artifacts/a/raw.webp', Buffer.from('paid for'), 'image/webp');
    expect((await storage.get('artifacts/a/raw.webp')).toString()).toBe('paid for');
    await expect(storage.get('artifacts/a/missing.webp')).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(storage.put('../escape', Buffer.from('x'), 'image/webp')).rejects.toThrow(/invalid storage key/);
  });

  it('fails with StorageUnavailableError past its wait, which the retry budget never counts', async () => {
    const root = path.join(dir, 'gone');
    await writeFile(root, '');
    const storage: ObjectStorage = patientStorage(new LocalStorage(root), { ...fast, maxMs: 50 });
    const err = await storage.put('artifacts/b/raw.webp', Buffer.from('x'), 'image/webp').catch((e) => e);
    expect(err).toBeInstanceOf(StorageUnavailableError);

    // The fifth attempt of a step: its own failure ends the step, the storage's outage is retried.
    const step = withRetryBudget(async (e: unknown) => {
      throw e;
    });
    const own = await asActivity(5, () => step(new Error('provider 500'))).catch((e) => e);
    expect(own).toBeInstanceOf(ApplicationFailure);
    expect(own).toMatchObject({ nonRetryable: true, type: 'transient_failure' });
    expect(await asActivity(5, () => step(err)).catch((e) => e)).toBe(err);
    const dbAway = errno('ECONNREFUSED');
    expect(await asActivity(5, () => step(dbAway)).catch((e) => e)).toBe(dbAway);
  });
});

describe('heartbeating', () => {
  it('beats while the activity runs, once however often it is wrapped, passing on what the attempt before carried', async () => {
    vi.useFakeTimers();
    try {
      const beats: unknown[] = [];
      const activity = heartbeating(
        heartbeating(async () => {
          await vi.advanceTimersByTimeAsync(6_500);
          return 'done';
        }),
      );
      const carried = { answers: { k: { text: 'bought' } }, unrecorded: [] };
      expect(await asActivity(2, activity, beats, carried)).toBe('done');
      expect(beats.length).toBe(3);
      await vi.advanceTimersByTimeAsync(10_000);
      expect(beats.length).toBe(3);
      // An attempt that has not said what it holds passes on what the one before carried.
      expect(beats).toEqual([carried, carried, carried]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('answers carried from one attempt to the next', () => {
  const text = LOCAL_MODELS.find((m) => m.kind === 'text')!;
  const image = LOCAL_MODELS.find((m) => m.kind === 'image')!;
  const scope = { runId: 'run-0000abcd', stepIndex: 1 };

  it('serves a text call an earlier attempt bought from its heartbeat, and buys media again', async () => {
    const first = new CarriedAnswers();
    const paid: AnsweredCall[] = [];
    const providers = createProviders();
    const keyed = keyedProviders(providers, scope, (c) => void paid.push(c), undefined, first);
    const answer = await keyed.text('local')!.complete({ model: text, prompt: 'a prompt', seed: 'step-2#1' });
    await keyed.image('local')!.generate({ model: image, prompt: 'a fox', width: 32, height: 32, seed: 's', transparentBackground: false });
    expect(paid.length).toBe(2);

    // The heartbeat's details go through JSON (Temporal's payload converter) to the next attempt.
    const details = JSON.parse(JSON.stringify(first.details([])));
    const { answers } = CarriedAnswers.from(details);
    expect(answers.size).toBe(1);
    const sent = vi.fn();
    const counting = {
      ...providers,
      text: (name: string) => {
        const p = providers.text(name)!;
        return {
          complete: (req: Parameters<typeof p.complete>[0]) => {
            sent();
            return p.complete(req);
          },
        };
      },
    };
    const again: AnsweredCall[] = [];
    const retried = keyedProviders(counting, scope, (c) => void again.push(c), undefined, answers);
    expect(await retried.text('local')!.complete({ model: text, prompt: 'a prompt', seed: 'step-2#1' })).toEqual(answer);
    expect(sent).not.toHaveBeenCalled();
    await retried.text('local')!.complete({ model: text, prompt: 'a prompt', seed: 'step-2#2' });
    expect(sent).toHaveBeenCalledTimes(1);
    expect(again.map((c) => c.key)).toEqual(['run-0000abcd:1:step-2_232']);
  });

  it('carries the calls not written yet, and no more answers than its limit', () => {
    const at = new Date('2026-11-26T10:00:00Z');
    const call = { runId: 'r', stepIndex: 0, stepAttempt: 2, callKey: 'r:0:s', provider: 'openai', model: 'm', costUsd: 0.01, at };
    const carried = new CarriedAnswers(100);
    carried.keep('k1', { text: 'x'.repeat(50) });
    carried.keep('k2', { text: 'y'.repeat(50) });
    const back = CarriedAnswers.from(JSON.parse(JSON.stringify(carried.details([call]))));
    expect(back.answers.size).toBe(1);
    expect(back.unrecorded).toEqual([call]);
    expect(CarriedAnswers.from(undefined).unrecorded).toEqual([]);
    expect(CarriedAnswers.from('garbage').answers.size).toBe(0);
  });
});

describe('a call whose cost is unknown', () => {
  let server: OpenAiLoopback;
  const mini = OPENAI_MODELS.find((m) => m.id === 'openai/gpt-4o-mini')!;
  beforeAll(async () => {
    server = await startOpenAiLoopback(() => {
      const answer = completion('{"title":"ok"}');
      delete (answer.body as { usage?: unknown }).usage;
      return answer;
    });
  });
  afterAll(() => server.close());

  it('is flagged unpriced by the openai adapter (not $0), and recorded, counted and warned about as such', async () => {
    const openai = createOpenAiProvider({ baseUrl: server.baseUrl, apiKey: 'sk-test', maxAttempts: 1 });
    expect(await openai.text.complete({ model: mini, prompt: 'x', seed: 's' })).toMatchObject({ costUsd: 0, unpriced: true });

    const metrics = createWorkerMetrics();
    const warn = vi.fn();
    const log = new ProviderCallLog({} as never, { runId: 'r', stepIndex: 0, stepAttempt: 1 }, metrics, undefined, {}, { warn } as never);
    log.answered({ key: 'r:0:a', provider: 'openai', model: mini.id, costUsd: 0, unpriced: true });
    log.answered({ key: 'r:0:b', provider: 'openai', model: mini.id, costUsd: 0.0009 });
    expect(log.pending().map((c) => [c.callKey, c.unpriced ?? false])).toEqual([
      ['r:0:a', true],
      ['r:0:b', false],
    ]);
    expect(warn).toHaveBeenCalledTimes(1);
    const scraped = await metrics.registry.metrics();
    expect(scraped).toMatch(/atelier_provider_unpriced_calls_total\{provider="openai",model="openai\/gpt-4o-mini"\} 1/);
    expect(scraped).toMatch(/atelier_provider_spend_usd_total\{provider="openai",model="openai\/gpt-4o-mini"\} 0.0009/);
  });
});
