import { describe, expect, it } from 'vitest';
import { judgePassword, personalStrings } from '../src/auth/password-strength';

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

  it('accepts a strong passphrase, and the passwords the tests and bench register with', () => {
    for (const password of ['tangerine orbit velvet quarry', 'correct horse battery', 'a-long-password', 'benchmark password']) {
      expect(judgePassword(password, owner), password).toMatchObject({ ok: true });
    }
  });

  it('ignores name and email pieces too short to matter, and judges a very long password quickly', () => {
    expect(personalStrings({ email: 'al@x.io', name: 'Al Bo' })).toEqual(['alxio', 'albo']);
    const started = performance.now();
    expect(judgePassword('aB3$'.repeat(256), owner)).toMatchObject({ ok: false });
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});
