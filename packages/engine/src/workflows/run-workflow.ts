/**
 * The run workflow: a deterministic interpreter of a frozen definition's runtimeSteps. It only decides;
 * every effect (model calls, files, database writes) happens in activities. Imports stay limited to the
 * Temporal workflow SDK and pure modules.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  ChildWorkflowFailure,
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
import type { Gate, Step } from '@atelier/contracts/workflow-definition';
import { DETERMINISTIC_ERROR_CODES } from '@atelier/domain/failures';
import type { RunContext } from '@atelier/domain/run-context';
import type { EngineActivities } from '../activities/index';
import type { RunOutcome, RunWorkflowInput, SettleRunInput } from '../run-types';
import { SEARCH_ATTRIBUTES } from './search-attributes';

const NON_RETRYABLE = [...DETERMINISTIC_ERROR_CODES, 'step_invalid', 'step_failed', 'run_missing'];

const { executeStep, prepareChildRun } = proxyActivities<EngineActivities>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '15 seconds',
  // No attempt limit here: the activity keeps its own budget (withRetryBudget), so a database outage is
  // waited out while a step's own failures still end after a few attempts.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', nonRetryableErrorTypes: NON_RETRYABLE },
});

// Bookkeeping writes are short database transactions: local activities keep them off the task queue.
const { markRunRunning, settleRun, skipStep, settleChildStep, emitArtifact, recheckCharacter } = proxyLocalActivities<EngineActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '10 seconds', nonRetryableErrorTypes: ['run_missing'] },
});

export const cancelRunSignal = defineSignal('cancel');
export const runStateQuery = defineQuery<{ status: string; stepIndex: number; stepsDone: number; cancelRequested: boolean }>('state');
/** Completes a run whose steps are all done; waits for the workflow's own settlement and returns it. */
export const finalizeRunUpdate = defineUpdate<RunOutcome>('finalize');

class RunStop extends Error {
  constructor(readonly result: Omit<SettleRunInput, 'runId'>) {
    super(result.error ?? result.status);
  }
}

function describeFailure(err: unknown): { error: string; errorCode: string; failureDetails?: Record<string, unknown> } {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure && cause.type && NON_RETRYABLE.includes(cause.type)) {
    const details = cause.details?.[0];
    return {
      error: cause.message,
      errorCode: cause.type,
      ...(details && typeof details === 'object' ? { failureDetails: details as Record<string, unknown> } : {}),
    };
  }
  const message = cause instanceof Error ? cause.message : String(cause);
  return { error: `the step kept failing after retries: ${message}`, errorCode: 'transient_failure' };
}

/**
 * Marks the code path that settles a run on any failure instead of letting the execution fail with the
 * run left `running`. Only reached on a failure, which no recorded history took; guarded all the same,
 * so a history that failed the old way replays (patched() is false there) and rethrows as it did.
 */
export const SETTLE_EVERY_FAILURE_PATCH = 'settle-every-failure';

/**
 * How a failure that is not a step's own settled failure ends the run. A deterministic refusal keeps
 * its code (a sub-workflow whose mapped intake the child refuses is `step_invalid`, with the child's
 * reasons); a sub-workflow execution that failed is `sub_workflow_failed`; anything else is the engine's
 * fault: `engine_error`, with the message.
 */
function describeEngineFailure(err: unknown): { error: string; errorCode: string; failureDetails?: Record<string, unknown> } {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure && cause.type && NON_RETRYABLE.includes(cause.type)) return describeFailure(err);
  if (err instanceof ChildWorkflowFailure) {
    return {
      error: `sub-workflow run ${err.execution?.workflowId ?? ''} failed: ${err.cause?.message ?? err.message}`,
      errorCode: 'sub_workflow_failed',
      failureDetails: { childRunId: err.execution?.workflowId ?? null, retryState: err.retryState ?? null },
    };
  }
  const message = cause instanceof Error ? cause.message : String(cause);
  return { error: `the engine failed to carry the run through: ${message}`, errorCode: 'engine_error' };
}

/** Gates that must have passed before `gate` is judged: every gate that lists it in `unlocks`. */
function unlockersOf(gates: readonly Gate[], gateId: string): string[] {
  return gates.filter((g) => g.unlocks?.includes(gateId)).map((g) => g.id);
}

export async function runWorkflow(input: RunWorkflowInput): Promise<RunOutcome> {
  const { runId, definition } = input;
  const steps = definition.runtimeSteps;
  const artifact = { id: `artifact-${uuid4().replace(/-/g, '').slice(0, 16)}`, ...definition.artifactSchema };
  const state = { status: 'queued', stepIndex: 0, stepsDone: 0, cancelRequested: false };
  let outcome: RunOutcome | undefined;
  let activeChild: string | undefined;

  setHandler(cancelRunSignal, () => {
    state.cancelRequested = true;
    // A running sub-workflow stops at its own next boundary too.
    if (activeChild)
      void getExternalWorkflowHandle(activeChild)
        .signal(cancelRunSignal)
        .catch(() => undefined);
  });
  setHandler(runStateQuery, () => ({ ...state }));
  setHandler(
    finalizeRunUpdate,
    async () => {
      await condition(() => outcome !== undefined);
      return outcome!;
    },
    {
      validator: () => {
        if (state.stepsDone < steps.length)
          throw new Error(`run ${runId} has ${steps.length - state.stepsDone} steps still to run; only finished runs can be finalized`);
      },
    },
  );

  const setStatus = (next: string) => {
    state.status = next;
    upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.RunStatus, value: next }]);
  };
  const settle = async (result: Omit<SettleRunInput, 'runId'>): Promise<RunOutcome> => {
    // Histories recorded before settleRun reported the written status replay with no result.
    const written = (await settleRun({ runId, ...result })) as { status: SettleRunInput['status'] } | undefined;
    const status = written?.status ?? result.status;
    setStatus(status);
    outcome = {
      runId,
      status,
      artifactId: result.artifact?.id,
      artifactType: definition.artifactSchema.artifactType,
      errorCode: result.errorCode,
      error: result.error,
    };
    return outcome;
  };

  /** The index of the step under way (begun, not yet done), for a failure that interrupts it. */
  let current: number | undefined;
  try {
    if (state.cancelRequested) return await settle({ status: 'cancelled' });
    // Consent can be withdrawn while a run waits for a worker (or its order's turn): the gate is judged
    // again before the first step, with the same reasons the gateway would give.
    if (typeof input.intake.characterId === 'string' && input.intake.characterId) {
      const verdict = await recheckCharacter({ runId });
      if (!verdict.usable) {
        return await settle({
          status: 'failed',
          errorCode: 'character_not_usable',
          error: `character ${input.intake.characterId} can no longer be used: ${verdict.reasons.join(', ')}`,
          failureDetails: { reasons: verdict.reasons, characterId: input.intake.characterId },
        });
      }
    }
    await markRunRunning({ runId });
    setStatus('running');

    const context: RunContext = { intake: input.intake, inputs: input.inputs, steps: {} };
    const passedGates = new Set<string>();
    let spentUsd = 0;
    let sourceReportArtifactId = input.sourceReportArtifactId ?? null;
    let lastOutput: unknown;

    const runChild = async (step: Step, index: number): Promise<unknown> => {
      const childRunId = `run-${uuid4().replace(/-/g, '').slice(0, 8)}`;
      const childInput = await prepareChildRun({ parentRunId: runId, childRunId, stepIndex: index, step, context });
      activeChild = childRunId;
      const child = await executeChild(runWorkflow, {
        workflowId: childRunId,
        args: [childInput],
        typedSearchAttributes: [
          { key: SEARCH_ATTRIBUTES.WorkspaceId, value: input.workspaceId },
          { key: SEARCH_ATTRIBUTES.TemplateId, value: childInput.definition.id },
          { key: SEARCH_ATTRIBUTES.RunStatus, value: 'queued' },
        ],
      });
      activeChild = undefined;
      if (child.status !== 'completed') {
        throw new RunStop({
          status: 'failed',
          errorCode: 'sub_workflow_failed',
          error: `sub-workflow ${childInput.definition.id} (run ${childRunId}) ended ${child.status}${child.error ? `: ${child.error}` : ''}`,
          failureDetails: { childRunId, childStatus: child.status, childErrorCode: child.errorCode ?? null },
          failedStepIndex: index,
        });
      }
      if (child.artifactType === 'research-report' && child.artifactId) sourceReportArtifactId = child.artifactId;
      return (await settleChildStep({ runId, stepIndex: index, childRunId, childStatus: child.status, artifactId: child.artifactId }))
        .output;
    };

    for (const [index, step] of steps.entries()) {
      if (state.cancelRequested) return await settle({ status: 'cancelled' });
      state.stepIndex = index;
      current = index;
      const supplied = step.suppliedBy ? input.inputs[step.suppliedBy] : undefined;
      const gate = step.gateId ? definition.gates.find((g) => g.id === step.gateId) : undefined;
      if (gate) {
        const locked = unlockersOf(definition.gates, gate.id).filter((id) => !passedGates.has(id));
        if (locked.length > 0) {
          throw new RunStop({
            status: 'failed',
            errorCode: 'gate_locked',
            error: `gate ${gate.id} is judged before ${locked.join(', ')} unlocked it`,
            failedStepIndex: index,
          });
        }
      }

      let output: unknown;
      if (supplied !== undefined) {
        await skipStep({ runId, stepIndex: index, step, output: supplied });
        output = supplied;
      } else if (step.kind === 'subWorkflow') {
        output = await runChild(step, index);
      } else {
        try {
          const judged = gate && (gate.type === 'quality' || gate.type === 'safety') ? gate : undefined;
          const result = await executeStep({
            runId,
            stepIndex: index,
            step,
            context,
            bindings: input.bindings,
            gate: judged,
            artifact,
            executionMode: input.executionMode,
          });
          output = result.output;
          spentUsd += result.costUsd;
        } catch (err) {
          const failure = describeFailure(err);
          throw new RunStop({ status: 'failed', ...failure, failedStepIndex: index });
        }
      }
      context.steps[step.id] = output;
      lastOutput = output;
      state.stepsDone = index + 1;
      current = undefined;

      if (gate?.type === 'budget') {
        const cap = definition.budgetPolicy.perRunCapUsd;
        if (cap !== undefined && spentUsd > cap) {
          const verdict = `spent ${spentUsd.toFixed(6)} USD, over the per-run cap of ${cap} USD`;
          throw new RunStop({
            status: 'failed',
            errorCode: 'budget_gate_exceeded',
            error: `${gate.name} stopped the run: ${verdict}`,
            failureDetails: { gateId: gate.id, gateType: 'budget', verdict, reasons: ['per_run_cap_exceeded'], capUsd: cap, spentUsd },
          });
        }
      }
      if (gate) passedGates.add(gate.id);
      if (gate?.type === 'approval') {
        return await settle({
          status: 'review',
          artifact: { id: artifact.id, content: output },
          review: { gateId: gate.id, gateName: gate.name, holdFields: gate.holdFields ?? null },
          sourceReportArtifactId,
        });
      }
      if (step.emitsArtifact && index < steps.length - 1) await emitArtifact({ runId, artifact: { id: artifact.id, content: output } });
    }
    if (state.cancelRequested) return await settle({ status: 'cancelled' });
    return await settle({ status: 'completed', artifact: { id: artifact.id, content: lastOutput }, sourceReportArtifactId });
  } catch (err) {
    if (err instanceof RunStop) return settle(err.result);
    if (!patched(SETTLE_EVERY_FAILURE_PATCH)) throw err;
    // Any other failure still settles the run before the execution closes (a Temporal cancellation too,
    // hence outside the cancelled scope). If even that fails, the reconciler settles it later.
    const interrupted = current;
    return CancellationScope.nonCancellable(() =>
      settle(
        isCancellation(err)
          ? { status: 'cancelled' }
          : { status: 'failed', ...describeEngineFailure(err), ...(interrupted !== undefined ? { failedStepIndex: interrupted } : {}) },
      ),
    );
  }
}
