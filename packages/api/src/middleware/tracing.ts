import { ROOT_CONTEXT, SpanKind, SpanStatusCode, type TextMapGetter, context, propagation, trace } from '@opentelemetry/api';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../services.js';
import { routeTemplate } from './metrics.js';

/** Probes and scrapes are not worth a trace each. */
const UNTRACED = new Set(['/healthz', '/readyz', '/metrics']);

const headerGetter: TextMapGetter<Headers> = {
  keys: (headers) => [...headers.keys()],
  get: (headers, key) => headers.get(key) ?? undefined,
};

/**
 * One server span per request (installed only when tracing is on), named by the matched route template
 * (`POST /v1/runs`), continuing the caller's trace when it sends a W3C `traceparent`. Everything the
 * request does runs inside it: its queries, and the engine command it records, which carries this span's
 * traceparent to the dispatcher. A request that creates a run has it named on this span by createRun.
 */
export function traceRequests() {
  const tracer = trace.getTracer('@atelier/api');
  return createMiddleware<AppEnv>(async (c, next) => {
    if (UNTRACED.has(c.req.path)) return next();
    const method = c.req.method;
    const parent = propagation.extract(ROOT_CONTEXT, c.req.raw.headers, headerGetter);
    const span = tracer.startSpan(
      method,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': method, 'url.path': c.req.path, 'url.scheme': new URL(c.req.url).protocol.replace(':', '') },
      },
      parent,
    );
    try {
      await context.with(trace.setSpan(parent, span), next);
    } finally {
      const route = routeTemplate(c);
      const status = c.res.status;
      span.updateName(`${method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': status });
      const requestId = c.get('requestId');
      if (requestId) span.setAttribute('atelier.request_id', requestId);
      if (c.error) span.recordException(c.error);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  });
}
