import { describe, expect, it } from 'vitest';
import { LIMITS } from '@atelier/contracts/common';
import { intakeSizeProblems, measureIntake, utf8Bytes } from '../src/intake-limits.js';

describe('intake size bounds', () => {
  it('counts UTF-8 bytes as Buffer does, surrogate pairs and lone surrogates included', () => {
    for (const text of ['', 'plain', 'é', '€', '😀 grapes', 'a\ud800b', '\udc00', `${'x'.repeat(1_000)}ü`]) {
      expect(utf8Bytes(text)).toBe(Buffer.byteLength(text, 'utf8'));
    }
  });

  it('names the longest string by where it is, keys included', () => {
    expect(measureIntake({ topic: 'ab', brief: { notes: ['a', 'bbbbbbbb'] } }).longest).toEqual({ at: 'brief.notes[1]', length: 8 });
    expect(measureIntake({ list: [['abcdef']] }).longest).toEqual({ at: 'list[0][0]', length: 6 });
    expect(measureIntake({ ['k'.repeat(9)]: 1 }).longest).toEqual({ at: 'a key of the intake', length: 9 });
    expect(measureIntake({}).longest).toBeNull();
  });

  it('refuses one past each bound and allows it exactly, adding the parts of a merged intake', () => {
    expect(intakeSizeProblems(measureIntake({ topic: 'x'.repeat(LIMITS.intakeString) }))).toEqual([]);
    expect(intakeSizeProblems(measureIntake({ topic: 'x'.repeat(LIMITS.intakeString + 1) }))).toEqual([
      'topic is 65,537 characters long; at most 65,536 are allowed',
    ]);
    // Strings of 60,000 and one for the rest, so only the intake's bound can be in play.
    const fill = (bytes: number) => {
      const rest = bytes - '{"a":[]}'.length - 3 * '"",'.length - '""'.length;
      return { a: ['x'.repeat(60_000), 'x'.repeat(60_000), 'x'.repeat(rest - 120_000), ''] };
    };
    expect(measureIntake(fill(LIMITS.intakeBytes)).bytes).toBe(LIMITS.intakeBytes);
    expect(intakeSizeProblems(measureIntake(fill(LIMITS.intakeBytes / 2)), measureIntake(fill(LIMITS.intakeBytes / 2)))).toEqual([]);
    expect(intakeSizeProblems(measureIntake(fill(LIMITS.intakeBytes / 2)), measureIntake(fill(LIMITS.intakeBytes / 2 + 1)))).toEqual([
      'the intake is 262,145 bytes as JSON; at most 262,144 are allowed',
    ]);
  });
});
