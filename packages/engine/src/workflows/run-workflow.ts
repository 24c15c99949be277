/**
 * The run workflow: a deterministic interpreter of a frozen definition's runtimeSteps. It only decides;
 * every effect (model calls, files, database writes) happens in activities. Imports stay limited to the
 * Temporal workflow SDK and pure modules.
 */
import {
  CancellationScope,
  condition,
  defineQuery,
  defineSignal,
  defineUpdate,
  executeChild,
  getExternalWorkflowHandle,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
  uuid4,
} from '@temporalio/workflow';
import type { Gate } from '@atelier/contracts/workflow-definition';
import { approvalHold, budgetStop, gateOf, isJudgedGate, lockedStop, lockingGates } from '@atelier/domain/gates';
import { outputsReadOf, workflowReadsOutput } from '@atelier/domain/output-refs';
import { type RunContext, sliceContext } from '@atelier/domain/run-context';
import type { PlannedStep, RunPlan } from '@atelier/domain/run-plan';
import type { RunActivities } from '../activities/definitions';
import type { RunOutcome, RunWorkflowInput, SettleRunInput, StepResult } from '../run-types';
import { planOf, stepForActivity, stepForBookkeeping, templateIdOf } from './definition-ref';
import { NON_RETRYABLE, RunStop, childOutcome, closeAs, describeEngineFailure, describeStepFailure } from './run-failures';
import { type RunShapeFlags, SETTLE_EVERY_FAILURE_PATCH, runShapeOf } from './run-shape';
import { SEARCH_ATTRIBUTES } from './search-attributes';

const { executeStep, prepareChildRun } = proxyActivities<RunActivities>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '15 seconds',
  // No attempt limit here: the activity keeps its own budget (withRetryBudget), so a database outage is
  // waited out while a step's own failures still end after a few attempts.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', nonRetryableErrorTypes: NON_RETRYABLE },
});

// Bookkeeping writes are short database transactions: local activities keep them off the task queue.
const { markRunRunning, settleRun, skipStep, settleChildStep, emitArtifact, recheckCharacter } = proxyLocalActivities<RunActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '10 seconds', nonRetryableErrorTypes: ['run_missing'] },
});

export const cancelRunSignal = defineSignal('cancel');
export const runStateQuery = defineQuery<{ status: string; stepIndex: number; stepsDone: number; cancelRequested: boolean }>('state');
/** Completes a run whose steps are all done; waits for the workflow's own settlement and returns it. */
export const finalizeRunUpdate = defineUpdate<RunOutcome>('finalize');

type Settlement = Omit<SettleRunInput, 'runId'>;
type LocalCall<A extends unknown[], R> = ((...args: A) => Promise<R>) & {
  executeWithOptions(options: { summary?: string }, args: A): Promise<R>;
};

/**
 * The contract's story of a run: it may be cancelled before it starts; a character's consent is judged
 * again; then each step runs in order (supplied, a sub-workflow, or an activity), its gate is judged,
 * an approval gate holds the run for review; and the run settles `completed` with its artifact. Any
 * failure on the way settles it too, before the execution closes.
 */
export async function runWorkflow(input: RunWorkflowInput): Promise<RunOutcome> {
  const run = new RunProgress(input);
  if (!run.shape.named) return interpret(run);
  // A Temporal cancellation (the gateway's cancel, an order's or a parent's) stops the run at its next
  // step boundary, as the cancel signal does: the step in flight finishes and stays billed.
  CancellationScope.current().cancelRequested.catch(() => run.cancelFromTemporal());
  const outcome = await CancellationScope.nonCancellable(() => interpret(run));
  return closeAs(outcome, run.cancelledByTemporal);
}

/** The run from its first boundary to its settlement. */
async function interpret(run: RunProgress): Promise<RunOutcome> {
  const { input, plan } = run;
  try {
    if (run.cancelRequested) return await run.settle({ status: 'cancelled' });
    const characterId = input.intake.characterId;
    if (typeof characterId === 'string' && characterId) {
      const consentRefused = await recheckConsent(run, characterId);
      if (consentRefused) return await run.settle(consentRefused);
    }
    // In the lean shape the first step's start moves the run to running, in the same transaction.
    if (!run.shape.lean) await run.book(markRunRunning, 'Mark the run running', { runId: input.runId });
    run.markRunning();

    for (const [index, step] of plan.runtimeSteps.entries()) {
      if (run.cancelRequested) return await run.settle({ status: 'cancelled' });
      const gate = gateOf(plan.gates, step);
      run.begin(index);
      if (gate) run.refuseIfLocked(gate, index);
      let output: unknown;
      let held = false;
      const supplied = step.suppliedBy ? input.inputs[step.suppliedBy] : undefined;
      if (supplied !== undefined) output = await skipSupplied(run, step, index, supplied);
      else if (step.kind === 'subWorkflow') output = await runChild(run, step, index);
      else {
        // The common step awaited here rather than in a function of its own: the SDK charges every promise a
        // workflow makes a stack trace, and this is the hot path of every run.
        held = run.holdsOutput(index);
        try {
          output = run.took(await executeStepOf(run, step, index, gate));
        } catch (err) {
          throw new RunStop({ status: 'failed', ...describeStepFailure(err), failedStepIndex: index });
        }
      }
      run.done(step, index, output, held);
      if (run.settledByStep) return run.finish(run.settledByStep, run.artifact.id);
      if (!gate) {
        const emitting = run.emitIfEarly(step, index, output);
        if (emitting) await emitting;
        continue;
      }
      const overBudget = budgetStop(gate, plan.budgetPolicy.perRunCapUsd, run.spentUsd);
      if (overBudget) throw new RunStop({ status: 'failed', ...overBudget });
      run.passedGates.add(gate.id);
      const hold = approvalHold(gate);
      if (hold) return await run.settle({ status: 'review', artifact: run.artifactOf(output), review: hold, ...run.source() });
      const emitting = run.emitIfEarly(step, index, output);
      if (emitting) await emitting;
    }
    if (run.cancelRequested) return await run.settle({ status: 'cancelled' });
    return await run.settle({ status: 'completed', artifact: run.artifactOf(run.lastOutput), ...run.source() });
  } catch (err) {
    return run.settleFailure(err);
  }
}

/** Consent can be withdrawn while a run waits for a worker: the character gate is judged again first. */
async function recheckConsent(run: RunProgress, characterId: string): Promise<Settlement | undefined> {
  const verdict = await run.book(recheckCharacter, 'Recheck the character’s consent', { runId: run.input.runId });
  if (verdict.usable) return undefined;
  return {
    status: 'failed',
    errorCode: 'character_not_usable',
    error: `character ${characterId} can no longer be used: ${verdict.reasons.join(', ')}`,
    failureDetails: { reasons: verdict.reasons, characterId },
  };
}

/** A step the intake supplies: recorded as skipped, its output the supplied content. */
async function skipSupplied(run: RunProgress, step: PlannedStep, index: number, supplied: unknown): Promise<unknown> {
  const { input } = run;
  await run.book(skipStep, `${run.label(step, index)}: supplied`, {
    runId: input.runId,
    stepIndex: index,
    step: stepForBookkeeping(input, index),
    output: supplied,
  });
  return supplied;
}

/** The executeStep activity of a step (its gate judged there), started; not async, so it makes no promise of its own. */
function executeStepOf(run: RunProgress, step: PlannedStep, index: number, gate: Gate | undefined): Promise<StepResult> {
  const { input } = run;
  const stepInput = {
    runId: input.runId,
    stepIndex: index,
    // The step by reference: its prompt, jsonSchema and params stay out of the history (definition-ref.ts).
    ...stepForActivity(input, index),
    // Only what the step reads travels in its activity input (and so in the history), not the whole context;
    // outputs the worker holds are named, not sent (shape 4).
    context: sliceContext(step.reads, run.context),
    ...run.outputRefsOf(step),
    ...(run.holdsOutput(index) ? { returnOutput: false } : {}),
    bindings: input.bindings,
    gate: isJudgedGate(gate) ? gate : undefined,
    artifact: run.artifact,
    executionMode: input.executionMode,
    // Nothing is left to decide after a last step without a gate: it settles the run itself (shape 2).
    ...(run.shape.settlesWithLastStep && !gate && index === run.plan.runtimeSteps.length - 1
      ? { settleRun: { artifactId: run.artifact.id, sourceReportArtifactId: run.sourceReportArtifactId } }
      : {}),
  };
  return run.shape.named ? executeStep.executeWithOptions(run.stepOptions(step, index, 'step'), [stepInput]) : executeStep(stepInput);
}

/** A subWorkflow step: a child run workflow whose artifact becomes the step's output; its cost stays on the child. */
async function runChild(run: RunProgress, step: PlannedStep, index: number): Promise<unknown> {
  const { runId, workspaceId } = run.input;
  const childRunId = `run-${uuid4().replace(/-/g, '').slice(0, 8)}`;
  const prepare = { parentRunId: runId, childRunId, stepIndex: index, step: stepForBookkeeping(run.input, index), context: run.context };
  const childInput = run.shape.named
    ? await prepareChildRun.executeWithOptions(run.stepOptions(step, index, 'child'), [prepare])
    : await prepareChildRun(prepare);
  run.activeChild = childRunId;
  const started = executeChild(runWorkflow, {
    workflowId: childRunId,
    args: [childInput],
    typedSearchAttributes: [
      { key: SEARCH_ATTRIBUTES.WorkspaceId, value: workspaceId },
      { key: SEARCH_ATTRIBUTES.TemplateId, value: templateIdOf(childInput) },
      { key: SEARCH_ATTRIBUTES.RunStatus, value: 'queued' },
    ],
  });
  const child = await childOutcome(started, childRunId);
  run.activeChild = undefined;
  if (child.status !== 'completed') {
    throw new RunStop({
      status: 'failed',
      errorCode: 'sub_workflow_failed',
      error: `sub-workflow ${templateIdOf(childInput)} (run ${childRunId}) ended ${child.status}${child.error ? `: ${child.error}` : ''}`,
      failureDetails: { childRunId, childStatus: child.status, childErrorCode: child.errorCode ?? null },
      failedStepIndex: index,
    });
  }
  if (child.artifactType === 'research-report' && child.artifactId) run.sourceReportArtifactId = child.artifactId;
  const settled = await run.book(settleChildStep, `${run.label(step, index)}: settle from the child run`, {
    runId,
    stepIndex: index,
    childRunId,
    childStatus: child.status,
    artifactId: child.artifactId,
  });
  return settled.output;
}

/** What the workflow knows of its run as it goes, the handlers that read or change it, and how it settles. */
class RunProgress {
  /** What the workflow interprets: the input's plan, or one made from the definition it carries whole. */
  readonly plan: RunPlan;
  readonly artifact: RunPlan['artifactSchema'] & { id: string };
  readonly context: RunContext;
  readonly passedGates = new Set<string>();
  /** Steps whose outputs the worker holds instead of the history (shape 4), in step order. */
  readonly heldOutputs: string[] = [];
  readonly state = { status: 'queued', stepIndex: 0, stepsDone: 0, cancelRequested: false };
  spentUsd = 0;
  lastOutput: unknown;
  sourceReportArtifactId: string | null;
  activeChild: string | undefined;
  /** The step under way (begun, not yet done), for a failure that interrupts it. */
  current: number | undefined;
  outcome: RunOutcome | undefined;
  /** The shape this execution takes (run-shape.ts), decided once as it starts. */
  readonly shape: RunShapeFlags;
  /** The status the last step settled the run with. */
  settledByStep: RunOutcome['status'] | undefined;
  cancelledByTemporal = false;

  constructor(readonly input: RunWorkflowInput) {
    this.shape = runShapeOf(input);
    this.plan = planOf(input);
    this.artifact = { id: `artifact-${uuid4().replace(/-/g, '').slice(0, 16)}`, ...this.plan.artifactSchema };
    this.context = { intake: input.intake, inputs: input.inputs, steps: {} };
    this.sourceReportArtifactId = input.sourceReportArtifactId ?? null;
    const stepCount = this.plan.runtimeSteps.length;
    setHandler(cancelRunSignal, () => {
      this.state.cancelRequested = true;
      // A running sub-workflow stops at its own next boundary too.
      if (this.activeChild)
        void getExternalWorkflowHandle(this.activeChild)
          .signal(cancelRunSignal)
          .catch(() => undefined);
    });
    setHandler(runStateQuery, () => ({ ...this.state }));
    setHandler(
      finalizeRunUpdate,
      async () => {
        await condition(() => this.outcome !== undefined);
        return this.outcome!;
      },
      {
        validator: () => {
          if (this.state.stepsDone < stepCount)
            throw new Error(
              `run ${input.runId} has ${stepCount - this.state.stepsDone} steps still to run; only finished runs can be finalized`,
            );
        },
      },
    );
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

  /** `2 · Outline (llm)`: how a step reads in the Web UI's timeline. */
  label(step: PlannedStep, index: number): string {
    return `${index + 1} · ${step.name} (${step.kind})`;
  }

  /** A step's activity: its id names the step, its summary says what it is. */
  stepOptions(step: PlannedStep, index: number, what: 'step' | 'child'): { activityId: string; summary: string } {
    const id = `${index + 1}-${step.id}`;
    return what === 'step'
      ? { activityId: id, summary: this.label(step, index) }
      : { activityId: `${id}-prepare-child`, summary: `${this.label(step, index)}: prepare the child run` };
  }

  /** A bookkeeping local activity, with a summary in the named shape. */
  book<A, R>(call: LocalCall<[A], R>, summary: string, arg: A): Promise<R> {
    return this.shape.named ? call.executeWithOptions({ summary }, [arg]) : call(arg);
  }

  /** What an executeStep result tells the run: its spend, and a settlement (or a cancel) its last step found. */
  took(result: StepResult): unknown {
    this.spentUsd += result.costUsd;
    if (result.run?.cancelRequested) this.state.cancelRequested = true;
    else if (result.run) this.settledByStep = result.run.status;
    return result.output;
  }

  setStatus(next: string): void {
    this.state.status = next;
    upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.RunStatus, value: next }]);
  }

  /** The run is past its consent check; Temporal is told only in shapes before 3 (RunShape). */
  markRunning(): void {
    if (this.shape.showsRunning) this.setStatus('running');
    else this.state.status = 'running';
  }

  begin(index: number): void {
    this.state.stepIndex = index;
    this.current = index;
  }

  /** Shape 4: the step's output stays with the worker, since only later steps read it (domain/output-refs.ts). */
  holdsOutput(index: number): boolean {
    return this.shape.outputsByReference && !workflowReadsOutput(this.plan, index);
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

  /**
   * `emitsArtifact` ships the artifact (draft) before later steps run, so it survives their failure. Not
   * async, and undefined when there is nothing to ship: the SDK captures a stack for every promise a
   * workflow makes (an async call, an await), and most steps ship nothing.
   */
  emitIfEarly(step: PlannedStep, index: number, output: unknown): Promise<void> | undefined {
    if (!step.emitsArtifact || index >= this.plan.runtimeSteps.length - 1) return undefined;
    return this.book(emitArtifact, `${this.label(step, index)}: ship the artifact early`, {
      runId: this.input.runId,
      artifact: this.artifactOf(output),
    });
  }

  artifactOf(content: unknown): { id: string; content: unknown } {
    return { id: this.artifact.id, content };
  }

  source(): { sourceReportArtifactId: string | null } {
    return { sourceReportArtifactId: this.sourceReportArtifactId };
  }

  async settle(result: Settlement): Promise<RunOutcome> {
    // Histories recorded before settleRun reported the written status replay with no result.
    const written = (await this.book(settleRun, `Settle the run ${result.status}`, { runId: this.input.runId, ...result })) as
      | { status: SettleRunInput['status'] }
      | undefined;
    return this.finish(written?.status ?? result.status, result.artifact?.id, result);
  }

  /** The run as settled (by settleRun, or by its last step): shown in Temporal and returned. */
  finish(status: RunOutcome['status'], artifactId: string | undefined, failure: Pick<Settlement, 'errorCode' | 'error'> = {}): RunOutcome {
    this.setStatus(status);
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
    if (!this.shape.oneMarker && !patched(SETTLE_EVERY_FAILURE_PATCH)) throw err;
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
