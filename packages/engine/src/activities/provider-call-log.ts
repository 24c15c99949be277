import type { Logger } from 'pino';
import { type Db, type ProviderCallRecord, recordProviderCalls } from '@atelier/db';
import type { WorkerMetrics } from '../metrics.js';
import type { AnsweredCall } from '../providers/index.js';
import { type OutageWait, waitOutOutages } from './outage-wait.js';

/**
 * The provider calls one attempt of a step made, written down without a round trip of their own where
 * possible: answers are held until the step settles (they go in its statement), until the step calls a
 * provider again, or until the attempt gives up. A worker killed between two calls of a step has recorded
 * the first before the second went out. A write of its own waits out the database's outage (`wait`): a
 * paid call is never dropped because the database was away when it was to be written.
 */
export class ProviderCallLog {
  private held: ProviderCallRecord[] = [];

  constructor(
    private readonly db: Db,
    private readonly attempt: { runId: string; stepIndex: number; stepAttempt: number },
    private readonly metrics?: WorkerMetrics,
    /** What must be written before a call is (the step's start: a call's row refers to the step's). */
    private readonly beforeWrite?: () => Promise<unknown>,
    private readonly wait: OutageWait = {},
    private readonly logger?: Pick<Logger, 'warn'>,
  ) {}

  readonly answered = (call: AnsweredCall): void => {
    const { key: callKey, provider, model, costUsd, unpriced } = call;
    this.held.push({ ...this.attempt, callKey, provider, model, costUsd, ...(unpriced ? { unpriced } : {}), at: new Date() });
    if (unpriced) {
      this.metrics?.unpricedCalls.inc({ provider, model });
      this.logger?.warn(
        { runId: this.attempt.runId, stepIndex: this.attempt.stepIndex, callKey, provider, model },
        'provider answered without usage: the call is recorded as unpriced',
      );
    } else this.metrics?.providerSpend.inc({ provider, model }, costUsd);
  };

  /** Calls an earlier attempt was answered but had not written down (carried in its heartbeat): written with this attempt's. */
  carry(calls: ProviderCallRecord[]): void {
    this.held.unshift(...calls);
  }

  /**
   * Writes what is held in a statement of its own (before another call, or when the attempt gives up),
   * waiting out an outage of the database. Calls answered meanwhile stay held.
   */
  readonly flush = async (): Promise<void> => {
    const batch = this.held;
    if (batch.length === 0) return;
    await waitOutOutages(
      async () => {
        await this.beforeWrite?.();
        await recordProviderCalls(this.db, batch);
      },
      { ...this.wait, dependency: 'database' },
    );
    this.held = this.held.filter((c) => !batch.includes(c));
  };

  /** What the step's settlement records with it; `recorded(calls)` once that settlement committed. */
  pending(): ProviderCallRecord[] {
    return [...this.held];
  }

  /** The calls a settlement wrote (all held ones by default) are no longer held. */
  recorded(calls?: ProviderCallRecord[]): void {
    this.held = calls ? this.held.filter((c) => !calls.includes(c)) : [];
  }
}
