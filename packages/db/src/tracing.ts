import { type Context, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import type { LogEvent } from 'kysely';

/**
 * Whether this process should export traces: an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT,
 * or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) and neither OTEL_SDK_DISABLED=true nor OTEL_TRACES_EXPORTER=none
 * says otherwise. The one rule every package asks (the engine's tracing setup starts the SDK on it); when it
 * is false nothing is instrumented and the OpenTelemetry API stays the no-op it is by default.
 */
export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if (/^true$/i.test(env.OTEL_SDK_DISABLED?.trim() ?? '')) return false;
  if (/^none$/i.test(env.OTEL_TRACES_EXPORTER?.trim() ?? '')) return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim());
}

const tracer = () => trace.getTracer('@atelier/db');
const STATEMENT_LIMIT = 2_000;

/** The parent a database span would have: only work already being traced gets query spans. */
function recordingParent(): Context | undefined {
  const active = context.active();
  return trace.getSpan(active)?.isRecording() ? active : undefined;
}

/**
 * A kysely `log` hook that records each query as a client span, a child of whatever span is active where
 * the query was issued (a gateway request, an activity, a dispatch). Queries outside any trace (the
 * dispatcher's polling, metric scrapes) make no span, so a trace is never started by the database. The
 * hook runs after the query, in the caller's async context, so the span is created with its measured start.
 */
export function queryTracingLog(event: LogEvent): void {
  const parent = recordingParent();
  if (!parent) return;
  const end = performance.timeOrigin + performance.now();
  const statement = event.query.sql;
  const operation = /^\s*([a-z]+)/i.exec(statement)?.[1]?.toUpperCase() ?? 'QUERY';
  const table = /\b(?:from|into|update|join)\s+"?([a-z_][a-z0-9_]*)"?/i.exec(statement)?.[1];
  const span = tracer().startSpan(
    table ? `${operation} ${table}` : operation,
    {
      kind: SpanKind.CLIENT,
      startTime: end - event.queryDurationMillis,
      attributes: {
        'db.system': 'postgresql',
        'db.operation': operation,
        ...(table ? { 'db.sql.table': table } : {}),
        'db.statement': statement.length > STATEMENT_LIMIT ? `${statement.slice(0, STATEMENT_LIMIT)}…` : statement,
      },
    },
    parent,
  );
  if (event.level === 'error') {
    const err = event.error instanceof Error ? event.error : new Error(String(event.error));
    span.recordException(err);
    span.setStatus({ code: SpanStatusCode.ERROR, message: err.message });
  }
  span.end(end);
}

/**
 * The W3C traceparent of the span active here, for a record that work will be picked up from later (an
 * engine command): null when nothing is being traced. With tracing off the propagator is the API's no-op.
 */
export function activeTraceparent(): string | null {
  if (!recordingParent()) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}
