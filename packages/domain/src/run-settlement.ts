/**
 * The one rule that decides how a run ends, from what was recorded. The run workflow's settlement (the
 * settleRun activity), `atelier runs finalize` and the reconciler all call it, so a run ends the same way
 * whichever of them settles it. Pure: no I/O, safe to import from workflow code.
 */
import type { Gate, Step } from '@atelier/contracts/workflow-definition';
import { type ReviewHold, gateHold, gateOf, holdingStepIndex } from './gates.js';
import { type QaRecord, qaForContent } from './qa.js';

export type { ReviewHold };

export type SettledRunStatus = 'completed' | 'review' | 'failed' | 'cancelled';

/** The error code of a run the engine itself failed to carry through (not the run's own content). */
export const ENGINE_ERROR = 'engine_error';

export interface RecordedStep {
  stepIndex: number;
  status: string;
  output: unknown;
  error?: string | null;
  errorCode?: string | null;
}

/** What the run workflow decided before settling (absent when it never got to decide). */
export interface RunDecision {
  status: SettledRunStatus;
  error?: string;
  errorCode?: string;
  failureDetails?: Record<string, unknown>;
  /** The artifact's content; a decision without it writes no artifact. */
  artifact?: { content: unknown };
  review?: ReviewHold;
}

export interface SettlementFacts {
  definition: {
    runtimeSteps: ReadonlyArray<Pick<Step, 'id' | 'gateId'>>;
    gates: ReadonlyArray<Pick<Gate, 'id' | 'type' | 'name' | 'holdFields'>>;
    artifactSchema: { artifactType: string };
  };
  /** The run's recorded steps (run_steps). Read only when there is no decision. */
  steps: readonly RecordedStep[];
  decision?: RunDecision;
  /** Without a decision: a cancel was requested for the run. */
  cancelRequested?: boolean;
  /** Without a decision: why the run is being settled from its record (for the error of an unfinished run). */
  closedBecause?: string;
}

export interface RunSettlement {
  status: SettledRunStatus;
  error: string | null;
  errorCode: string | null;
  failureDetails: Record<string, unknown> | null;
  /** The artifact to write, with the status the run's outcome implies and its QA record. */
  artifact: { content: unknown; status: 'ready' | 'review'; qa: QaRecord } | null;
  review: ReviewHold | null;
}

export const QA_HOLD: ReviewHold = { gateId: 'qa', gateName: 'QA hold', holdFields: null };

/**
 * Without a decision, the record decides: every step completed (or skipped) → the artifact is the
 * approval-gated step's output held for review, otherwise the last step's output; anything else → failed
 * with `engine_error` (the engine lost the run), naming the step that failed or how far it got.
 */
export function decisionFromRecord(facts: SettlementFacts): RunDecision {
  const { runtimeSteps, gates } = facts.definition;
  if (facts.cancelRequested) return { status: 'cancelled' };
  const byIndex = new Map(facts.steps.map((s) => [s.stepIndex, s] as const));
  const done = runtimeSteps.filter((_, i) => ['completed', 'skipped'].includes(byIndex.get(i)?.status ?? 'pending')).length;
  if (runtimeSteps.length > 0 && done === runtimeSteps.length) {
    const holdIndex = holdingStepIndex(facts.definition);
    const hold = holdIndex >= 0 ? gateHold(gateOf(gates, runtimeSteps[holdIndex]!)!) : undefined;
    if (hold) return { status: 'review', artifact: { content: byIndex.get(holdIndex)?.output }, review: hold };
    return { status: 'completed', artifact: { content: byIndex.get(runtimeSteps.length - 1)?.output } };
  }
  const failedIndex = runtimeSteps.findIndex((_, i) => byIndex.get(i)?.status === 'failed');
  const failed = failedIndex >= 0 ? byIndex.get(failedIndex) : undefined;
  const why = facts.closedBecause ?? 'the run was settled from its record before its steps finished';
  return {
    status: 'failed',
    errorCode: ENGINE_ERROR,
    error: failed
      ? `${why}; step ${failedIndex + 1} ("${runtimeSteps[failedIndex]!.id}") had failed: ${failed.error ?? 'no error recorded'}`
      : `${why}; ${done} of ${runtimeSteps.length} steps had completed`,
    failureDetails: {
      stepsCompleted: done,
      stepsTotal: runtimeSteps.length,
      ...(failed ? { failedStepIndex: failedIndex, stepErrorCode: failed.errorCode ?? null } : {}),
    },
  };
}

/**
 * The run's terminal status and artifact. A decision (the workflow's) is taken as it is, except that a
 * completed artifact whose QA failed is held for review (QA hold); failed and cancelled runs write no
 * artifact. Without a decision the record decides (decisionFromRecord), under the same QA hold.
 */
export function decideRunSettlement(facts: SettlementFacts): RunSettlement {
  const decision = facts.decision ?? decisionFromRecord(facts);
  const base = {
    error: decision.error ?? null,
    errorCode: decision.errorCode ?? null,
    failureDetails: decision.failureDetails ?? null,
  };
  if (decision.status === 'failed' || decision.status === 'cancelled' || !decision.artifact) {
    return { status: decision.status, ...base, artifact: null, review: decision.status === 'review' ? (decision.review ?? null) : null };
  }
  const content = decision.artifact.content ?? {};
  const qa = qaForContent(facts.definition.artifactSchema.artifactType, content as Record<string, unknown>);
  if (decision.status === 'completed' && qa.status === 'failed') {
    return { status: 'review', ...base, artifact: { content, status: 'review', qa }, review: QA_HOLD };
  }
  return {
    status: decision.status,
    ...base,
    artifact: { content, status: decision.status === 'review' ? 'review' : 'ready', qa },
    review: decision.status === 'review' ? (decision.review ?? null) : null,
  };
}
