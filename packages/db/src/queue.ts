import { emitRunEvent } from './event-webhooks.js';
import { sql } from 'kysely';
import { type DecisionRequest, type ReviewRefusal, judgeDecision, newUuid } from '@atelier/domain';
import type { Db } from './connect.js';
import { enqueueEngineCommand } from './engine-commands.js';
import { type RunRow, appendRunEvent, lockRun } from './runs.js';
import { countOf, pageOf } from './paging.js';

/**
 * The review queue: a live view over runs waiting in `review` (never a copy), and the one transaction
 * that settles a decision on such a run.
 */
export interface QueueFilters {
  workspaceId: string;
  projectId?: string;
  templateId?: string;
}

function queueBase(db: Db, f: QueueFilters) {
  let q = db
    .selectFrom('runs')
    .leftJoin('artifacts', 'artifacts.id', 'runs.artifact_id')
    .where('runs.workspace_id', '=', f.workspaceId)
    .where('runs.status', '=', 'review')
    .where('runs.archived', '=', false);
  if (f.projectId) q = q.where('runs.project_id', '=', f.projectId);
  if (f.templateId) q = q.where('runs.template_id', '=', f.templateId);
  return q;
}

export interface QueueRow {
  run_id: string;
  workspace_id: string;
  project_id: string | null;
  template_id: string;
  template_name: string;
  review_gate_id: string | null;
  review_gate_name: string | null;
  hold_fields: unknown;
  artifact_id: string | null;
  artifact_title: string | null;
  artifact_status: string | null;
  qa: unknown;
  intake: unknown;
  /** The pinned definition's intake fields, in their declared order (jsonb keeps no key order; an array does). */
  intake_fields: unknown;
  queued_at: Date;
  created_at: Date;
  entered_review_at: Date;
}

/**
 * Runs in review, the longest waiting first: ordered by when the run entered review, then by when it
 * was queued and its id so that pages are stable. `total` counts every match.
 */
export async function listQueue(
  db: Db,
  f: QueueFilters & { offset: number; limit: number },
): Promise<{ items: QueueRow[]; total: number }> {
  const enteredReview = sql<Date>`coalesce(runs.finished_at, runs.updated_at)`;
  const { items, total } = await pageOf(
    db,
    queueBase(db, f),
    (qb) =>
      qb.select([
        'runs.id as run_id',
        'runs.workspace_id',
        'runs.project_id',
        'runs.template_id',
        'runs.template_name',
        'runs.review_gate_id',
        'runs.review_gate_name',
        'runs.hold_fields',
        'runs.artifact_id',
        'artifacts.title as artifact_title',
        'artifacts.status as artifact_status',
        'artifacts.qa',
        'runs.intake',
        sql<unknown>`runs.definition -> 'intakeSchema' -> 'fields'`.as('intake_fields'),
        'runs.queued_at',
        'runs.created_at',
        enteredReview.as('entered_review_at'),
      ]),
    [enteredReview, 'runs.queued_at', 'runs.id'],
    f,
  );
  return { items: items as QueueRow[], total };
}

export async function countQueue(db: Db, f: QueueFilters): Promise<number> {
  return countOf(queueBase(db, f));
}

export interface DecisionInput extends DecisionRequest {
  runId: string;
  note?: string | null;
  decidedBy: string;
  decidedVia: string;
}

export type DecisionOutcome =
  | { ok: true; run: RunRow; decisionId: string }
  | { ok: false; refusal: ReviewRefusal | { kind: 'not_found'; runId: string } };

/**
 * Settles one decision in one transaction. The run row is locked first, so of two decisions racing on
 * the same run exactly one finds it in review; the other is refused as an invalid transition. The run
 * moves to its terminal status (its `finished_at` stays the moment the work ended, so durations do not
 * count the wait for a human), the artifact takes the matching status and, on approval, the released
 * hold under `content.hold`; the decision is written to the ledger and a `run.status` event appended.
 */
export async function decideRun(db: Db, input: DecisionInput): Promise<DecisionOutcome> {
  return db.transaction().execute(async (tx) => {
    const run = await lockRun(tx, input.runId);
    if (!run) return { ok: false, refusal: { kind: 'not_found', runId: input.runId } };
    const artifact = run.artifact_id
      ? await tx.selectFrom('artifacts').select(['id', 'content', 'qa']).where('id', '=', run.artifact_id).forUpdate().executeTakeFirst()
      : undefined;
    const judged = judgeDecision(
      { runId: run.id, status: run.status, reviewGateId: run.review_gate_id, holdFields: run.hold_fields, qa: artifact?.qa ?? null },
      { decision: input.decision, patch: input.patch ?? null, gateId: input.gateId ?? null },
    );
    if (!judged.ok) return judged;

    const now = new Date();
    const updated = await tx
      .updateTable('runs')
      .set({ status: judged.runStatus, updated_at: now, ...(run.finished_at ? {} : { finished_at: now }) })
      .where('id', '=', run.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (artifact) {
      const content = (artifact.content ?? {}) as Record<string, unknown>;
      const previousHold = content.hold !== null && typeof content.hold === 'object' ? (content.hold as Record<string, unknown>) : {};
      await tx
        .updateTable('artifacts')
        .set({
          status: judged.artifactStatus,
          ...(judged.hold ? { content: JSON.stringify({ ...content, hold: { ...previousHold, ...judged.hold } }) } : {}),
        })
        .where('id', '=', artifact.id)
        .execute();
    }
    const decisionId = newUuid();
    await tx
      .insertInto('run_decisions')
      .values({
        id: decisionId,
        run_id: run.id,
        gate_id: run.review_gate_id,
        decision: input.decision,
        note: input.note ?? null,
        patch: input.patch ? JSON.stringify(input.patch) : null,
        decided_by: input.decidedBy,
        decided_via: input.decidedVia,
      })
      .execute();
    await appendRunEvent(tx, run.id, 'run.status', { status: judged.runStatus, decision: input.decision, gateId: run.review_gate_id });
    // An approval completes the run: integrators subscribed to run.completed hear of it like any other.
    await emitRunEvent(tx, updated);
    // The run's execution, waiting open in review, hears the decision (engine dispatcher).
    await enqueueEngineCommand(tx, 'decide_run', run.id);
    return { ok: true, run: updated, decisionId };
  });
}
