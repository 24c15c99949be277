import { createMiddleware } from 'hono/factory';
import { matchedRoutes } from 'hono/route';
import type { Context } from 'hono';
import type { GatewayMetrics } from '../metrics.js';
import type { AppEnv } from '../services.js';

/**
 * Counts and times every request by route template: the path of the route Hono matched
 * (`/v1/runs/:run_id`, custom actions as `/v1/subjects/:subject_id:erase`), never the raw URL, so ids
 * never become label values. A request no route matched counts as `unmatched`. Also hands the metrics
 * to the handlers (`c.get('metrics')`).
 */
export function httpMetrics(metrics: GatewayMetrics) {
  return createMiddleware<AppEnv>(async (c, next) => {
    c.set('metrics', metrics);
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = routeTemplate(c);
      const method = c.req.method;
      metrics.httpRequests.inc({ route, method, status: String(c.res.status) });
      metrics.httpDuration.observe({ route, method }, (performance.now() - started) / 1000);
    }
  });
}

/** The last route matched that is a handler (middleware registered with `use` has method ALL). */
export function routeTemplate(c: Context): string {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) {
    const r = routes[i]!;
    if (r.method !== 'ALL' && !r.path.endsWith('*')) return r.path.replace(/\/~([a-z][a-z-]*)$/, ':$1');
  }
  return 'unmatched';
}
