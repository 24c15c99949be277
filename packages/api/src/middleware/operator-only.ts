import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { fail } from '../errors.js';

/**
 * Guards an operator's endpoint on the public port (the gateway's /metrics): it answers only a request
 * that brings `Authorization: Bearer <token>`, compared in constant time. Without a token configured the
 * endpoint is not served at all; either way a stranger gets the same 404 as any unknown path, so the
 * guard does not advertise what it guards.
 */
export function operatorOnly(token: string | undefined): MiddlewareHandler {
  const expected = token ? Buffer.from(`Bearer ${token}`) : undefined;
  return async function operatorOnlyGuard(c, next) {
    const given = Buffer.from(c.req.header('authorization') ?? '');
    if (!expected || given.length !== expected.length || !timingSafeEqual(given, expected)) throw fail.noRoute(c.req.method, c.req.path);
    await next();
  };
}
