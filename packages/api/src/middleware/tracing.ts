import { ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, type TextMapGetter, context, propagation, trace } from '@opentelemetry/api';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { RUN_ATTRIBUTES } from '@atelier/engine/tracing';
import type { AppEnv } from '../services';
import { routeTemplate } from './metrics';

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
 * traceparent to the dispatcher. A request that created a run names the run on the span.
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
      if (method === 'POST' && route === '/v1/runs' && status === 201) await nameCreatedRun(c, span);
      span.end();
    }
  });
}

/** The created run's ids, read back from the 201 body (only on this route, only when tracing). */
async function nameCreatedRun(c: Context<AppEnv>, span: Span): Promise<void> {
  try {
    const run = (await c.res.clone().json()) as { id?: unknown; workspaceId?: unknown; templateId?: unknown };
    if (typeof run.id === 'string') span.setAttribute(RUN_ATTRIBUTES.runId, run.id);
    if (typeof run.workspaceId === 'string') span.setAttribute(RUN_ATTRIBUTES.workspaceId, run.workspaceId);
    if (typeof run.templateId === 'string') span.setAttribute(RUN_ATTRIBUTES.templateId, run.templateId);
  } catch {
    // Not JSON after all: the span simply does not name a run.
  }
}
