import { randomUUID } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import type { AppEnv, AppServices } from '../services.js';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request its services, a request id (the caller's X-Request-Id when it is sane) echoed in
 * the response, and a logger bound to that id; logs one line per request.
 */
export function requestContext(services: AppServices) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && SAFE_ID.test(incoming) ? incoming : randomUUID();
    const logger = services.logger.child({ requestId });
    c.set('services', services);
    c.set('requestId', requestId);
    c.set('logger', logger);
    c.header('X-Request-Id', requestId);
    const started = performance.now();
    await next();
    // A response built outside the context (an error page) lacks the header set above. Setting it on a
    // response that has it would rebuild the response (Hono copies a finalized one) for nothing.
    if (c.res.headers.get('x-request-id') !== requestId) c.header('X-Request-Id', requestId);
    logger.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) }, 'request');
  });
}
