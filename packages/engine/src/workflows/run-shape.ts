/**
 * Which shape a run workflow execution takes: asked of the input (RunStart.shape) for runs started since it
 * named one, otherwise of the patch markers its history recorded. Every patched() call the run workflow
 * makes on starting is here, in the order histories recorded them.
 */
import { patched, workflowInfo } from '@temporalio/workflow';
import type { RunWorkflowInput } from '../run-types.js';

/**
 * Marks the code path that settles a run on any failure instead of letting the execution fail with the
 * run left `running`. Only reached on a failure, which no recorded history took; guarded all the same,
 * so a history that failed the old way replays (patched() is false there) and rethrows as it did.
 */
export const SETTLE_EVERY_FAILURE_PATCH = 'settle-every-failure';

/**
 * Marks the shape in which on-call can read a run in Temporal: each step's activity is named after the
 * step (id `<n>-<step id>`, summary `<name> · <kind>`), bookkeeping activities carry summaries, and the
 * execution ends `Failed` for a failed run and `Canceled` for a cancelled one, after the read model is
 * settled, instead of always `Completed`. Histories recorded before it replay the old way.
 */
export const TEMPORAL_OUTCOME_PATCH = 'temporal-outcome';

/** Marks the shape without the markRunRunning local activity: the first step's start marks the run running. */
export const LEAN_BOOKKEEPING_PATCH = 'lean-bookkeeping';

/**
 * Marks, in one marker, every shape above (named, lean bookkeeping, settling every failure). Each marker is
 * a history event plus an upsert of the `TemporalChangeVersion` search attribute (another event and a
 * visibility write), so a new execution records this one instead of two or three. It is asked first: in a
 * history recorded before it, patched() answers false without a command, and the older patches are asked
 * in their old order, so those histories replay unchanged.
 */
export const ONE_MARKER_PATCH = 'one-marker';

/**
 * Whether the input names the shape ONE_MARKER_PATCH marks (RunStart.shape, run-types.ts): then a new
 * execution asks no patch at all, so it records neither a marker nor a `TemporalChangeVersion` upsert. The
 * input is in the history, so deciding from it is deterministic.
 *
 * An execution started with the shape but first run by a worker from before it (a rolling deploy: the
 * dispatcher, an order's or a parent run's activity, is newer than the worker that took the first task)
 * records the one-marker marker anyway, the old worker ignoring the field. Temporal's core SDK skips a
 * leftover marker only when it was recorded deprecated (deprecatePatch); a plain one that no patched() call
 * matches fails replay as nondeterministic. So when replaying, ONE_MARKER_PATCH is still asked, its answer
 * ignored: patched() during replay answers from the history and sends a command only for a marker that is
 * there, so it matches that old worker's marker and adds nothing to a history recorded without one.
 * Live (not replaying), it is never asked. replay.test.ts replays both kinds of history.
 */
function shapeFromInput(input: RunWorkflowInput): boolean {
  if ((input.shape ?? 0) < 1) return false;
  if (workflowInfo().unsafe.isReplaying) patched(ONE_MARKER_PATCH);
  return true;
}

export interface RunShapeFlags {
  /** Every shape ONE_MARKER_PATCH stands for: named by the input (no marker), or marked by the one marker. */
  oneMarker: boolean;
  /** The named shape (TEMPORAL_OUTCOME_PATCH). */
  named: boolean;
  /** The run's first step marks it running (LEAN_BOOKKEEPING_PATCH). */
  lean: boolean;
  /** The run's last step settles the run (shape 2). */
  settlesWithLastStep: boolean;
  /** `RunStatus` is written when the run begins (`running`) as well as when it settles (before shape 3). */
  showsRunning: boolean;
  /** Outputs only later steps read stay out of the history (shape 4, domain/output-refs.ts). */
  outputsByReference: boolean;
  /** A step is sent its id and the artifact's id, not what the worker reads from the definition (shape 5). */
  leanStepInputs: boolean;
}

/** Asked once, when the workflow starts: during replay a missing marker is no final answer, and the shape must not change mid-run. */
export function runShapeOf(input: RunWorkflowInput): RunShapeFlags {
  // An input that names its shape asks no patch; one that does not asks them as its history recorded them:
  // the one marker first, then the older patches in their old order.
  const oneMarker = shapeFromInput(input) || patched(ONE_MARKER_PATCH);
  const named = oneMarker || patched(TEMPORAL_OUTCOME_PATCH);
  const lean = oneMarker || (named && patched(LEAN_BOOKKEEPING_PATCH));
  const shape = input.shape ?? 0;
  return {
    oneMarker,
    named,
    lean,
    settlesWithLastStep: shape >= 2,
    showsRunning: shape < 3,
    outputsByReference: shape >= 4,
    leanStepInputs: shape >= 5,
  };
}
