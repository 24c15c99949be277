/**
 * The run workflow: a deterministic interpreter of a frozen definition's runtimeSteps. It only decides;
 * every effect (model calls, files, database writes) happens in activities. Imports stay limited to the
 * Temporal workflow SDK and pure modules.
 */
import {
  CancellationScope,
  ParentClosePolicy,
  condition,
  executeChild,
  getExternalWorkflowHandle,
  proxyActivities,
  proxyLocalActivities,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { Gate } from '@atelier/contracts/workflow-definition';
import { gateHold, gateOf, gateStop, isJudgedGate } from '@atelier/domain/gates';
import { sliceContext } from '@atelier/domain/run-context';
import type { PlannedStep } from '@atelier/domain/run-plan';
import type { RunActivities } from '../activities/definitions.js';
import type { RunOutcome, RunWorkflowInput, StepResult } from '../run-types.js';
import { childSettledSignal, handleRunRequests } from './run-handlers.js';
import { NON_RETRYABLE, RunStop, childOutcome, closeAs, describeStepFailure } from './run-failures.js';
import {
  RunProgress,
  type Settlement,
  book,
  emitArtifact,
  recheckCharacter,
  settleChildStep,
  skipStep,
  stepLabel,
} from './run-progress.js';
import { SEARCH_ATTRIBUTES } from './search-attributes.js';
import { RUN_SHAPE, runsLocally, waitsForDecision } from './shapes.js';

export {
  cancelRunSignal,
  childSettledSignal,
  finalizeRunUpdate,
  providerJobEndedSignal,
  reviewDecidedSignal,
  runStateQuery,
} from './run-handlers.js';

const STEP_RETRY = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '30 seconds',
  nonRetryableErrorTypes: NON_RETRYABLE,
};

const { executeStep, prepareChildRun, cancelProviderJobs } = proxyActivities<RunActivities>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '15 seconds',
  // No attempt limit here: the activity keeps its own budget (withRetryBudget), so a database outage is
  // waited out while a step's own failures still end after a few attempts.
  retry: STEP_RETRY,
});

// A quick step (shape 7): the same activity and retries, run by the worker inside the workflow task. Its work
// is stopped within seconds, so a minute bounds an attempt that also waits a while for the database.
const { executeQuickStep } = proxyLocalActivities<RunActivities>({ startToCloseTimeout: '1 minute', retry: STEP_RETRY });

/**
 * The contract's story of a run: it may be cancelled before it starts; a character's consent is judged
 * again; then each step runs in order (supplied, a sub-workflow, or an activity), its gate is judged,
 * an approval gate holds the run for review; and the run settles `completed` with its artifact. Any
 * failure on the way settles it too, before the execution closes, and the execution closes as the run
 * ended (closeAs); a run held for review (shape 6) once it is decided. The input names the shape the run
 * takes (RunShape, run-types.ts): 5, 6 or 7.
 */
export async function runWorkflow(input: RunWorkflowInput): Promise<RunOutcome> {
  const run = new RunProgress(input);
  handleRunRequests(run);
  // A Temporal cancellation (the gateway's cancel, an order's or a parent's) stops the run at its next
  // step boundary, as the cancel signal does: the step in flight finishes and stays billed.
  CancellationScope.current().cancelRequested.catch(() => run.cancelFromTemporal());
  const outcome = await CancellationScope.nonCancellable(() => interpret(run));
  if (outcome.status === 'review' && waitsForDecision(input.shape)) return closeAs(await untilDecided(run, outcome), false);
  return closeAs(outcome, run.cancelledByTemporal);
}

/**
 * A run settled in review keeps its execution open until the review queue decides it (the dispatcher sends
 * reviewDecidedSignal), then shows the decided status in `RunStatus` and closes Completed: Temporal cannot
 * change a closed execution's search attributes. A parent hears of the settlement at once (childSettledSignal),
 * not at the close. A Temporal cancellation (its parent closing) does not end the wait: `review` is terminal,
 * as the gateway's cancel says, and only the decision moves it on (or on-call terminating the execution).
 */
async function untilDecided(run: RunProgress, outcome: RunOutcome): Promise<RunOutcome> {
  const parent = workflowInfo().parent;
  if (parent)
    await getExternalWorkflowHandle(parent.workflowId, parent.runId)
      .signal(childSettledSignal, outcome)
      .catch(() => undefined);
  await CancellationScope.nonCancellable(() => condition(() => run.decided !== undefined));
  return run.finish(run.decided!, outcome.artifactId);
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
    // The first step's start moves the run to running in the read model, in the same transaction.
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
        let result: StepResult | 'cancelled';
        try {
          result = await executeStepOf(run, step, index, gate, held);
          if (result.job) result = await untilJobEnds(run, step, index, gate, held, result);
        } catch (err) {
          throw new RunStop({ status: 'failed', ...describeStepFailure(err), failedStepIndex: index });
        }
        if (result === 'cancelled') return await run.settle({ status: 'cancelled' });
        output = run.took(result);
      }
      run.done(step, index, output, held);
      if (run.settledByStep) return run.finish(run.settledByStep, run.artifactId);
      if (!gate) {
        const emitting = emitIfEarly(run, step, index, output);
        if (emitting) await emitting;
        continue;
      }
      // What the gate's type does once its step is done (GATE_TYPE_RULES): a verdict that stops the run
      // (a budget over its cap), then, the gate passed, a hold that ends it in review (an approval).
      const stop = gateStop(gate, { capUsd: plan.budgetPolicy.perRunCapUsd, spentUsd: run.spentUsd });
      if (stop) throw new RunStop({ status: 'failed', ...stop });
      run.passedGates.add(gate.id);
      const hold = gateHold(gate);
      if (hold) return await run.settle({ status: 'review', artifact: run.artifactOf(output), review: hold, ...run.source() });
      const emitting = emitIfEarly(run, step, index, output);
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
  const verdict = await book(recheckCharacter, 'Recheck the character’s consent', { runId: run.input.runId });
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
  await book(skipStep, `${stepLabel(step, index)}: supplied`, { runId: input.runId, stepIndex: index, step, output: supplied });
  return supplied;
}

/**
 * `emitsArtifact` ships the artifact (draft) before later steps run, so it survives their failure. Not
 * async, and undefined when there is nothing to ship: the SDK captures a stack for every promise a
 * workflow makes (an async call, an await), and most steps ship nothing.
 */
function emitIfEarly(run: RunProgress, step: PlannedStep, index: number, output: unknown): Promise<void> | undefined {
  if (!step.emitsArtifact || index >= run.plan.runtimeSteps.length - 1) return undefined;
  return book(emitArtifact, `${stepLabel(step, index)}: ship the artifact early`, {
    runId: run.input.runId,
    artifact: run.artifactOf(output),
  });
}

/** A step's activity: its id names the step (`2-outline`), its summary says what it is. */
function stepOptions(step: PlannedStep, index: number, what: 'step' | 'child'): { activityId: string; summary: string } {
  const id = `${index + 1}-${step.id}`;
  return what === 'step'
    ? { activityId: id, summary: stepLabel(step, index) }
    : { activityId: `${id}-prepare-child`, summary: `${stepLabel(step, index)}: prepare the child run` };
}

/**
 * The executeStep activity of a step (its gate judged there), started; not async, so it makes no promise of
 * its own. `held`: the worker keeps the step's output (RunProgress.holdsOutput). A quick step (shape 7) runs
 * in a local activity: in the workflow task that reached it, with no task of its own.
 */
function executeStepOf(
  run: RunProgress,
  step: PlannedStep,
  index: number,
  gate: Gate | undefined,
  held: boolean,
  /** How many times the step waited for its provider job before this execution. */
  waited = 0,
): Promise<StepResult> {
  const { input } = run;
  const stepInput = {
    runId: input.runId,
    stepIndex: index,
    // Only what the workflow alone knows: the step by its id and the artifact by its id; the worker reads the
    // step's prompt, jsonSchema and params and the artifact's schema from the definition, by its hash.
    step: { id: step.id },
    definitionHash: input.definitionHash,
    artifactId: run.artifactId,
    // Only what the step reads travels in its activity input (and so in the history), not the whole context;
    // outputs the worker holds are named, not sent.
    context: sliceContext(step.reads, run.context),
    ...run.outputRefsOf(step),
    ...(held ? { returnOutput: false } : {}),
    bindings: input.bindings,
    gate: isJudgedGate(gate) ? gate : undefined,
    // The default mode goes unsaid.
    ...(input.executionMode === 'batch' ? { executionMode: input.executionMode } : {}),
    // Nothing is left to decide after a last step without a gate: it settles the run itself.
    ...(!gate && index === run.plan.runtimeSteps.length - 1
      ? { settleRun: { artifactId: run.artifactId, sourceReportArtifactId: run.sourceReportArtifactId } }
      : {}),
    ...(waited > 0 ? { resumesJob: true as const } : {}),
  };
  const options = stepOptions(step, index, 'step');
  if (runsLocally(input.shape, step.kind, stepInput.gate !== undefined))
    return executeQuickStep.executeWithOptions({ summary: options.summary }, [stepInput]);
  return executeStep.executeWithOptions(waited > 0 ? { ...options, activityId: `${options.activityId}-${waited}` } : options, [stepInput]);
}

/** The first look at a job comes soon, then less often, up to once a minute unless the provider says when. */
const JOB_CHECK_MS = { first: 5_000, growth: 1.5, longest: 60_000, shortest: 100 };

/**
 * A step whose provider runs its media as a job: the workflow waits, holding no worker, until the provider's
 * webhook announces the end (providerJobEndedSignal) or the time to look again comes, then runs the step
 * again; it goes on with what the step finally returns. A run cancelled meanwhile stops the job.
 */
async function untilJobEnds(
  run: RunProgress,
  step: PlannedStep,
  index: number,
  gate: Gate | undefined,
  held: boolean,
  first: StepResult,
): Promise<StepResult | 'cancelled'> {
  let result = first;
  for (let waited = 1; result.job; waited++) {
    const { jobId, checkAfterMs } = result.job;
    const pause = Math.min(JOB_CHECK_MS.longest, JOB_CHECK_MS.first * JOB_CHECK_MS.growth ** (waited - 1));
    const wait = Math.max(JOB_CHECK_MS.shortest, Math.min(checkAfterMs ?? pause, JOB_CHECK_MS.longest));
    await condition(() => run.endedJobs.has(jobId) || run.cancelRequested, wait);
    if (run.cancelRequested) {
      await cancelProviderJobs({ runId: run.input.runId, stepIndex: index });
      return 'cancelled';
    }
    run.endedJobs.delete(jobId);
    result = await executeStepOf(run, step, index, gate, held, waited);
  }
  return result;
}

/** A subWorkflow step: a child run workflow whose artifact becomes the step's output; its cost stays on the child. */
async function runChild(run: RunProgress, step: PlannedStep, index: number): Promise<unknown> {
  const { runId, workspaceId } = run.input;
  const prepare = {
    parentRunId: runId,
    childRunId: `run-${uuid4().replace(/-/g, '').slice(0, 8)}`,
    stepIndex: index,
    step,
    context: run.context,
    // A parent of shape 6 or later hears its child's settlement by signal, so the child may wait open in review.
    ...(waitsForDecision(run.input.shape) ? { runShape: RUN_SHAPE } : {}),
  };
  const childInput = await prepareChildRun.executeWithOptions(stepOptions(step, index, 'child'), [prepare]);
  // The id the child was recorded under: the one drawn above, or the next one free when that was taken
  // (activities/child-runs.ts). Recorded histories carry the drawn one in the result, so they replay alike.
  const childRunId = childInput.runId;
  const signals = waitsForDecision(childInput.shape);
  run.activeChild = childRunId;
  const started = executeChild(runWorkflow, {
    workflowId: childRunId,
    args: [childInput],
    // The parent may close while the child waits for its review decision, which a cancellation does not end.
    ...(signals ? { parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL } : {}),
    typedSearchAttributes: [
      { key: SEARCH_ATTRIBUTES.WorkspaceId, value: workspaceId },
      { key: SEARCH_ATTRIBUTES.TemplateId, value: childInput.plan.id },
      { key: SEARCH_ATTRIBUTES.RunStatus, value: 'queued' },
    ],
  });
  const child = signals ? await settledOrClosed(run, started, childRunId) : await childOutcome(started, childRunId);
  run.activeChild = undefined;
  // A run cancelled while its child ran cancels the child too (run-handlers.ts): the child ending cancelled is
  // the run's own cancellation reaching it, not a failure of the step. Replay-safe without a new shape: either
  // way the run settles through settleRun, and the status it settled with is read from that activity's result.
  if (child.status === 'cancelled' && run.cancelRequested) throw new RunStop({ status: 'cancelled' });
  if (child.status !== 'completed') {
    throw new RunStop({
      status: 'failed',
      errorCode: 'sub_workflow_failed',
      error: `sub-workflow ${childInput.plan.id} (run ${childRunId}) ended ${child.status}${child.error ? `: ${child.error}` : ''}`,
      failureDetails: { childRunId, childStatus: child.status, childErrorCode: child.errorCode ?? null },
      failedStepIndex: index,
    });
  }
  if (child.artifactType === 'research-report' && child.artifactId) run.sourceReportArtifactId = child.artifactId;
  const settled = await book(settleChildStep, `${stepLabel(step, index)}: settle from the child run`, {
    runId,
    stepIndex: index,
    childRunId,
    childStatus: child.status,
    artifactId: child.artifactId,
  });
  return settled.output;
}

/** A child of shape 6 or later: its outcome as it said it settled (held in review, still open), or as its execution closed. */
async function settledOrClosed(run: RunProgress, started: Promise<RunOutcome>, childRunId: string): Promise<RunOutcome> {
  let closed = false;
  const close = () => {
    closed = true;
  };
  started.then(close, close);
  await condition(() => closed || run.settledChildren.has(childRunId));
  return run.settledChildren.get(childRunId) ?? (await childOutcome(started, childRunId));
}
