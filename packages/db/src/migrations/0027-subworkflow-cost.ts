import { type Kysely, sql } from 'kysely';

/**
 * What a run's sub-workflow children spent, beside what it spent itself. `runs.actual_usd` stays the run's
 * own spend, the figure every sum across runs adds (GET /v1/costs, budgets, an order's cost, a client's
 * month): a child is a run of its own, so adding its spend to its parent's column would count it twice.
 * `runs.subworkflow_actual_usd` is the children's spend, each child's own plus its own children's, kept when
 * a subWorkflow step settles so a run read shows the total without walking the tree;
 * `run_steps.subworkflow_actual_usd` is that child's total on the step that started it.
 *
 * Runs recorded before are filled in: a settled subWorkflow step gets its child's total (the child named by
 * the step's output, or by its run's failure details when the child failed), its run the sum of its steps.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE runs ADD COLUMN subworkflow_actual_usd numeric(14, 6) NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE run_steps ADD COLUMN subworkflow_actual_usd numeric(14, 6) NOT NULL DEFAULT 0`.execute(db);
  await sql`
    WITH RECURSIVE tree(root, id) AS (
      SELECT id, id FROM runs WHERE parent_run_id IS NOT NULL
      UNION ALL
      SELECT tree.root, c.id FROM tree JOIN runs c ON c.parent_run_id = tree.id),
    -- A child's total: its own spend and that of every run below it.
    totals AS (
      SELECT tree.root AS id, sum(r.actual_usd) AS total FROM tree JOIN runs r ON r.id = tree.id GROUP BY tree.root)
    UPDATE run_steps s SET subworkflow_actual_usd = totals.total
    FROM runs parent, totals
    WHERE s.kind = 'subWorkflow' AND s.status IN ('completed', 'failed') AND parent.id = s.run_id
      AND totals.id = coalesce(s.output->>'runId', CASE WHEN s.status = 'failed' THEN parent.failure_details->>'childRunId' END)`.execute(
    db,
  );
  await sql`
    UPDATE runs SET subworkflow_actual_usd = steps.total
    FROM (SELECT run_id, sum(subworkflow_actual_usd) AS total FROM run_steps
          WHERE kind = 'subWorkflow' GROUP BY run_id HAVING sum(subworkflow_actual_usd) > 0) steps
    WHERE runs.id = steps.run_id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE run_steps DROP COLUMN subworkflow_actual_usd`.execute(db);
  await sql`ALTER TABLE runs DROP COLUMN subworkflow_actual_usd`.execute(db);
}
