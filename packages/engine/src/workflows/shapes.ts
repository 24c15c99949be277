/**
 * What each workflow shape does differently (RunShape, OrderShape: run-types.ts), as pure code the workflows
 * and the activities that build their inputs share.
 */
import type { StepKind } from '@atelier/contracts/workflow-definition';
import { quickKind } from '@atelier/domain/step-kinds';
import type { OrderShape, RunShape } from '../run-types.js';

/**
 * The shape the dispatcher starts runs in, and that a listening parent names for its children. Carried in the
 * input, so the run workflow records no patch marker and no `TemporalChangeVersion` upsert to choose it;
 * changing it is a release that starts a new shape, and dropping an old one follows docs/operations.md,
 * Retiring a workflow shape.
 */
export const RUN_SHAPE: RunShape = 7;
/** The shape of a child whose parent does not name one: a parent of an older shape waits for its execution to close. */
export const CHILD_SHAPE_UNNAMED: RunShape = 5;
/** The shape the dispatcher starts orders in. */
export const ORDER_SHAPE: OrderShape = 4;

/** A run of this shape waits, open, for the review decision, and tells a parent of its settlement by signal. */
export function waitsForDecision(shape: RunShape): boolean {
  return shape >= 6;
}

/**
 * Whether a run of this shape runs a step of this kind in a local activity, inside its workflow task: from
 * shape 7, a quick kind (STEP_KIND_TRAITS `quick`) whose gate no model judges (a judge's call can take minutes).
 */
export function runsLocally(shape: RunShape, kind: StepKind, judgedGate: boolean): boolean {
  return shape >= 7 && quickKind(kind) && !judgedGate;
}

/** An order of this shape starts its children in RUN_SHAPE and hears their settlement by signal. */
export function hearsChildrenSettle(shape: OrderShape): boolean {
  return shape >= 4;
}
