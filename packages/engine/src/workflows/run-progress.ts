/**
 * What a run workflow knows of its run as it goes (RunProgress): its plan, context and state, the bookkeeping
 * local activities it books, and how it settles. The handlers that read or change it from outside are in
 * run-handlers.ts. run-workflow.ts tells the run's story with it. Imports stay limited to the Temporal workflow SDK
 * and pure modules.
 */
import type { DecidedRunStatus } from '@atelier/domain/review';
import {
  CancellationScope,
  getExternalWorkflowHandle,
  isCancellation,
  proxyLocalActivities,
  upsertSearchAttributes,
  uuid4,
} from '@temporalio/workflow';
import type { Gate } from '@atelier/contracts/workflow-definition';
import { lockedStop, lockingGates } from '@atelier/domain/gates';
import { outputsReadOf, workflowReadsOutput } from '@atelier/domain/output-refs';
import type { RunContext } from '@atelier/domain/run-context';
import type { PlannedStep, RunPlan } from '@atelier/domain/run-plan';
import type { RunActivities } from '../activities/definitions.js';
import type { RunOutcome, RunWorkflowInput, SettleRunInput, StepResult } from '../run-types.js';
import { RunStop, describeEngineFailure } from './run-failures.js';
import { SEARCH_ATTRIBUTES } from './search-attributes.js';

// Bookkeeping writes are short database transactions: local activities keep them off the task queue.
export const { settleRun, skipStep, settleChildStep, emitArtifact, recheckCharacter } = proxyLocalActivities<RunActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '10 seconds', nonRetryableErrorTypes: ['run_missing'] },
});

export type Settlement = Omit<SettleRunInput, 'runId'>;
type LocalCall<A, R> = { executeWithOptions(options: { summary: string }, args: [A]): Promise<R> };

/** A bookkeeping local activity, with the summary the Web UI's timeline shows for it. */
export function book<A, R>(call: LocalCall<A, R>, summary: string, arg: A): Promise<R> {
  return call.executeWithOptions({ summary }, [arg]);
}

/** `2 · Outline (llm)`: how a step reads in the Web UI's timeline. */
export function stepLabel(step: PlannedStep, index: number): string {
  return `${index + 1} · ${step.name} (${step.kind})`;
}

/** What the workflow knows of its run as it goes, and how it settles. */
export class RunProgress {
  /** What the workflow interprets: the plan of the run's frozen definition. */
  readonly plan: RunPlan;
  /** The run's artifact, named as the run starts; steps store their files under it. */
  readonly artifactId: string;
  readonly context: RunContext;
  readonly passedGates = new Set<string>();
  /** Steps whose outputs the worker holds instead of the history (holdsOutput), in step order. */
  readonly heldOutputs: string[] = [];
  readonly state = { status: 'queued', stepIndex: 0, stepsDone: 0, cancelRequested: false };
  spentUsd = 0;
  lastOutput: unknown;
  sourceReportArtifactId: string | null;
  activeChild: string | undefined;
  /** The step under way (begun, not yet done), for a failure that interrupts it. */
  current: number | undefined;
  outcome: RunOutcome | undefined;
  /** The status the last step settled the run with. */
  settledByStep: RunOutcome['status'] | undefined;
  cancelledByTemporal = false;
  /** Provider jobs whose end a webhook announced (providerJobEndedSignal). */
  readonly endedJobs = new Set<string>();
  /** The review decision on a run settled in review (reviewDecidedSignal). */
  decided: DecidedRunStatus | undefined;
  /** Children that said they settled (childSettledSignal), by run id. */
  readonly settledChildren = new Map<string, RunOutcome>();

  constructor(readonly input: RunWorkflowInput) {
    this.plan = input.plan;
    this.artifactId = `artifact-${uuid4().replace(/-/g, '').slice(0, 16)}`;
    this.context = { intake: input.intake, inputs: input.inputs, steps: {} };
    this.sourceReportArtifactId = input.sourceReportArtifactId ?? null;
  }

  get cancelRequested(): boolean {
    return this.state.cancelRequested;
  }

  cancelFromTemporal(): void {
    this.cancelledByTemporal = true;
    this.state.cancelRequested = true;
    if (this.activeChild)
      void getExternalWorkflowHandle(this.activeChild)
        .cancel()
        .catch(() => undefined);
  }

  /** What an executeStep result tells the run: its spend, and a settlement (or a cancel) its last step found. */
  took(result: StepResult): unknown {
    this.spentUsd += result.costUsd;
    if (result.run?.cancelRequested) this.state.cancelRequested = true;
    else if (result.run) this.settledByStep = result.run.status;
    return result.output;
  }

  /** The run is past its consent check. Only the state query says so: `RunStatus` is written as the run settles. */
  markRunning(): void {
    this.state.status = 'running';
  }

  begin(index: number): void {
    this.state.stepIndex = index;
    this.current = index;
  }

  /** The step's output stays with the worker when only later steps read it (domain/output-refs.ts). */
  holdsOutput(index: number): boolean {
    return !workflowReadsOutput(this.plan, index);
  }

  /** The held outputs a step reads, named for its activity to fetch. */
  outputRefsOf(step: PlannedStep): { outputRefs?: string[] } {
    const outputRefs = outputsReadOf(step.reads, this.heldOutputs);
    return outputRefs.length > 0 ? { outputRefs } : {};
  }

  /** `held`: the output stayed with the worker (holdsOutput), so the context names the step without it. */
  done(step: PlannedStep, index: number, output: unknown, held = false): void {
    if (held) this.heldOutputs.push(step.id);
    else this.context.steps[step.id] = output;
    this.lastOutput = output;
    this.state.stepsDone = index + 1;
    this.current = undefined;
  }

  /** A gate judged before the gates that unlock it passed stops the run on its step. */
  refuseIfLocked(gate: Gate, index: number): void {
    const locking = lockingGates(this.plan.gates, gate.id, this.passedGates);
    if (locking.length > 0) throw new RunStop({ status: 'failed', ...lockedStop(gate, locking), failedStepIndex: index });
  }

  artifactOf(content: unknown): { id: string; content: unknown } {
    return { id: this.artifactId, content };
  }

  source(): { sourceReportArtifactId: string | null } {
    return { sourceReportArtifactId: this.sourceReportArtifactId };
  }

  /** settleRun writes the settlement, or finds the run already settled (a cancel first): the status it reports stands. */
  async settle(result: Settlement): Promise<RunOutcome> {
    const written = await book(settleRun, `Settle the run ${result.status}`, { runId: this.input.runId, ...result });
    return this.finish(written.status, result.artifact?.id, result);
  }

  /** The run as settled (by settleRun, or by its last step): shown in Temporal and returned. */
  finish(status: RunOutcome['status'], artifactId: string | undefined, failure: Pick<Settlement, 'errorCode' | 'error'> = {}): RunOutcome {
    this.state.status = status;
    upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.RunStatus, value: status }]);
    this.outcome = {
      runId: this.input.runId,
      status,
      artifactId,
      artifactType: this.plan.artifactSchema.artifactType,
      errorCode: failure.errorCode,
      error: failure.error,
    };
    return this.outcome;
  }

  /** Any failure still settles the run before the execution closes; if even that fails, the reconciler does. */
  async settleFailure(err: unknown): Promise<RunOutcome> {
    if (err instanceof RunStop) return this.settle(err.result);
    const interrupted = this.current;
    // A Temporal cancellation settles too, hence outside the cancelled scope.
    return CancellationScope.nonCancellable(() =>
      this.settle(
        isCancellation(err)
          ? { status: 'cancelled' }
          : { status: 'failed', ...describeEngineFailure(err), ...(interrupted !== undefined ? { failedStepIndex: interrupted } : {}) },
      ),
    );
  }
}
