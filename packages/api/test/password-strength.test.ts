import { describe, expect, it } from 'vitest';
import { judgePassword, personalStrings } from '../src/auth/password-strength.js';

const owner = { email: 'jane.doe@example.com', name: 'Jane Doe' };

describe('the password strength rule', () => {
  it.each([
    ['a doubled common word', 'passwordpassword'],
    ['a digit sequence', '123456789012'],
    ['twelve spaces', ' '.repeat(12)],
    ['a keyboard walk', 'qwertyuiopasdf'],
  ])('refuses %s as too easy to guess, with zxcvbn saying why', (_, password) => {
    const verdict = judgePassword(password, owner);
    expect(verdict).toMatchObject({
      ok: false,
      reason: 'guessable',
      message: expect.stringMatching(/^The password is too easy to guess: \S/),
    });
    expect(verdict.score).toBeLessThan(3);
  });

  it('says "commonly used" of a password from the common lists', () => {
    const verdict = judgePassword('123456789012', owner);
    expect(verdict.ok === false && verdict.message).toMatch(/commonly used/);
  });

  it.each([
    ['the whole email', 'jane.doe@example.com'],
    ['the email with a suffix', 'jane.doe@example.com-2024!'],
    ['the name without its space', 'JaneDoe-rules-the-world-42'],
    ['one word of the name', 'stormy doe-eyed jane piano'],
  ])('refuses a password containing %s', (_, password) => {
    expect(judgePassword(password, owner)).toMatchObject({ ok: false, reason: 'personal' });
  });

  it('accepts a strong passphrase, and the passwords the tests, the README and the bench register with', () => {
    const used = [
      ['tangerine orbit velvet quarry', owner],
      ['correct horse battery', { email: 'user1@example.com', name: 'Tester' }],
      ['a-long-password', { email: 'you@example.com', name: 'You' }],
      ['a-long-password!', { email: 'e2e@example.com', name: 'E2E' }],
      ['storm lantern copper meadow', { email: 'chaos@example.com', name: 'Chaos' }],
      ['violet harbor granite echo', { email: 'bench@example.com', name: 'Bench' }],
      ['quiet falcon ember ledger', { email: 'bench-0a1b2c3d4e@example.com', name: 'Bench' }],
    ] as const;
    for (const [password, who] of used) expect(judgePassword(password, who), password).toMatchObject({ ok: true });
    // What the bench used before: its own name in it.
    expect(judgePassword('a-long-bench-password', { email: 'bench@example.com', name: 'Bench' })).toMatchObject({ ok: false });
  });

  it('ignores name and email pieces too short to matter, and judges a very long password quickly', () => {
    expect(personalStrings({ email: 'al@x.io', name: 'Al Bo' })).toEqual(['alxio', 'albo']);
    const started = performance.now();
    expect(judgePassword('aB3$'.repeat(256), owner)).toMatchObject({ ok: false });
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});
