import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as englishDictionary, translations } from '@zxcvbn-ts/language-en';

/**
 * zxcvbn's score a password needs: 3 means about 10^8 guesses or more, out of reach of an online guesser
 * (sign-ins are throttled) and slow even offline against our Argon2id hashes.
 */
export const MIN_PASSWORD_SCORE = 3;

/**
 * How much of a password is judged. zxcvbn's cost grows fast with length and with characters that read as
 * l33t substitutions (a 1,024-character one took 3.7 s here); a password is at least as strong as its start.
 */
const JUDGED_CHARACTERS = 64;
const L33T_SUBSTITUTIONS = 8;

/** A name or email part shorter than this is too common a string to refuse in passwords. */
const PERSONAL_MIN_LENGTH = 4;

export interface PasswordOwner {
  email: string;
  name: string;
}

export type PasswordVerdict =
  | { ok: true; score: number }
  | { ok: false; reason: 'personal' | 'guessable'; score: number; message: string; suggestions: string[] };

let estimator: ZxcvbnFactory | undefined;
const zxcvbn = () =>
  (estimator ??= new ZxcvbnFactory({
    dictionary: { ...commonDictionary, ...englishDictionary },
    graphs: adjacencyGraphs,
    translations,
    maxLength: JUDGED_CHARACTERS,
    l33tMaxSubstitutions: L33T_SUBSTITUTIONS,
  }));

/** Letters and digits only, lower-cased: "Jane.Doe" and "jane doe" are the same string to a guesser. */
const squeeze = (s: string) =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');

/** The owner's strings a guesser tries first: the email, its local part and its pieces, the name and its words. */
export function personalStrings(owner: PasswordOwner): string[] {
  const local = owner.email.split('@')[0] ?? '';
  const pieces = [owner.email, local, ...local.split(/[._+-]/), owner.name, ...owner.name.split(/[\s._-]+/)];
  return [...new Set(pieces.map(squeeze))].filter((s) => s.length >= PERSONAL_MIN_LENGTH);
}

/**
 * Whether a password may be set for its owner: refused when it contains the owner's email or name (in any
 * case, with or without separators), or when zxcvbn scores it under MIN_PASSWORD_SCORE, with zxcvbn's
 * own feedback saying why.
 */
export function judgePassword(password: string, owner: PasswordOwner): PasswordVerdict {
  const personal = personalStrings(owner);
  const squeezed = squeeze(password);
  const result = zxcvbn().check(password, personal);
  if (personal.some((s) => squeezed.includes(s))) {
    return {
      ok: false,
      reason: 'personal',
      score: result.score,
      message: 'The password contains your email address or name.',
      suggestions: ['Leave your own name and email out of it.'],
    };
  }
  if (result.score >= MIN_PASSWORD_SCORE) return { ok: true, score: result.score };
  const why = result.feedback.warning ?? 'It would be guessed early.';
  return {
    ok: false,
    reason: 'guessable',
    score: result.score,
    message: `The password is too easy to guess: ${why}`,
    suggestions: result.feedback.suggestions,
  };
}
