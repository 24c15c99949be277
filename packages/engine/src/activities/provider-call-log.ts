import { type Db, type ProviderCallRecord, recordProviderCalls } from '@atelier/db';
import type { WorkerMetrics } from '../metrics';
import type { AnsweredCall } from '../providers/index';

/**
 * The provider calls one attempt of a step made, written down without a round trip of their own where
 * possible: answers are held until the step settles (they go in its statement), until the step calls a
 * provider again, or until the attempt gives up. A worker killed between two calls of a step has recorded
 * the first before the second went out.
 */
export class ProviderCallLog {
  private held: ProviderCallRecord[] = [];

  constructor(
    private readonly db: Db,
    private readonly attempt: { runId: string; stepIndex: number; stepAttempt: number },
    private readonly metrics?: WorkerMetrics,
    /** What must be written before a call is (the step's start: a call's row refers to the step's). */
    private readonly beforeWrite?: () => Promise<unknown>,
  ) {}

  readonly answered = (call: AnsweredCall): void => {
    const { key: callKey, provider, model, costUsd } = call;
    this.held.push({ ...this.attempt, callKey, provider, model, costUsd, at: new Date() });
    this.metrics?.providerSpend.inc({ provider, model }, costUsd);
  };

  /** Writes what is held in a statement of its own (before another call, or when the attempt gives up). */
  readonly flush = async (): Promise<void> => {
    if (this.held.length === 0) return;
    await this.beforeWrite?.();
    await recordProviderCalls(this.db, this.held);
    this.held = [];
  };

  /** What the step's settlement records with it; `recorded()` once that settlement committed. */
  pending(): ProviderCallRecord[] {
    return [...this.held];
  }

  recorded(): void {
    this.held = [];
  }
}
