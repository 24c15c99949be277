import { describe, expect, it } from 'vitest';
import { intakeSummary } from '../src/presenters/queue-item.js';

const FIELDS = [{ name: 'product' }, { name: 'setting' }, { name: 'characterId' }];

describe('a queue item’s intakeSummary', () => {
  it('gives the first two text or number values in the declared field order, not the stored key order', () => {
    expect(intakeSummary({ setting: 'a kitchen', characterId: 'c-1', product: 'a teapot' }, FIELDS)).toBe('a teapot · a kitchen');
    expect(intakeSummary({ topic: 'owls', depth: 3 }, [{ name: 'depth' }, { name: 'topic' }])).toBe('3 · owls');
  });

  it('skips empty strings, objects and lists, and keeps undeclared keys after the declared ones, sorted', () => {
    expect(intakeSummary({ product: '  ', refs: ['a'], brief: { x: 1 }, zeta: 'z', alpha: 'a' }, FIELDS)).toBe('a · z');
  });

  it('cuts a long value and folds its whitespace; null when there is nothing to show', () => {
    const long = `${'word '.repeat(30)}\n end`;
    const summary = intakeSummary({ product: long }, FIELDS) ?? '';
    expect(summary).toHaveLength(80);
    expect(summary.endsWith('…')).toBe(true);
    expect(summary).not.toContain('\n');
    expect(intakeSummary({ sourceReport: { id: 'a' } }, FIELDS)).toBeNull();
    expect(intakeSummary(null, null)).toBeNull();
  });
});
