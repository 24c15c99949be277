import {
  type Db,
  type ThrottleKey,
  type ThrottleRule,
  admitLoginAttempt,
  clearLoginFailures,
  refundLoginAttempt,
  sweepLoginThrottles,
} from '@atelier/db';

/**
 * How failed sign-ins are throttled (db/login-throttles.ts has the rule). Per account: 10 failures, then
 * blocks of 1, 2, 4, 8 and at most 15 minutes, so a guesser gets a few dozen tries a day and its victim
 * waits at most 15 minutes after the guessing stops. Per address: 100 failures over any accounts, then
 * the same back-off. A count starts over after an hour without failures.
 */
export interface LoginThrottleSettings {
  accountFailures: number;
  addressFailures: number;
  windowSeconds: number;
  backoffSeconds: number;
  backoffMaxSeconds: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottleSettings = {
  accountFailures: 10,
  addressFailures: 100,
  windowSeconds: 3_600,
  backoffSeconds: 60,
  backoffMaxSeconds: 900,
};

const VARIABLES: Record<keyof LoginThrottleSettings, string> = {
  accountFailures: 'ATELIER_LOGIN_ACCOUNT_FAILURES',
  addressFailures: 'ATELIER_LOGIN_ADDRESS_FAILURES',
  windowSeconds: 'ATELIER_LOGIN_WINDOW_SECONDS',
  backoffSeconds: 'ATELIER_LOGIN_BACKOFF_SECONDS',
  backoffMaxSeconds: 'ATELIER_LOGIN_BACKOFF_MAX_SECONDS',
};

/** The settings: `given` (tests) over ATELIER_LOGIN_* over the defaults; a bad value stops the gateway at start. */
export function loginThrottleSettings(
  env: NodeJS.ProcessEnv = process.env,
  given: Partial<LoginThrottleSettings> = {},
): LoginThrottleSettings {
  const settings = { ...DEFAULT_LOGIN_THROTTLE };
  for (const [field, variable] of Object.entries(VARIABLES) as Array<[keyof LoginThrottleSettings, string]>) {
    const raw = given[field] ?? env[variable];
    if (raw === undefined || raw === '') continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1) throw new Error(`${variable} must be a whole number ≥ 1, not "${raw}"`);
    settings[field] = value;
  }
  // A count that started over during a block would hand a guesser a fresh budget after every block.
  if (settings.windowSeconds < settings.backoffMaxSeconds) {
    throw new Error(`${VARIABLES.windowSeconds} (${settings.windowSeconds}) must not be shorter than ${VARIABLES.backoffMaxSeconds}`);
  }
  return settings;
}

/** Who is guessing: the account named and the client's address (http/client-address.ts). */
export interface SignInAttempt {
  email: string;
  address: string;
}

export type PasswordCheck = { outcome: 'right' } | { outcome: 'wrong' } | { outcome: 'throttled'; retryAfterSeconds: number };

const SWEEP_EVERY_MS = 60_000;
let lastSweep = 0;

/**
 * Checks a password under the throttle: refused unchecked while the account or the address is blocked;
 * otherwise counted as a failure before `verify` runs (so concurrent guesses are counted too), and taken
 * back when it was right: the account's count starts over, the address gets back this one attempt.
 */
export async function throttledPasswordCheck(
  db: Db,
  settings: LoginThrottleSettings,
  attempt: SignInAttempt,
  verify: () => Promise<boolean>,
): Promise<PasswordCheck> {
  const rule = (budget: number): ThrottleRule => ({
    budget,
    windowSeconds: settings.windowSeconds,
    backoffSeconds: settings.backoffSeconds,
    backoffMaxSeconds: settings.backoffMaxSeconds,
  });
  const account = attempt.email.trim().toLowerCase();
  const keys: ThrottleKey[] = [
    { scope: 'account', key: account, rule: rule(settings.accountFailures) },
    { scope: 'address', key: attempt.address, rule: rule(settings.addressFailures) },
  ];
  const admission = await admitLoginAttempt(db, keys);
  if (!admission.admitted) return { outcome: 'throttled', retryAfterSeconds: admission.retryAfterSeconds };
  // Keys that went quiet are forgotten now and then (an unknown email leaves a row too); once a minute per gateway is plenty.
  if (Date.now() - lastSweep > SWEEP_EVERY_MS) {
    lastSweep = Date.now();
    await sweepLoginThrottles(db, settings.windowSeconds);
  }
  if (!(await verify())) return { outcome: 'wrong' };
  await clearLoginFailures(db, 'account', account);
  if (admission.stamps.address) await refundLoginAttempt(db, 'address', attempt.address, admission.stamps.address);
  return { outcome: 'right' };
}
