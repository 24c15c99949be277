/**
 * A run's last step and the run's settlement in one statement: the common end of a run whose last step no
 * gate follows (the engine's shape 2), which otherwise takes the step's statement and then moveRunStatus'.
 */
import { type Insertable, sql } from 'kysely';
import { isTerminalRunStatus } from '@atelier/domain';
import { PACK_MEMBER_KEY_LENGTH, PACK_MEMBER_PREFIX } from '@atelier/domain/pack-membership';
import { compiledPerShape } from './compiled-once.js';
import type { Executor } from './connect.js';
import { runEventType } from './event-webhooks.js';
import { statusEventData, subscribedTo } from './run-moves.js';
import { type ArtifactWrite, artifactUpsert } from './runs/artifact-write.js';
import { announceAppended, appendedEvents } from './runs/events.js';
import { subWorkflowRollup } from './runs/subworkflow-rollup.js';
import { type StepSettlement, type StepStartedAt, spendWith } from './run-steps.js';
import { type StartedStepValues, insertStartedStep, startedStepEvents, startedStepValues } from './runs/started-step.js';
import type { RunsTable } from './schema.js';

/** How the run settles with its last step: its status, the fields that go with it, and its artifact. */
export interface RunSettledWithStep {
  to: string;
  fields: Partial<Insertable<RunsTable>>;
  /**
   * The artifact without the columns its run gives it (run_id, workspace_id, project_id, template_id, its
   * order's pack); `title` is the content's own, or null for the run's template name.
   */
  artifact: Omit<ArtifactWrite, 'run_id' | 'workspace_id' | 'project_id' | 'template_id' | 'title' | 'pack_id' | 'pack_member_id'> & {
    id: string;
    title: string | null;
  };
}

/** What the statement wrote: the run's new status, and what the settlement's metrics are labelled with. */
export interface RunSettledRow {
  status: string;
  template_id: string;
  gates: unknown;
}

/**
 * Records a step that ran before its start was written (as settleStartedStep) and settles its run (as
 * moveRunStatus with the artifact and `unlessCancelRequested`), in one statement and in the order the two
 * would have written them: the events `run.status` running (for a first step), `step.started`,
 * `step.<status>`, `artifact.created` (for a new artifact) and `run.status`.
 *
 * It writes nothing, and undefined comes back, whenever the two statements must decide instead: the step
 * was begun before, the run is not waiting or running, a cancel was asked for, or the workspace has an
 * endpoint for the status's event webhook (the message is recorded in the transaction of the change it
 * announces).
 */
export async function settleRunWithStep(
  db: Executor,
  s: StepSettlement & { start: StepStartedAt },
  run: RunSettledWithStep,
): Promise<RunSettledRow | undefined> {
  const settlement = {
    to: run.to,
    terminal: isTerminalRunStatus(run.to),
    webhook: runEventType(run.to),
    statusEvent: JSON.stringify(statusEventData(run.to, run.fields)),
  };
  const { rows } = await lastStepStatement(db, startedStepValues(s), settlement, run.fields, run.artifact);
  if (!rows[0]) return undefined;
  const { announced: _, ...row } = rows[0];
  return row;
}

const lastStepStatement = compiledPerShape(
  (
    _db: Executor,
    v: StartedStepValues,
    settlement: { to: string; terminal: boolean; webhook: string | undefined; statusEvent: string },
    runFields: RunSettledWithStep['fields'],
    own: RunSettledWithStep['artifact'],
  ) => {
    const artifact: ArtifactWrite = {
      ...own,
      run_id: v.runId,
      workspace_id: sql`ok.workspace_id`,
      project_id: sql`ok.project_id`,
      template_id: sql`ok.template_id`,
      title: sql`coalesce(${own.title}::text, ok.template_name)`,
      pack_id: sql`ok.pack_id`,
      pack_member_id: sql`ok.pack_member_id`,
    };
    const fields = Object.entries(runFields).filter(([, value]) => value !== undefined);
    const events = [
      ...startedStepEvents(v),
      {
        type: 'artifact.created',
        data: sql`jsonb_build_object('artifactId', ${own.id}::text)`,
        when: sql<boolean>`EXISTS (SELECT 1 FROM written WHERE inserted)`,
      },
      { type: 'run.status', data: sql`${settlement.statusEvent}::jsonb` },
    ];
    // A sub-workflow child that settles carries its spend up to its parents (runs/subworkflow-rollup.ts).
    const rollup = settlement.terminal ? sql`${subWorkflowRollup(sql`SELECT id, parent_run_id, total FROM run`)},` : sql``;
    return sql<RunSettledRow & { announced: unknown }>`
    WITH RECURSIVE locked AS (
      SELECT status, workspace_id, project_id, template_id, template_name, parent_order_id, order_dedupe_key,
        cancel_requested_at
      FROM runs WHERE id = ${v.runId} FOR UPDATE),
    ok AS (
      -- An order child's artifact joins its order's pack (domain/pack-membership.ts).
      SELECT locked.*, o.plan_artifact_id AS pack_id,
        CASE WHEN o.plan_artifact_id IS NOT NULL
          THEN ${PACK_MEMBER_PREFIX} || left(locked.order_dedupe_key, ${PACK_MEMBER_KEY_LENGTH}) END AS pack_member_id
      FROM locked LEFT JOIN orders o ON o.id = locked.parent_order_id AND locked.order_dedupe_key IS NOT NULL
      WHERE locked.status IN ('pending', 'queued', 'running') AND locked.cancel_requested_at IS NULL
        AND NOT ${settlement.webhook === undefined ? sql`false` : subscribedTo(settlement.webhook)}
        AND NOT EXISTS (SELECT 1 FROM run_steps WHERE run_id = ${v.runId} AND step_index = ${v.stepIndex})),
    written AS (${artifactUpsert(artifact, sql`FROM ok`)}),
    run AS (
      UPDATE runs SET ${sql.join(fields.map(([column, value]) => sql`${sql.ref(column)} = ${value}`))}${fields.length ? sql`,` : sql``}
        status = ${settlement.to}, artifact_id = ${own.id}, current_step_index = ${v.stepIndex},
        started_at = coalesce(runs.started_at, ${v.startedAt}), updated_at = now(),
        ${settlement.terminal ? sql`finished_at = now(),` : sql``}
        actual_usd = ${spendWith(v.runId, v.stepIndex, v.costUsd)}, cost_status = 'provider_reported',
        event_seq = runs.event_seq + CASE WHEN ok.status = 'running' THEN 3 ELSE 4 END
          + (SELECT count(*) FROM written WHERE inserted)
      FROM ok WHERE runs.id = ${v.runId}
      RETURNING runs.event_seq, runs.status, runs.template_id, runs.definition->'gates' AS gates, ok.status AS was,
        runs.id, runs.parent_run_id, runs.actual_usd + runs.subworkflow_actual_usd AS total),
    ${insertStartedStep(v)},
    ${rollup}
    ${appendedEvents(v.runId, events)}
    SELECT ${announceAppended} AS announced, run.status, run.template_id, run.gates
    FROM appended, run ORDER BY appended.seq`;
  },
);
