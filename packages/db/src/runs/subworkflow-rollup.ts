/**
 * A sub-workflow child's spend carried up its parents, in the statement that settles the child (or bills a
 * step of a child already settled). The parent's subWorkflow step records the child's total when it
 * settles, but a child may settle after that, or after its parent: a parent whose execution ended (and
 * which the reconciler or a cancel then settled from the read model) while its child's step was in flight
 * leaves the child to finish that step, billed, on its own time. Carrying the total up from the child, as
 * sums set and never added to, keeps every ancestor's total the sum of its tree whichever settles last.
 */
import { type RawBuilder, sql } from 'kysely';

/** Deeper than any tree a definition can nest; only a guard against a parent chain that loops. */
const MAX_DEPTH = 32;

/**
 * The index of the step of `r`'s parent that started `r` (a row with `id` and `parent_run_id`): the one its
 * output names (a completed step), or whose run's failure names it (a failed one); otherwise the parent's
 * pending subWorkflow step, for a parent that settled, or has not yet settled the step, while the child ran
 * (steps run one at a time, so there is at most one).
 */
const stepInParent = (r: string) => sql`(
  SELECT s.step_index FROM run_steps s JOIN runs pr ON pr.id = s.run_id
  WHERE s.run_id = ${sql.ref(`${r}.parent_run_id`)} AND s.kind = 'subWorkflow'
    AND (s.output->>'runId' = ${sql.ref(`${r}.id`)}
      OR (s.status = 'failed' AND pr.failure_details->>'childRunId' = ${sql.ref(`${r}.id`)})
      OR (s.status = 'pending' AND s.output IS NULL))
  ORDER BY s.status = 'pending', s.step_index DESC LIMIT 1)`;

/**
 * CTEs (for a `WITH RECURSIVE` statement) that write a child's total onto its parent's step and the
 * parent's sum of its steps, then the same for the parent's parent, up to the top. `child` is a query of at
 * most one row, `id`, `parent_run_id` and `total` (its own spend plus its children's, as the statement
 * leaves them); a run without a parent, or none, writes nothing.
 *
 * Each ancestor's total is its own spend, plus its other steps' children, plus the total of the level below:
 * a running sum up the chain, so one statement computes every level from what was there before it.
 */
export const subWorkflowRollup = (child: RawBuilder<unknown>) => sql`
    rollup_chain(id, depth, parent_id, parent_step, actual, own) AS (
      SELECT c.id, 0, c.parent_run_id, ${stepInParent('c')}, 0::numeric, c.total::numeric
      FROM (${child}) c WHERE c.parent_run_id IS NOT NULL
      UNION ALL
      SELECT p.id, rollup_chain.depth + 1, p.parent_run_id, ${stepInParent('p')}, p.actual_usd,
        p.actual_usd + coalesce((SELECT sum(s.subworkflow_actual_usd) FROM run_steps s
          WHERE s.run_id = p.id AND s.step_index <> rollup_chain.parent_step), 0)
      FROM rollup_chain JOIN runs p ON p.id = rollup_chain.parent_id
      WHERE rollup_chain.parent_step IS NOT NULL AND rollup_chain.depth < ${MAX_DEPTH}),
    rollup_totals AS (SELECT *, sum(own) OVER (ORDER BY depth) AS total FROM rollup_chain),
    rollup_steps AS (
      UPDATE run_steps s SET subworkflow_actual_usd = t.total
      FROM rollup_totals t WHERE s.run_id = t.parent_id AND s.step_index = t.parent_step
      RETURNING s.run_id),
    rollup_runs AS (
      UPDATE runs SET subworkflow_actual_usd = t.total - t.actual
      FROM rollup_totals t WHERE runs.id = t.id AND t.depth > 0
      RETURNING runs.id)`;
