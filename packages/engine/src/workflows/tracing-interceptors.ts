/**
 * The workflow interceptors bundled only when tracing is on (engine/tracing.ts, TRACING_WORKFLOW_MODULES).
 *
 * Temporal's OpenTelemetry interceptors make the RunWorkflow, StartActivity and StartChildWorkflow spans
 * and export them through the worker's `exporter` sink. Used as they come, they draw span ids from the
 * workflow's Math.random — the same seeded stream the workflow's own ids (a sub-workflow's child run id)
 * come from — so a run started with tracing off would replay differently with tracing on, and the other way
 * round (test/integration/tracing.test.ts replays the committed histories with this bundle). Here they get a
 * tracer whose ids are derived from the execution's run id and a counter instead: the same on every replay
 * of the execution, and the workflow's random stream is left alone. Query handlers and update validators
 * (which do not run again on replay) make no span, so they cannot shift the counter.
 *
 * Ours then run inside Temporal's spans: a run workflow names its run on its RunWorkflow span and puts the
 * run's ids in the baggage, which the StartActivity spans send along with each activity; the worker names
 * the run on every span of that activity. A child run (a sub-workflow or an order's child) replaces its
 * parent's ids with its own; an order names itself. Nothing here issues a command.
 */
// First: Temporal's module gives the sandbox the globals the OpenTelemetry SDK expects (performance) before the SDK loads.
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow/index.js';
import { SpanExporter } from '@temporalio/interceptors-opentelemetry/lib/workflow/span-exporter.js';
import { type Attributes, type Baggage, type Tracer, context, propagation, trace } from '@opentelemetry/api';
import { BasicTracerProvider, type IdGenerator, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  type ActivityInput,
  type LocalActivityInput,
  type Next,
  type QueryInput,
  type UpdateInput,
  type StartChildWorkflowExecutionInput,
  type WorkflowExecuteInput,
  type WorkflowInboundCallsInterceptor,
  type WorkflowInterceptors,
  type WorkflowOutboundCallsInterceptor,
  workflowInfo,
} from '@temporalio/workflow';
import type { OrderWorkflowInput, RunStart } from '../run-types.js';

/** 32-bit words of a string (cyrb128): a small, dependency-free hash that never touches Math.random. */
function words(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044559);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044559);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

const hex = (n: number) => n.toString(16).padStart(8, '0');

/** Span and trace ids from this execution's run id and a counter: deterministic, and apart from the workflow's random. */
class ExecutionScopedIds implements IdGenerator {
  private next = 0;
  private id(kind: string): [number, number, number, number] {
    const w = words(`${workflowInfo().runId}/${kind}/${this.next++}`);
    if (w.every((x) => x === 0)) w[0] = 1; // an all-zero id is invalid
    return w;
  }
  generateTraceId(): string {
    return this.id('trace').map(hex).join('');
  }
  generateSpanId(): string {
    const [a, b] = this.id('span');
    return hex(a) + hex(b);
  }
}

// Module state is per workflow execution (the bundle's module cache belongs to the execution).
let tracer: Tracer | undefined;
function executionTracer(): Tracer {
  tracer ??= new BasicTracerProvider({
    idGenerator: new ExecutionScopedIds(),
    spanProcessors: [new SimpleSpanProcessor(new SpanExporter())],
  }).getTracer('@temporalio/interceptor-workflow');
  return tracer;
}

/** Temporal's inbound spans with the execution's ids; none for queries and update validators. */
class TracedInbound extends OpenTelemetryInboundInterceptor {
  protected override readonly tracer = executionTracer();

  override handleQuery(input: QueryInput, next: Next<WorkflowInboundCallsInterceptor, 'handleQuery'>): Promise<unknown> {
    return next(input);
  }

  override validateUpdate(input: UpdateInput, next: Next<WorkflowInboundCallsInterceptor, 'validateUpdate'>): void {
    next(input);
  }
}

/** Temporal's outbound spans (StartActivity, StartChildWorkflow, ...) with the execution's ids. */
class TracedOutbound extends OpenTelemetryOutboundInterceptor {
  protected override readonly tracer = executionTracer();
}

function identityOf(workflowType: string, input: unknown): Attributes | undefined {
  if (workflowType === 'runWorkflow') {
    const run = input as Partial<RunStart & { plan: { id?: string } }> | undefined;
    const attributes: Attributes = {};
    if (run?.runId) attributes['atelier.run_id'] = run.runId;
    if (run?.workspaceId) attributes['atelier.workspace_id'] = run.workspaceId;
    const templateId = run?.plan?.id;
    if (templateId) attributes['atelier.template_id'] = templateId;
    return attributes;
  }
  if (workflowType === 'orderWorkflow') {
    const order = input as Partial<OrderWorkflowInput> | undefined;
    return order?.orderId ? { 'atelier.order_id': order.orderId } : undefined;
  }
  return undefined;
}

/** The `atelier.*` baggage entries of the current context, as attributes of the span active here. */
function nameActiveSpan(): void {
  const span = trace.getActiveSpan();
  const baggage = propagation.getBaggage(context.active());
  if (!span || !baggage) return;
  for (const [key, entry] of baggage.getAllEntries()) if (key.startsWith('atelier.')) span.setAttribute(key, entry.value);
}

class RunIdentityInbound implements WorkflowInboundCallsInterceptor {
  async execute(input: WorkflowExecuteInput, next: Next<WorkflowInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    const attributes = identityOf(workflowInfo().workflowType, input.args[0]);
    if (!attributes || Object.keys(attributes).length === 0) return next(input);
    let baggage: Baggage = propagation.getBaggage(context.active()) ?? propagation.createBaggage();
    // A child run inherits its parent's baggage: its own ids replace the parent's.
    if (attributes['atelier.run_id']) baggage = baggage.removeEntries('atelier.run_id', 'atelier.workspace_id', 'atelier.template_id');
    for (const [key, value] of Object.entries(attributes)) baggage = baggage.setEntry(key, { value: String(value) });
    const withIdentity = propagation.setBaggage(context.active(), baggage);
    return context.with(withIdentity, () => {
      nameActiveSpan();
      return next(input);
    });
  }
}

class RunIdentityOutbound implements WorkflowOutboundCallsInterceptor {
  scheduleActivity(input: ActivityInput, next: Next<WorkflowOutboundCallsInterceptor, 'scheduleActivity'>): Promise<unknown> {
    nameActiveSpan();
    return next(input);
  }

  scheduleLocalActivity(
    input: LocalActivityInput,
    next: Next<WorkflowOutboundCallsInterceptor, 'scheduleLocalActivity'>,
  ): Promise<unknown> {
    nameActiveSpan();
    return next(input);
  }

  startChildWorkflowExecution(
    input: StartChildWorkflowExecutionInput,
    next: Next<WorkflowOutboundCallsInterceptor, 'startChildWorkflowExecution'>,
  ): Promise<[Promise<string>, Promise<unknown>]> {
    nameActiveSpan();
    return next(input);
  }
}

export const interceptors = (): WorkflowInterceptors => ({
  inbound: [new TracedInbound(), new RunIdentityInbound()],
  outbound: [new TracedOutbound(), new RunIdentityOutbound()],
  internals: [new OpenTelemetryInternalsInterceptor()],
});
