import type { Context } from 'hono';
import { fail } from '../errors.js';
import { clientAddress } from '../http/client-address.js';
import type { AppEnv } from '../services.js';
import { DEFAULT_LOGIN_THROTTLE, throttledPasswordCheck } from './login-throttle.js';

/**
 * A password checked for the account `email` under the sign-in throttle of that account and the caller's
 * address: true when right, false when wrong, a 429 with Retry-After while either is blocked. Sign-in and
 * account changes (the current password) both go through it, so neither is a way to guess at full speed.
 */
export async function passwordUnderThrottle(c: Context<AppEnv>, email: string, verify: () => Promise<boolean>): Promise<boolean> {
  const services = c.get('services');
  // createApp has resolved the settings (ATELIER_LOGIN_* over the defaults) once, at start.
  const settings = { ...DEFAULT_LOGIN_THROTTLE, ...services.loginThrottle };
  const address = clientAddress(c, services.trustedProxyHops ?? 0);
  const check = await throttledPasswordCheck(services.db, settings, { email, address }, verify);
  if (check.outcome === 'throttled') throw fail.loginThrottled(check.retryAfterSeconds);
  return check.outcome === 'right';
}
