import { describe, expect, it } from 'vitest';
import { RUN_ID_PATTERN, newArtifactId, newCharacterId, newRunId } from '../src/ids.js';

/** Over `n` ids, the set of characters seen at each position of their random part. */
function seenAt(make: () => string, prefix: string, n: number): Array<Set<string>> {
  const seen: Array<Set<string>> = [];
  for (let i = 0; i < n; i++) {
    const id = make();
    expect(id.startsWith(prefix)).toBe(true);
    [...id.slice(prefix.length)].forEach((ch, at) => {
      seen[at] ??= new Set();
      seen[at].add(ch);
    });
  }
  return seen;
}

describe('ids', () => {
  it('makes run ids as the contract fixes them, with every character random', () => {
    for (let i = 0; i < 100; i++) expect(newRunId()).toMatch(RUN_ID_PATTERN);
    const seen = seenAt(newRunId, 'run-', 2_000);
    expect(seen).toHaveLength(8);
    // A fixed digit (a UUID's version or variant) would show one value, or four, at its position.
    for (const values of seen) expect(values.size).toBe(16);
  });

  it('makes artifact and character ids of sixteen random hex characters', () => {
    for (const [make, prefix] of [
      [newArtifactId, 'artifact-'],
      [newCharacterId, 'char-'],
    ] as const) {
      expect(make()).toMatch(new RegExp(`^${prefix}[0-9a-f]{16}$`));
      const seen = seenAt(make, prefix, 2_000);
      expect(seen).toHaveLength(16);
      for (const values of seen) expect(values.size).toBe(16);
    }
  });

  it('does not repeat itself', () => {
    const ids = new Set(Array.from({ length: 20_000 }, newArtifactId));
    expect(ids.size).toBe(20_000);
  });
});
