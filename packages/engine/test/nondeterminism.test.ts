import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createWorkerMetrics } from '../src/metrics.js';
import { NondeterminismWatch, nondeterminismWindowFromEnv } from '../src/nondeterminism.js';

/** The rule /readyz follows; the real worker meeting a real nondeterminism error is test/integration/nondeterminism.test.ts. */
function watch(windowMinutes: number) {
  let now = Date.parse('2026-11-26T12:00:00Z');
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const metrics = createWorkerMetrics();
  const w = new NondeterminismWatch({ logger: pino(sink), counter: metrics.nondeterminism, windowMinutes, now: () => now });
  return { w, lines, metrics, pass: (minutes: number) => (now += minutes * 60_000) };
}

const event = (runId: string, workflowType = 'runWorkflow') => ({
  workflowId: `wf-${runId}`,
  runId,
  workflowType,
  taskQueue: 'q',
  message: '[TMPRL1100] Nondeterminism error: Timer machine does not handle this event',
});

describe('nondeterminism watch', () => {
  it('keeps the worker unready for the window after the last error, logging each run once per window', async () => {
    const { w, lines, metrics, pass } = watch(15);
    expect(w.status()).toEqual({ recent: false, windowMinutes: 15, count: 0, total: 0 });
    w.record(event('a'));
    w.record(event('a'));
    pass(1);
    w.record(event('b', 'orderWorkflow'));
    expect(w.status()).toMatchObject({ recent: true, count: 2, total: 3, lastRunId: 'b', lastWorkflowType: 'orderWorkflow' });
    await new Promise((r) => setImmediate(r));
    expect(lines.filter((l) => l.level === 50).map((l) => l.runId)).toEqual(['a', 'b']);
    const counted = (await metrics.nondeterminism.get()).values.map((v) => [v.labels.workflow_type, v.value]);
    expect(counted).toEqual([
      ['runWorkflow', 2],
      ['orderWorkflow', 1],
    ]);

    pass(14.5);
    // a's last error was 15.5 minutes ago; b's 14.5.
    expect(w.status()).toMatchObject({ recent: true, count: 1 });
    pass(1);
    expect(w.status()).toMatchObject({ recent: false, count: 0, total: 3, lastWorkflowId: 'wf-b' });
    w.record(event('a'));
    await new Promise((r) => setImmediate(r));
    expect(lines.filter((l) => l.level === 50)).toHaveLength(3);
  });

  it('never makes the worker unready with a window of 0, and still logs a run once', async () => {
    const { w, lines } = watch(0);
    w.record(event('a'));
    w.record(event('a'));
    expect(w.status()).toMatchObject({ recent: false, count: 1, total: 2 });
    await new Promise((r) => setImmediate(r));
    expect(lines).toHaveLength(1);
  });

  it('reads its window from ATELIER_NONDETERMINISM_UNREADY_MINUTES', () => {
    expect(nondeterminismWindowFromEnv({})).toBe(15);
    expect(nondeterminismWindowFromEnv({ ATELIER_NONDETERMINISM_UNREADY_MINUTES: '5' })).toBe(5);
    expect(nondeterminismWindowFromEnv({ ATELIER_NONDETERMINISM_UNREADY_MINUTES: '0' })).toBe(0);
    expect(() => nondeterminismWindowFromEnv({ ATELIER_NONDETERMINISM_UNREADY_MINUTES: 'soon' })).toThrow(
      /ATELIER_NONDETERMINISM_UNREADY_MINUTES/,
    );
  });
});
