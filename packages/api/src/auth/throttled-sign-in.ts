import { fail } from '../errors.js';
import type { AppServices } from '../services.js';
import { DEFAULT_LOGIN_THROTTLE, throttledPasswordCheck } from './login-throttle.js';

/**
 * A password checked for the account `email` under the sign-in throttle of that account and the caller's
 * address (http/client-address.ts: requestAddress): true when right, false when wrong, a 429 with Retry-After
 * while either is blocked. Sign-in and
 * account changes (the current password) both go through it, so neither is a way to guess at full speed.
 */
export async function passwordUnderThrottle(
  services: AppServices,
  { email, address }: { email: string; address: string },
  verify: () => Promise<boolean>,
): Promise<boolean> {
  // createApp has resolved the settings (ATELIER_LOGIN_* over the defaults) once, at start.
  const settings = { ...DEFAULT_LOGIN_THROTTLE, ...services.loginThrottle };
  const check = await throttledPasswordCheck(services.db, settings, { email, address }, verify);
  if (check.outcome === 'throttled') throw fail.loginThrottled(check.retryAfterSeconds);
  return check.outcome === 'right';
}
