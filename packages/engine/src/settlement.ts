/**
 * Writes a run's settlement: the terminal status and artifact decided by decideRunSettlement (the one
 * rule), with provenance and pack membership, in one transaction. The settleRun activity, finalize and
 * the reconciler all write through here.
 */
import { type Db, type RunRow, type RunSettledWithStep, getArtifact, getOrder, getRunRow, getRunSteps, moveRunStatus } from '@atelier/db';
import { newArtifactId } from '@atelier/domain';
import { type RunDecision, type RunSettlement, type SettlementFacts, decideRunSettlement } from '@atelier/domain/run-settlement';
import { type ArtifactSchemaLike, artifactOwnColumns, artifactRow, packMembership } from './artifacts.js';

/** Orders' plan artifacts by order id: set when an order is created and never changed, so read once per process. */
const planArtifactOfOrder = new Map<string, string | null>();
const PLAN_ARTIFACTS_KEPT = 1_000;

/** The pack an order's child run's artifact belongs to (its order's plan), if any. */
export async function packOf(db: Db, run: RunRow) {
  const orderId = run.parent_order_id;
  if (!orderId || !run.order_dedupe_key) return null;
  let planArtifactId = planArtifactOfOrder.get(orderId);
  if (planArtifactId === undefined) {
    planArtifactId = (await getOrder(db, orderId))?.plan_artifact_id ?? null;
    if (planArtifactOfOrder.size >= PLAN_ARTIFACTS_KEPT) planArtifactOfOrder.delete(planArtifactOfOrder.keys().next().value!);
    planArtifactOfOrder.set(orderId, planArtifactId);
  }
  return packMembership(planArtifactId, run.order_dedupe_key);
}

/** The research report a run composed from: a supplied one, or one a step (a sub-workflow) produced. */
export async function sourceReportOf(db: Db, run: RunRow, outputs: unknown[]): Promise<string | null> {
  for (const id of Object.values(run.source_artifact_ids ?? {})) {
    if ((await getArtifact(db, id))?.artifact_type === 'research-report') return id;
  }
  for (const output of outputs) {
    const o = output as { artifactId?: unknown; type?: unknown } | null;
    if (o && o.type === 'research-report' && typeof o.artifactId === 'string') return o.artifactId;
  }
  return null;
}

export function definitionOf(run: RunRow): SettlementFacts['definition'] {
  return run.definition as SettlementFacts['definition'];
}

export interface WriteSettlementOptions {
  /** The artifact id the workflow chose; otherwise the run's emitted draft's, or a new one. */
  artifactId?: string;
  sourceReportArtifactId?: string | null;
  /** Write nothing once a cancel of the run was asked for (a last step settling its run). */
  unlessCancelRequested?: boolean;
}

/** Writes `settlement` for `run`; returns the row as written (unchanged when the run had already ended). */
export async function writeRunSettlement(
  db: Db,
  run: RunRow,
  settlement: RunSettlement,
  opts: WriteSettlementOptions = {},
): Promise<RunRow | undefined> {
  const written = settlement.artifact;
  const artifact = written
    ? artifactRow(
        run,
        { id: opts.artifactId ?? run.artifact_id ?? newArtifactId(), content: written.content, qa: written.qa },
        written.status,
        opts.sourceReportArtifactId,
        await packOf(db, run),
      )
    : undefined;
  const moved = await moveRunStatus(db, run.id, settlement.status, runFieldsOf(settlement), artifact, {
    unlessCancelRequested: opts.unlessCancelRequested,
  });
  // The row as written; read again only when the move was a no-op (already settled).
  return moved ?? getRunRow(db, run.id);
}

/** The run's columns a settlement writes besides its status: the failure, or the review it is held for. */
function runFieldsOf(settlement: RunSettlement) {
  const review = settlement.review;
  return {
    error: settlement.error,
    error_code: settlement.errorCode,
    failure_details: settlement.failureDetails ? JSON.stringify(settlement.failureDetails) : null,
    ...(review
      ? {
          review_gate_id: review.gateId,
          review_gate_name: review.gateName,
          hold_fields: review.holdFields ? JSON.stringify(review.holdFields) : null,
        }
      : {}),
  };
}

/**
 * A run completed by its last step, as that step's statement writes it with the step (settleRunWithStep):
 * under the one settlement rule (decideRunSettlement: a completed artifact whose QA fails is held for
 * review), the same status, fields and artifact writeRunSettlement would write.
 */
export function completedWithStep(
  schema: ArtifactSchemaLike,
  artifact: { id: string; content: unknown },
  sourceReportArtifactId: string | null | undefined,
): RunSettledWithStep {
  const settlement = decideRunSettlement({
    definition: { runtimeSteps: [], gates: [], artifactSchema: schema },
    steps: [],
    decision: { status: 'completed', artifact: { content: artifact.content } },
  });
  // A decision with an artifact always settles with one.
  const written = settlement.artifact!;
  return {
    to: settlement.status,
    fields: runFieldsOf(settlement),
    artifact: artifactOwnColumns(
      schema,
      { id: artifact.id, content: written.content, qa: written.qa },
      written.status,
      sourceReportArtifactId,
    ),
  };
}

/**
 * Settles a run from its record alone (no workflow decision): finalize of a run whose workflow is gone,
 * and the reconciler. Returns the settlement decided and the row as written.
 */
export async function settleRunFromRecord(
  db: Db,
  run: RunRow,
  opts: { closedBecause?: string; cancelRequested?: boolean; decision?: RunDecision; dryRun?: boolean } = {},
): Promise<{ settlement: RunSettlement; row: RunRow | undefined }> {
  const steps = await getRunSteps(db, run.id);
  const settlement = decideRunSettlement({
    definition: definitionOf(run),
    steps: steps.map((s) => ({ stepIndex: s.step_index, status: s.status, output: s.output, error: s.error, errorCode: s.error_code })),
    decision: opts.decision,
    cancelRequested: opts.cancelRequested,
    closedBecause: opts.closedBecause,
  });
  if (opts.dryRun) return { settlement, row: run };
  const sourceReportArtifactId = settlement.artifact
    ? await sourceReportOf(
        db,
        run,
        steps.map((s) => s.output),
      )
    : null;
  return { settlement, row: await writeRunSettlement(db, run, settlement, { sourceReportArtifactId }) };
}
