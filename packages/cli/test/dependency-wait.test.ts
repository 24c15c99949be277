import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { waitForDependency } from '../src/stack/dependencies.js';

/** The waiting policy alone (test/integration/dependency-wait.test.ts starts real processes before real servers). */
function recorder() {
  const lines: Array<{ msg: string; attempt?: number }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

/** An attempt that fails `failures` times with `error`, then answers 'up'; it counts its calls. */
function flaky(failures: number, error = new Error('connect ECONNREFUSED')) {
  const attempt = async () => {
    attempt.calls += 1;
    if (attempt.calls <= failures) throw error;
    return 'up';
  };
  attempt.calls = 0;
  return attempt;
}

describe('waiting for a dependency at start', () => {
  it('retries what may mend, logging each wait, and says when it is available', async () => {
    const { logger, lines } = recorder();
    const attempt = flaky(2);
    expect(await waitForDependency('PostgreSQL', attempt, () => true, { waitMs: 10_000, logger })).toBe('up');
    expect(attempt.calls).toBe(3);
    expect(lines.map((l) => l.msg)).toEqual(['waiting for PostgreSQL', 'waiting for PostgreSQL', 'PostgreSQL is available']);
    expect(lines.map((l) => l.attempt)).toEqual([1, 2, undefined]);
  });

  it('stops at once, without waiting, on what waiting cannot mend', async () => {
    const { logger, lines } = recorder();
    const attempt = flaky(5, new Error('password authentication failed for user "postgres"'));
    await expect(waitForDependency('PostgreSQL', attempt, () => false, { waitMs: 10_000, logger })).rejects.toThrow(
      'PostgreSQL is not available: password authentication failed for user "postgres"',
    );
    expect(attempt.calls).toBe(1);
    expect(lines).toEqual([]);
  });

  it('tries once when the wait is 0, and gives up after the wait otherwise', async () => {
    const once = flaky(100);
    await expect(waitForDependency('Temporal', once, () => true, { waitMs: 0, logger: recorder().logger })).rejects.toThrow(
      'Temporal is not available: connect ECONNREFUSED',
    );
    expect(once.calls).toBe(1);

    const started = Date.now();
    const bounded = flaky(100);
    await expect(waitForDependency('Temporal', bounded, () => true, { waitMs: 1_200, logger: recorder().logger })).rejects.toThrow(
      /^Temporal is not available after waiting \d+ s \(ATELIER_DEPENDENCY_WAIT_SECONDS\): connect ECONNREFUSED$/,
    );
    // 250 ms doubling: attempts at about 0, 0.25, 0.75 and 1.75 s, the last one past the wait.
    expect(bounded.calls).toBeGreaterThanOrEqual(3);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('reads ATELIER_DEPENDENCY_WAIT_SECONDS, 120 s by default', () => {
    expect(loadConfig({}).dependencyWaitMs).toBe(120_000);
    expect(loadConfig({ ATELIER_DEPENDENCY_WAIT_SECONDS: '0' }).dependencyWaitMs).toBe(0);
    expect(() => loadConfig({ ATELIER_DEPENDENCY_WAIT_SECONDS: 'soon' })).toThrow('ATELIER_DEPENDENCY_WAIT_SECONDS must be a whole number');
  });
});
