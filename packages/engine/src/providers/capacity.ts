import { randomUUID } from 'node:crypto';
import type { Counter } from 'prom-client';
import {
  type Db,
  acquireProviderLease,
  chargeProviderRate,
  ensureProviderCapacity,
  providerRateAhead,
  releaseProviderLease,
  renewProviderLease,
  reserveProviderSlot,
} from '@atelier/db';
import type { ModelEntry } from '@atelier/domain';
import { delay, untilAborted } from './delay.js';
import { layered } from './provider-set.js';
import {
  CONCURRENCY_LEASE_MS,
  FIRST_HABITS,
  TOKEN_HORIZON_MS,
  type ProviderLimit,
  type ProviderLimits,
  concurrencyRetryMs,
  limitsFor,
  mustRequeue,
  learnHabits,
  spacingMs,
  throttleWaitMs,
  type TokenHabits,
  sentChars,
  tokenEstimate,
  tokenRateKey,
  tokensOwed,
} from './provider-limits.js';
import {
  type JobProvider,
  ProviderThrottledError,
  type ProviderSet,
  type TextCompletion,
  type TextRequest,
  type ThrottledRequest,
} from './types.js';

export interface CapacityOptions {
  limits: ProviderLimits;
  /** Where the fleet's permits are kept; required as soon as one limit is set. */
  db?: Db;
  /** atelier_provider_throttled_seconds_total (metrics.ts); absent, nothing is counted. */
  throttled?: Counter<'provider' | 'reason'>;
  /** atelier_provider_slots_missed_total: start slots given up because the call woke too late for them. */
  slotsMissed?: Counter<'provider'>;
}

type Reason = 'limit' | '429';
type Limited = { key: string; limit: ProviderLimit };

/** What a call spends of a token rate: its request, to estimate before it goes, and its answer's usage after. */
interface Metered<A> {
  prompt: string;
  jsonSchema?: unknown;
  usage: (answer: A) => { input: number; output: number };
}

const metered = (req: TextRequest): Metered<TextCompletion> => ({
  prompt: req.prompt,
  jsonSchema: req.jsonSchema,
  usage: (answer) => ({ input: answer.inputTokens, output: answer.outputTokens }),
});

/**
 * Every model call as the fleet's capacity allows it. Before a call goes out it takes a concurrency permit
 * of each limited key that has a concurrency limit, then a start slot under each key that has a rate, and
 * waits for that slot (sleeping, while the activity heartbeats; the step's cancellation ends the wait). A
 * text call under a token rate also takes the rate's time for the tokens it reserves (its prompt and an
 * answer, at what its model's recent calls came to); answered, it is charged what the provider counted beyond.
 * A 429 is back-pressure: the permits go back, the call waits (Retry-After, else a backoff) and goes out
 * again, as often as it takes, so a burst of 429s never spends the step's attempts; a request that names a
 * `throttlePatienceMs` (a model with a fallback after it) gets the 429 back once its waits would pass that. Other failures pass
 * through as they are. Calls to providers and models without limits go straight out (429s still wait).
 */
export function withCapacity(providers: ProviderSet, opts: CapacityOptions): ProviderSet {
  const capacity = new FleetCapacity(opts);
  return layered(providers, {
    text: (p) => ({
      complete: (req) => capacity.call(req.model, req.signal, () => p.complete(req), req.throttlePatienceMs, metered(req)),
    }),
    image: (p) => ({ generate: (req) => capacity.call(req.model, req.signal, () => p.generate(req), req.throttlePatienceMs) }),
    video: (p) => ({ generate: (req) => capacity.call(req.model, req.signal, () => p.generate(req), req.throttlePatienceMs) }),
    classifier: (p) => ({ classify: (req) => capacity.call(req.model, req.signal, () => p.classify(req), req.throttlePatienceMs) }),
    // Submitting a job is the call the provider meters; checking on it is not held to the capacity.
    jobs: (p) => {
      const jobs = p as JobProvider<ThrottledRequest & { model: ModelEntry; signal?: AbortSignal }, unknown>;
      return {
        ...jobs,
        submit: (req: ThrottledRequest & { model: ModelEntry; signal?: AbortSignal }) =>
          capacity.call(req.model, req.signal, () => jobs.submit(req), req.throttlePatienceMs),
      } as never;
    },
  });
}

class FleetCapacity {
  /** Rows a key needs, created once per process (a key's first call). */
  private readonly ready = new Map<string, Promise<void>>();
  /** Calls of this process waiting for a concurrency permit of a key: a release here wakes them at once. */
  private readonly waiters = new Map<string, Set<() => void>>();
  /** What each model's text calls have come to in this process, for the next reservation (provider-limits.ts). */
  private readonly habits = new Map<string, TokenHabits>();
  /** By token-rated keys: the last of this process's calls in line to reserve under them (TOKEN_HORIZON_MS). */
  private readonly lines = new Map<string, Promise<void>>();

  constructor(private readonly opts: CapacityOptions) {
    if (Object.keys(opts.limits).length > 0 && !opts.db) throw new Error('provider limits are held in the database: pass db with them');
  }

  /**
   * `patienceMs`: how long this call may wait out 429s in all (ThrottledRequest.throttlePatienceMs); past it the
   * 429 is thrown to the caller, which has another model to go to. Absent: as long as it takes.
   */
  async call<A>(
    model: ModelEntry,
    signal: AbortSignal | undefined,
    send: () => Promise<A>,
    patienceMs?: number,
    meter?: Metered<A>,
  ): Promise<A> {
    const limited = limitsFor(this.opts.limits, model.provider, model.id);
    let throttledMs = 0;
    for (let throttles = 1; ; throttles++) {
      let retryAfterMs: number | undefined;
      let throttled: ProviderThrottledError;
      try {
        return limited.length === 0 ? await send() : await this.withPermits(model, limited, signal, send, meter);
      } catch (err) {
        if (!(err instanceof ProviderThrottledError) || signal?.aborted) throw err;
        retryAfterMs = err.retryAfterMs;
        throttled = err;
      }
      const waitMs = throttleWaitMs(throttles, retryAfterMs);
      if (patienceMs !== undefined && throttledMs + waitMs > patienceMs) throw throttled;
      throttledMs += waitMs;
      await this.wait(model.provider, '429', waitMs, signal);
    }
  }

  private async withPermits<A>(
    model: ModelEntry,
    limited: Limited[],
    signal: AbortSignal | undefined,
    send: () => Promise<A>,
    meter: Metered<A> | undefined,
  ): Promise<A> {
    const db = this.opts.db as Db;
    await Promise.all(limited.map((l) => this.ensure(db, l)));
    const tokenRated = meter ? limited.filter((l) => l.limit.tokens) : [];
    // Measured only for a token rate: the schema is serialised to count it.
    const sent = meter && tokenRated.length > 0 ? sentChars(meter.prompt, meter.jsonSchema) : undefined;
    const leases: Array<{ key: string; slot: number; holder: string }> = [];
    const renewal = setInterval(() => {
      for (const lease of leases) renewProviderLease(db, { ...lease, leaseMs: CONCURRENCY_LEASE_MS }).catch(() => undefined);
    }, CONCURRENCY_LEASE_MS / 3);
    renewal.unref();
    try {
      // In key order, as every call takes them, so two calls never each hold what the other waits for.
      for (const { key, limit } of [...limited].sort((a, b) => a.key.localeCompare(b.key)))
        if (limit.concurrency) leases.push(await this.lease(db, model.provider, key, limit.concurrency, signal));
      const tokens = await this.slot(db, model, limited, sent, signal);
      const answer = await send();
      if (meter && sent !== undefined && tokens > 0)
        await this.settleTokens(db, model, tokenRated, { sent, reserved: tokens }, meter.usage(answer));
      return answer;
    } finally {
      clearInterval(renewal);
      await Promise.all(leases.map((lease) => this.release(db, lease)));
    }
  }

  private habitsOf(model: ModelEntry): TokenHabits {
    return this.habits.get(model.id) ?? FIRST_HABITS;
  }

  /**
   * Charges the token rates what the answer used beyond the call's reservation, and learns from it what the
   * model's next call will reserve. A charge that cannot be written (the database away) is dropped: the
   * provider's 429s are still waited out.
   */
  private async settleTokens(
    db: Db,
    model: ModelEntry,
    tokenRated: Limited[],
    call: { sent: number; reserved: number },
    used: { input: number; output: number },
  ): Promise<void> {
    this.habits.set(model.id, learnHabits(this.habits.get(model.id), call.sent, used));
    const owed = tokensOwed(call.reserved, used.input + used.output);
    if (owed === 0) return;
    const charges = tokenRated.flatMap(({ key, limit }) =>
      limit.tokens ? [{ key: tokenRateKey(key), ms: owed * spacingMs(limit.tokens) }] : [],
    );
    await chargeProviderRate(db, charges).catch(() => undefined);
  }

  /**
   * Waits for a start slot under every rated key, and for a text call (`sent` characters) room under every
   * token-rated key for the tokens it reserves, which it answers (0 for none). Takes a new slot when the wait
   * overshot the old.
   */
  private async slot(
    db: Db,
    model: ModelEntry,
    limited: Limited[],
    sent: number | undefined,
    signal: AbortSignal | undefined,
  ): Promise<number> {
    const tokenKeys = limited.flatMap(({ key, limit }) => (limit.tokens ? [tokenRateKey(key)] : []));
    for (;;) {
      const reserved =
        sent === undefined
          ? await this.reserve(db, limited, 0)
          : await this.inLine(tokenKeys.join(' '), signal, async () => {
              await this.untilWithin(db, model.provider, tokenKeys, signal);
              return this.reserve(db, limited, tokenEstimate(sent, this.habitsOf(model)));
            });
      await this.wait(model.provider, 'limit', reserved.waitMs, signal);
      if (!mustRequeue(performance.now() - reserved.target)) return reserved.tokens;
      this.opts.slotsMissed?.inc({ provider: model.provider });
    }
  }

  /** Reserves the next start under every rated key (and `tokens` under the token-rated ones): when it is, and what it took. */
  private async reserve(db: Db, limited: Limited[], tokens: number): Promise<{ waitMs: number; target: number; tokens: number }> {
    const rated = limited.flatMap(({ key, limit }) => [
      ...(limit.requests ? [{ key, spacingMs: spacingMs(limit.requests) }] : []),
      ...(limit.tokens && tokens > 0 ? [{ key: tokenRateKey(key), spacingMs: tokens * spacingMs(limit.tokens) }] : []),
    ]);
    const asked = performance.now();
    if (rated.length === 0) return { waitMs: 0, target: asked, tokens };
    const { waitMs } = await reserveProviderSlot(db, rated);
    // The database answered how far ahead the slot is by its clock, at some moment between the question and
    // the answer being read here. Counting from the question is the earliest the slot can be, so a call
    // whose answer was read late (a busy event loop) is judged late by at least as much as it really is.
    return { waitMs, target: asked + waitMs, tokens };
  }

  /** Waits until the token rates' next start is no more than TOKEN_HORIZON_MS ahead. */
  private async untilWithin(db: Db, provider: string, tokenKeys: string[], signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      const ahead = await providerRateAhead(db, tokenKeys);
      if (ahead <= TOKEN_HORIZON_MS) return;
      await this.wait(provider, 'limit', ahead - TOKEN_HORIZON_MS, signal);
    }
  }

  /**
   * Runs `work` once every call of this process that joined `line` before it has run its own, first come,
   * first served; a call stopped while it waits leaves its place without holding up the ones behind it.
   */
  private async inLine<T>(line: string, signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
    const before = this.lines.get(line) ?? Promise.resolve();
    let leave = () => {};
    const left = new Promise<void>((resolve) => {
      leave = resolve;
    });
    // The next call waits for every call before this one as well as for this one.
    const mine = before.then(() => left);
    this.lines.set(line, mine);
    try {
      await untilAborted(before, signal);
      return await work();
    } finally {
      leave();
      if (this.lines.get(line) === mine) this.lines.delete(line);
    }
  }

  private async lease(db: Db, provider: string, key: string, limit: number, signal: AbortSignal | undefined) {
    const holder = randomUUID();
    for (let attempt = 1; ; attempt++) {
      const slot = await acquireProviderLease(db, { key, limit, holder, leaseMs: CONCURRENCY_LEASE_MS });
      if (slot !== undefined) return { key, slot, holder };
      await this.wait(provider, 'limit', concurrencyRetryMs(attempt), signal, key);
    }
  }

  private async release(db: Db, lease: { key: string; slot: number; holder: string }): Promise<void> {
    // A permit not given back (the database unreachable) lapses at its deadline.
    await releaseProviderLease(db, lease).catch(() => undefined);
    for (const wake of this.waiters.get(lease.key) ?? []) wake();
  }

  private ensure(db: Db, { key, limit }: Limited): Promise<void> {
    let ready = this.ready.get(key);
    if (!ready) {
      ready = Promise.all([
        ensureProviderCapacity(db, key, limit.concurrency),
        limit.tokens ? ensureProviderCapacity(db, tokenRateKey(key)) : undefined,
      ]).then(() => undefined);
      this.ready.set(key, ready);
      ready.catch(() => this.ready.delete(key));
    }
    return ready;
  }

  /** Sleeps `ms` (or until a permit of `wakeKey` is released here), counting the time as throttled. */
  private async wait(provider: string, reason: Reason, ms: number, signal: AbortSignal | undefined, wakeKey?: string): Promise<void> {
    if (ms <= 0) return;
    const started = performance.now();
    const controller = new AbortController();
    const wake = () => controller.abort();
    const waiting = wakeKey ? (this.waiters.get(wakeKey) ?? new Set()) : undefined;
    if (wakeKey && waiting) {
      waiting.add(wake);
      this.waiters.set(wakeKey, waiting);
    }
    try {
      await delay(ms, signal ? AbortSignal.any([signal, controller.signal]) : controller.signal).catch((err) => {
        if (signal?.aborted || !controller.signal.aborted) throw err;
      });
    } finally {
      waiting?.delete(wake);
      this.opts.throttled?.inc({ provider, reason }, (performance.now() - started) / 1000);
    }
  }
}
