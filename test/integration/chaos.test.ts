import { describe, expect, it } from 'vitest';
import { runChaos } from '../../bench/chaos-scenario';

/**
 * bench/chaos.ts at a small size, every kind of fault once or a few times: runs and an order while the
 * worker process is SIGKILLed and restarted, the gateway process SIGKILLed with a burst in flight and
 * restarted, the Temporal server stopped and SIGKILLed (each then started again), PostgreSQL stopped, its
 * postmaster SIGKILLed and all of it frozen long enough for the gateway's query bound to answer 503. Every
 * 201 must become a run that finishes; nothing may be billed twice or left stuck, and the gateway answers
 * nothing ≥ 500 but the designed 503. The scenario brings its own PostgreSQL and Temporal server (it hurts
 * them), not the suite's.
 */
describe('chaos: worker, gateway, Temporal and PostgreSQL faults under load', () => {
  it('loses no run, bills no step twice, leaves nothing stuck and completes the order', async () => {
    const report = await runChaos({
      runs: 20,
      clients: 4,
      orderChildren: 6,
      workerKills: 3,
      killPauseMs: 500,
      minUptimeMs: 2_000,
      gatewayKills: 1,
      gatewayBurst: 6,
      temporalRestarts: 1,
      temporalKills: 1,
      temporalDownMs: 3_000,
      pgOutageMs: 10_000,
      pgKills: 1,
      pgKillDownMs: 1_000,
      // Longer than the gateway's 5 s query bound, so requests meet it and answer 503.
      pgFreezeMs: 12_000,
      windowMs: 60_000,
      latencyMs: 300,
      drainTimeoutMs: 60_000,
      seed: 7,
      log: process.env.CHAOS_VERBOSE ? (line) => console.log(`[chaos] ${line}`) : () => undefined,
    });
    const summary = JSON.stringify(report, null, 1);
    if (process.env.CHAOS_VERBOSE)
      console.log(JSON.stringify({ runs: report.runs, gateway: report.gateway, faults: report.faults, timings: report.timings }));
    expect(report.runs.requested, summary).toBe(26);
    expect(report.runs.acknowledged, summary).toBe(26);
    expect(report.runs.lost, summary).toBe(0);
    expect(report.billing.billedTwice, summary).toBe(0);
    // Beyond the acknowledged runs and the order's children: those a killed gateway committed without answering.
    // Every POST carries an Idempotency-Key: one a killed gateway left unanswered, sent again, made no second run.
    expect(report.runs.unacknowledgedRows, summary).toBe(0);
    const rows = 26 + 6;
    expect(report.billing.comparedWithReference, summary).toBe(rows);
    expect(report.runs.stuck, summary).toBe(0);
    expect(report.runs.statuses, summary).toEqual({ completed: rows });
    expect(report.gateway.other5xx, summary).toBe(0);
    expect(report.gateway.status503WithRetryAfter, summary).toBe(report.gateway.status503);
    // While PostgreSQL is frozen the gateway answers, within its query bound (5 s; a connection, then a query, at worst).
    expect(report.gateway.duringFreeze.unanswered, summary).toBe(0);
    expect(report.gateway.duringFreeze.slowestMs, summary).toBeLessThan(12_000);
    if (report.gateway.duringFreeze.requests > 0) expect(report.gateway.duringFreeze.status503, summary).toBeGreaterThan(0);
    expect(report.order.status, summary).toBe('completed');
    expect(report.order.counts.succeeded, summary).toBe(6);
    expect(report.pendingEngineCommands, summary).toBe(0);
    expect(report.faults, summary).toMatchObject({ workerKills: 3, gatewayKills: 1, temporalRestarts: 1, temporalKills: 1, pgKills: 1 });
  }, 300_000);
});
