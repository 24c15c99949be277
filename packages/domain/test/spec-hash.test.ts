import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/canonical-json.js';
import { sha256Hex, specVersionHash } from '../src/hashing.js';
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

  it('hashes the canonical JSON of the definition and the intake together, however often a definition is hashed', () => {
    const def = { steps: [{ id: 's1', prompt: 'Write about {{intake.topic}}', params: { z: 1, a: undefined } }], id: 'plan-x' };
    for (const intake of [{ topic: 'a' }, { topic: 'b', extra: [1, null] }, {}, undefined]) {
      const direct = `sha256:${sha256Hex(canonicalJson({ definition: def, intake }))}`;
      expect(specVersionHash(def, intake)).toBe(direct);
      expect(specVersionHash(def, intake)).toBe(direct);
    }
    // Another object with other content is never answered from the first one's kept form.
    const other = { ...def, id: 'plan-y' };
    expect(specVersionHash(other, {})).toBe(`sha256:${sha256Hex(canonicalJson({ definition: other, intake: {} }))}`);
    expect(specVersionHash(other, {})).not.toBe(specVersionHash(def, {}));
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
