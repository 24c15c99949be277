import { describe, expect, it } from 'vitest';
import { runChaos } from '../../bench/chaos-scenario';

/**
 * bench/chaos.ts at a small size: runs and an order while the worker process is SIGKILLed and
 * restarted, the Temporal server is restarted and PostgreSQL is stopped for a while. Nothing may be
 * lost, billed twice or left stuck, and the gateway answers nothing ≥ 500 but the designed 503.
 * The scenario brings its own PostgreSQL and Temporal server (it stops them), not the suite's.
 */
describe('chaos: worker kills, a Temporal restart and a PostgreSQL outage under load', () => {
  it('loses no run, bills no step twice, leaves nothing stuck and completes the order', async () => {
    const report = await runChaos({
      runs: 20,
      clients: 4,
      orderChildren: 6,
      workerKills: 3,
      killPauseMs: 500,
      minUptimeMs: 2_000,
      temporalRestarts: 1,
      temporalDownMs: 3_000,
      pgOutageMs: 10_000,
      windowMs: 45_000,
      latencyMs: 300,
      drainTimeoutMs: 60_000,
      seed: 7,
      log: process.env.CHAOS_VERBOSE ? (line) => console.log(`[chaos] ${line}`) : () => undefined,
    });
    const summary = JSON.stringify(report, null, 1);
    expect(report.runs.acknowledged, summary).toBe(20);
    expect(report.runs.lost, summary).toBe(0);
    expect(report.billing.billedTwice, summary).toBe(0);
    expect(report.billing.comparedWithReference, summary).toBe(26);
    expect(report.runs.stuck, summary).toBe(0);
    expect(report.runs.statuses, summary).toEqual({ completed: 26 });
    expect(report.gateway.other5xx, summary).toBe(0);
    expect(report.gateway.status503WithRetryAfter, summary).toBe(report.gateway.status503);
    expect(report.order.status, summary).toBe('completed');
    expect(report.order.counts.succeeded, summary).toBe(6);
    expect(report.pendingEngineCommands, summary).toBe(0);
    expect(report.faults, summary).toMatchObject({ workerKills: 3, temporalRestarts: 1 });
  }, 180_000);
});
