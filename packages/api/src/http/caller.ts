import type { Context } from 'hono';
import type { Caller } from '../caller.js';
import type { AppEnv } from '../services.js';

/** The caller of an authenticated request, as services take it: read from what the middleware set on the context. */
export function callerOf(c: Context<AppEnv>): Caller {
  return {
    principal: c.get('principal'),
    services: c.get('services'),
    logger: c.get('logger'),
    requestId: c.get('requestId'),
    metrics: c.get('metrics'),
  };
}
