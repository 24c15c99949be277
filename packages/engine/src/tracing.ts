/**
 * OpenTelemetry tracing for the gateway and the worker: one module owns the setup (docs/operations.md,
 * Traces). With an OTLP endpoint configured (OTEL_EXPORTER_OTLP_ENDPOINT, the standard variables), the
 * first `startTracing` of a process loads the SDK, registers a tracer provider with an OTLP/HTTP (JSON)
 * exporter, and hands out the Temporal interceptors; without one it loads nothing, registers nothing, and
 * the OpenTelemetry API stays the no-op it is by default, so every helper here falls through to the plain
 * call. The SDK and the Temporal interceptors are imported lazily, only when tracing starts.
 *
 * How one run becomes one trace: the gateway's request span → the request records the engine command with
 * its traceparent (db/engine-commands) → the dispatcher delivers it in a span parented on that traceparent,
 * with the run's ids as attributes and as baggage → the Temporal client interceptor's StartWorkflow span
 * carries the context in the workflow's headers → RunWorkflow and StartActivity spans in the workflow
 * (exported through a sink) → RunActivity spans on the worker → database, storage and provider spans
 * under them. Baggage entries named `atelier.*` become attributes of every span the worker starts.
 */
import { fileURLToPath } from 'node:url';
import {
  type Attributes,
  type Baggage,
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
} from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Client } from '@temporalio/client';
import type { InjectedSinks, WorkerOptions } from '@temporalio/worker';
import { tracingRequested } from '@atelier/db/tracing';

export { tracingRequested } from '@atelier/db/tracing';

export const GATEWAY_SERVICE_NAME = 'atelier-gateway';
export const WORKER_SERVICE_NAME = 'atelier-worker';

/** Span attributes naming the run a span belongs to (also carried as baggage, see above). */
export const RUN_ATTRIBUTES = {
  runId: 'atelier.run_id',
  workspaceId: 'atelier.workspace_id',
  templateId: 'atelier.template_id',
  orderId: 'atelier.order_id',
} as const;

/**
 * The workflow interceptor module bundled into the workflow code when tracing is on: Temporal's
 * OpenTelemetry interceptors (the RunWorkflow, StartActivity and StartChildWorkflow spans, exported through
 * the `exporter` sink) with ids that leave the workflow's random alone, and the run's ids on those spans
 * and in the baggage handed to activities (workflows/tracing-interceptors.ts says why).
 */
export const TRACING_WORKFLOW_MODULES: readonly string[] = [
  fileURLToPath(new URL(`./workflows/tracing-interceptors.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url)),
];

export interface TracingOptions {
  /** `service.name` unless OTEL_SERVICE_NAME (or OTEL_RESOURCE_ATTRIBUTES) names one. */
  serviceName: string;
  env?: NodeJS.ProcessEnv;
  /** Replaces the OTLP exporter (tests); only consulted when tracing is requested. */
  createExporter?: () => SpanExporter;
}

/** What `startTracing` hands each caller; `enabled: false` is the whole story when tracing is off. */
export interface Tracing {
  readonly enabled: boolean;
  /** The service name spans of this process carry (the first caller's when gateway and worker share one). */
  readonly serviceName?: string;
  /** The Temporal client with the OpenTelemetry client interceptor (StartWorkflow, SignalWorkflow spans); the same client when off. */
  traceClient(client: Client): Client;
  /** Worker options adding the activity interceptors and the workflow span sink; empty when off. */
  workerOptions(): Pick<WorkerOptions, 'interceptors' | 'sinks'>;
  /** Flushes what is buffered; the last caller of a process also shuts the provider down and unregisters it. */
  shutdown(): Promise<void>;
}

const OFF: Tracing = {
  enabled: false,
  traceClient: (client) => client,
  workerOptions: () => ({}),
  shutdown: async () => undefined,
};

interface ProcessTracing {
  serviceName: string;
  processor: SpanProcessor;
  resource: Resource;
  shutdownProvider(): Promise<void>;
  temporal: typeof import('@temporalio/interceptors-opentelemetry');
  users: number;
}

/** One provider per process, shared by a gateway and a worker running side by side (`atelier dev`, tests). */
let shared: Promise<ProcessTracing> | undefined;
let active = false;

/** Whether this process is exporting traces right now (a cheap check for the hot paths). */
export function tracingActive(): boolean {
  return active;
}

/**
 * Starts tracing for this process when an OTLP endpoint is configured, else returns the `OFF` handle
 * without loading anything. Call once per gateway and once per worker; each caller shuts its handle down.
 */
export async function startTracing(opts: TracingOptions): Promise<Tracing> {
  const env = opts.env ?? process.env;
  if (!tracingRequested(env)) return OFF;
  shared ??= createProcessTracing(opts);
  let state: ProcessTracing;
  try {
    state = await shared;
  } catch (err) {
    shared = undefined;
    throw err;
  }
  state.users += 1;
  active = true;
  let closed = false;
  return {
    enabled: true,
    serviceName: state.serviceName,
    traceClient: (client) => tracedClient(client, state),
    workerOptions: () => ({
      interceptors: {
        activity: [
          (ctx) => ({
            inbound: new state.temporal.OpenTelemetryActivityInboundInterceptor(ctx),
            outbound: new state.temporal.OpenTelemetryActivityOutboundInterceptor(ctx),
          }),
        ],
      },
      sinks: { exporter: state.temporal.makeWorkflowExporter(state.processor, state.resource) } as InjectedSinks<never>,
    }),
    shutdown: async () => {
      if (closed) return;
      closed = true;
      state.users -= 1;
      if (state.users > 0) {
        await state.processor.forceFlush();
        return;
      }
      shared = undefined;
      active = false;
      await state.shutdownProvider();
    },
  };
}

async function createProcessTracing(opts: TracingOptions): Promise<ProcessTracing> {
  const [{ NodeTracerProvider }, { BatchSpanProcessor }, resources, { OTLPTraceExporter }, temporal] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@temporalio/interceptors-opentelemetry'),
  ]);
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (read by the env detector) win over the default name.
  const resource = resources.Resource.default()
    .merge(new resources.Resource({ 'service.name': opts.serviceName }))
    .merge(
      resources.detectResourcesSync({ detectors: [resources.envDetectorSync, resources.processDetectorSync, resources.hostDetectorSync] }),
    );
  const exporter = opts.createExporter?.() ?? new OTLPTraceExporter();
  const processor = new BatchSpanProcessor(exporter);
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new RunAttributesFromBaggage(), processor] });
  // Registers the provider, the AsyncLocalStorage context manager and the W3C trace-context + baggage propagator.
  provider.register();
  return {
    serviceName: String(resource.attributes['service.name'] ?? opts.serviceName),
    processor,
    resource,
    temporal,
    users: 0,
    shutdownProvider: async () => {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/**
 * Copies the `atelier.*` baggage entries of a span's parent context onto the span as attributes, so every
 * span a step makes (its RunActivity, queries, storage writes, provider calls) names its run.
 */
class RunAttributesFromBaggage implements SpanProcessor {
  onStart(span: Span, parentContext: Context): void {
    const baggage = propagation.getBaggage(parentContext);
    if (!baggage) return;
    for (const [key, entry] of baggage.getAllEntries()) if (key.startsWith('atelier.')) span.setAttribute(key, entry.value);
  }
  onEnd(_span: ReadableSpan): void {}
  async forceFlush(): Promise<void> {}
  async shutdown(): Promise<void> {}
}

function tracedClient(client: Client, state: ProcessTracing): Client {
  const existing = client.options.interceptors?.workflow;
  return new Client({
    connection: client.connection,
    namespace: client.options.namespace,
    identity: client.options.identity,
    dataConverter: client.options.dataConverter,
    workflow: client.options.workflow,
    interceptors: {
      ...client.options.interceptors,
      workflow: [...(Array.isArray(existing) ? existing : []), new state.temporal.OpenTelemetryWorkflowClientInterceptor()],
    },
  });
}

const tracer = () => trace.getTracer('@atelier/engine');

function recordFailure(span: Span, err: unknown): void {
  const error = err instanceof Error ? err : new Error(String(err));
  span.recordException(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
}

/** Runs `fn` in a span made active, ending it (and recording a failure) when `fn` settles. */
async function inSpan<T>(span: Span, parent: Context, fn: () => Promise<T>): Promise<T> {
  try {
    return await context.with(trace.setSpan(parent, span), fn);
  } catch (err) {
    recordFailure(span, err);
    throw err;
  } finally {
    span.end();
  }
}

/**
 * A step attempt that may run on after its activity returned (step-attempt.ts `detached`) as a span of its
 * own under the activity's: the activity's span ends when the slot is handed back, and a span that has ended
 * takes no children, so the attempt's provider calls, storage and queries go under this one.
 */
export function traceStepAttempt<T>(activityType: string, fn: () => Promise<T>): Promise<T> {
  const parent = context.active();
  if (!active || !trace.getSpan(parent)) return fn();
  return inSpan(tracer().startSpan(`StepAttempt:${activityType}`, { kind: SpanKind.INTERNAL }, parent), parent, fn);
}

/** What the dispatcher needs of an engine command to deliver it in its request's trace. */
export interface TracedCommand {
  id: number;
  kind: string;
  target_id: string;
  attempts: number;
  traceparent?: string | null;
}

/**
 * Delivers an engine command inside a span whose parent is the request that recorded it (its stored
 * traceparent), so the workflow start joins that request's trace even though it happens later, in
 * another transaction, maybe in another gateway. A command recorded without one starts a trace of its own.
 */
export async function traceEngineCommand<T>(command: TracedCommand, deliver: () => Promise<T>): Promise<T> {
  if (!active) return deliver();
  const parent = command.traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent: command.traceparent }) : ROOT_CONTEXT;
  const span = tracer().startSpan(
    `dispatch ${command.kind}`,
    {
      kind: SpanKind.PRODUCER,
      attributes: {
        'atelier.engine_command.id': command.id,
        'atelier.engine_command.kind': command.kind,
        'atelier.engine_command.target_id': command.target_id,
        'atelier.engine_command.attempt': command.attempts,
      },
    },
    parent,
  );
  return inSpan(span, parent, deliver);
}

export interface RunIdentity {
  runId?: string;
  workspaceId?: string;
  templateId?: string;
  orderId?: string | null;
}

function runAttributes(run: RunIdentity): Attributes {
  const attributes: Attributes = {};
  if (run.runId) attributes[RUN_ATTRIBUTES.runId] = run.runId;
  if (run.workspaceId) attributes[RUN_ATTRIBUTES.workspaceId] = run.workspaceId;
  if (run.templateId) attributes[RUN_ATTRIBUTES.templateId] = run.templateId;
  if (run.orderId) attributes[RUN_ATTRIBUTES.orderId] = run.orderId;
  return attributes;
}

/** Names the run on the span active where it is created (the request's); free when tracing is off. */
export function nameRunOnSpan(run: RunIdentity): void {
  if (active) trace.getActiveSpan()?.setAttributes(runAttributes(run));
}

/**
 * Names the run on the active span and runs `fn` with the run's ids in the baggage, so the spans started
 * under it (the workflow start, and through Temporal's headers the workflow and its activities) carry them.
 */
export function withRunContext<T>(run: RunIdentity, fn: () => Promise<T>): Promise<T> {
  if (!active) return fn();
  const attributes = runAttributes(run);
  trace.getActiveSpan()?.setAttributes(attributes);
  let baggage: Baggage = propagation.getBaggage(context.active()) ?? propagation.createBaggage();
  for (const [key, value] of Object.entries(attributes)) baggage = baggage.setEntry(key, { value: String(value) });
  return context.with(propagation.setBaggage(context.active(), baggage), fn);
}

/**
 * An outgoing HTTP call to a model provider as a client span under the active one, with the W3C trace
 * headers to send along (empty when nothing is traced, and then no span is made).
 */
export async function traceProviderCall<T>(
  request: { method: string; url: string; path: string },
  call: (traceHeaders: Record<string, string>, span: Span | undefined) => Promise<T>,
): Promise<T> {
  const parent = context.active();
  if (!active || !trace.getSpan(parent)?.isRecording()) return call({}, undefined);
  const url = new URL(request.url);
  const span = tracer().startSpan(
    `${request.method} ${request.path}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'http.request.method': request.method,
        'server.address': url.hostname,
        ...(url.port ? { 'server.port': Number(url.port) } : {}),
        'url.full': `${url.origin}${url.pathname}`,
      },
    },
    parent,
  );
  return inSpan(span, parent, () => {
    const headers: Record<string, string> = {};
    propagation.inject(context.active(), headers);
    return call(headers, span);
  });
}
