import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/canonical-json.js';
import { specVersionHash } from '../src/hashing.js';
import { isForwardMove, isTerminalRunStatus } from '../src/run-status.js';
import { roundUsd, sumUsd } from '../src/money.js';

describe('canonical JSON and the spec hash', () => {
  it('ignores key order and undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: undefined } })).toBe('{"a":{"d":[1,{"x":1,"y":2}]},"b":1}');
  });

  it('gives equal hashes for identical inputs and different ones otherwise', () => {
    const def = { id: 'plan-x', steps: [1, 2] };
    expect(specVersionHash(def, { a: 1, b: 2 })).toBe(specVersionHash({ steps: [1, 2], id: 'plan-x' }, { b: 2, a: 1 }));
    expect(specVersionHash(def, { a: 1 })).not.toBe(specVersionHash(def, { a: 2 }));
    expect(specVersionHash(def, {})).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe('run status moves', () => {
  it('only moves forward and never out of a terminal status', () => {
    expect(isForwardMove('pending', 'queued')).toBe(true);
    expect(isForwardMove('running', 'queued')).toBe(false);
    expect(isForwardMove('queued', 'completed')).toBe(true);
    expect(isForwardMove('completed', 'failed')).toBe(false);
    expect(isTerminalRunStatus('review')).toBe(true);
    expect(isTerminalRunStatus('planned')).toBe(false);
  });
});

describe('money', () => {
  it('rounds to micro-dollars so sums do not drift', () => {
    expect(sumUsd([0.1, 0.2])).toBe(0.3);
    expect(roundUsd(0.0000004)).toBe(0);
    expect(sumUsd([null, undefined, 0.000001])).toBe(0.000001);
  });
});
