import { type Insertable, type RawBuilder, sql } from 'kysely';
import { RUN_STATUSES, TERMINAL_RUN_STATUSES, isForwardMove, isTerminalRunStatus } from '@atelier/domain';
import { WEBHOOK_ALL_EVENTS } from '@atelier/contracts/webhook-endpoints';
import { type Executor, inTransaction } from './connect.js';
import { emitRunEvent, runEventType } from './event-webhooks.js';
import { announceAppended, appendedEvents } from './runs/events.js';
import type { RunRow } from './runs/row.js';
import { artifactUpsert } from './runs/artifact-write.js';
import { subWorkflowRollup } from './runs/subworkflow-rollup.js';
import type { Database, RunsTable } from './schema.js';

type ArtifactInsert = Insertable<Database['artifacts']>;

/**
 * Moves a run forward (never backwards, never out of a terminal status), optionally creating or updating
 * its artifact with the move. Returns the row when the move happened and undefined when it was a no-op,
 * which makes every caller idempotent under retries.
 *
 * Usually one statement: it locks the run, judges the move, writes the artifact and the run, and appends
 * and announces their events (`artifact.created` first, then `run.status`). Only when the workspace has an
 * endpoint subscribed to the status's event webhook does the move take a transaction, so that the
 * webhook message is recorded with the change it announces (event-webhooks.ts).
 */
export async function moveRunStatus(
  db: Executor,
  runId: string,
  to: string,
  fields: Partial<Insertable<RunsTable>> = {},
  artifact?: ArtifactInsert,
  opts: { unlessCancelRequested?: boolean } = {},
): Promise<RunRow | undefined> {
  const webhookType = runEventType(to);
  const alone = await moveStatement(db, { runId, to, fields, artifact, unlessSubscribedTo: webhookType, ...opts });
  if (!alone.subscribed) return alone.row;
  return inTransaction(db, async (tx) => {
    const { row } = await moveStatement(tx, { runId, to, fields, artifact, ...opts });
    if (row) await emitRunEvent(tx, row);
    return row;
  });
}

/** The statuses `to` is a forward move from. */
const forwardFrom = (to: string): string[] => RUN_STATUSES.filter((from) => isForwardMove(from, to));

interface Move {
  runId: string;
  to: string;
  fields: Partial<Insertable<RunsTable>>;
  artifact?: ArtifactInsert;
  /** Make no change (and report `subscribed`) when the run's workspace has an endpoint for this event. */
  unlessSubscribedTo?: string;
  /** Make no change when a cancel of the run was asked for (markCancelRequested). */
  unlessCancelRequested?: boolean;
}

async function moveStatement(db: Executor, m: Move): Promise<{ row?: RunRow; subscribed: boolean }> {
  const { runId, to, fields, artifact } = m;
  const subscribed = m.unlessSubscribedTo ? subscribedTo(m.unlessSubscribedTo) : sql`false`;
  const events = [
    ...(artifact
      ? [{ type: 'artifact.created', data: { artifactId: artifact.id }, when: sql<boolean>`EXISTS (SELECT 1 FROM written WHERE inserted)` }]
      : []),
    { type: 'run.status', data: statusEventData(to, fields) },
  ];
  const update = db
    .updateTable('runs')
    .set({
      ...fields,
      ...(artifact ? { artifact_id: artifact.id } : {}),
      status: to,
      updated_at: sql`now()`,
      ...(to === 'running' ? { started_at: sql`coalesce(started_at, now())` } : {}),
      ...(isTerminalRunStatus(to) ? { finished_at: sql`now()` } : {}),
      // One number for the status event, and one before it when the artifact is new.
      event_seq: artifact ? sql`event_seq + 1 + (SELECT count(*) FROM written WHERE inserted)` : sql`event_seq + 1`,
    })
    .where('id', '=', runId)
    .where(sql<boolean>`EXISTS (SELECT 1 FROM ok)`)
    .returningAll();
  // A sub-workflow child that settles carries its spend up to its parents (runs/subworkflow-rollup.ts).
  const rollup = isTerminalRunStatus(to)
    ? sql`${subWorkflowRollup(sql`SELECT id, parent_run_id, actual_usd + subworkflow_actual_usd AS total FROM run`)},`
    : sql``;
  const { rows } = await sql<RunRow & { was_subscribed: boolean; announced: unknown }>`
    WITH RECURSIVE locked AS (SELECT status, workspace_id, cancel_requested_at FROM runs WHERE id = ${runId} FOR UPDATE),
    subscribed AS (SELECT ${subscribed} AS yes),
    ok AS (SELECT 1 FROM locked, subscribed WHERE locked.status = ANY(${forwardFrom(to)}::text[]) AND NOT subscribed.yes
      ${m.unlessCancelRequested ? sql`AND locked.cancel_requested_at IS NULL` : sql``}),
    ${artifact ? sql`written AS (${artifactUpsert(artifact, sql`FROM ok`)}),` : sql``}
    run AS (${update}),
    ${rollup}
    ${appendedEvents(runId, events)},
    announced AS (SELECT ${announceAppended} FROM appended)
    SELECT run.*, subscribed.yes AS was_subscribed, (SELECT count(*) FROM announced) AS announced
    FROM subscribed LEFT JOIN run ON true`.execute(db);
  const result = rows[0];
  if (!result) return { subscribed: false };
  const { was_subscribed, announced: _, ...row } = result;
  return { row: row.id ? (row as RunRow) : undefined, subscribed: was_subscribed };
}

/** Whether the run's workspace (the `locked` row's) has an enabled endpoint subscribed to the event `type`. */
export const subscribedTo = (type: string): RawBuilder<boolean> =>
  sql<boolean>`EXISTS (SELECT 1 FROM webhook_endpoints e, locked
    WHERE e.workspace_id = locked.workspace_id AND e.enabled AND e.events && ARRAY[${type}::text, ${WEBHOOK_ALL_EVENTS}::text])`;

/** A `run.status` event's data: the new status, and the error a failure was settled with. */
export const statusEventData = (to: string, fields: Partial<Insertable<RunsTable>>) => ({
  status: to,
  ...(fields.error_code ? { errorCode: fields.error_code, error: fields.error } : {}),
});

/**
 * Records that a cancel was asked for, on the runs named and on their sub-workflow runs, in the caller's
 * transaction: a last step settling its run (moveRunStatus with `unlessCancelRequested`) then leaves the
 * settlement to the workflow, which ends the run cancelled. Settled runs are left alone.
 *
 * The sub-workflow runs are locked before their parents: a child's settlement holds the child and then
 * writes its parents (runs/subworkflow-rollup.ts), so locking the other way round could deadlock with it.
 * A caller that locks a named run itself does so after this.
 */
export async function markCancelRequested(tx: Executor, target: { runId: string } | { orderId: string }): Promise<void> {
  const [named, childrenFirst] =
    'runId' in target
      ? [sql`id = ${target.runId} OR parent_run_id = ${target.runId}`, sql`id = ${target.runId}`]
      : [
          sql`parent_order_id = ${target.orderId} OR parent_run_id IN (SELECT id FROM runs WHERE parent_order_id = ${target.orderId})`,
          sql`parent_run_id IS NULL`,
        ];
  await sql`
    WITH targets AS (
      SELECT id FROM runs WHERE (${named}) AND NOT (status = ANY(${[...TERMINAL_RUN_STATUSES]}::text[]))
      ORDER BY ${childrenFirst}, id FOR UPDATE)
    UPDATE runs SET cancel_requested_at = coalesce(cancel_requested_at, now())
    FROM targets WHERE runs.id = targets.id`.execute(tx);
}
