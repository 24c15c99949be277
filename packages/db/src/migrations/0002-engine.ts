import { type Kysely, sql } from 'kysely';

/** The engine issue: review decisions, approval holds, supplied artifacts and run finalization. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE runs
      ADD COLUMN review_gate_id text,
      ADD COLUMN review_gate_name text,
      ADD COLUMN hold_fields jsonb,
      ADD COLUMN inputs jsonb NOT NULL DEFAULT '{}'::jsonb,
      ADD COLUMN source_artifact_ids jsonb NOT NULL DEFAULT '{}'::jsonb;
    CREATE INDEX runs_review ON runs (workspace_id, template_id) WHERE status = 'review' AND archived = false;
    CREATE INDEX runs_parent_run ON runs (parent_run_id) WHERE parent_run_id IS NOT NULL;

    CREATE TABLE run_decisions (
      id uuid PRIMARY KEY,
      run_id text NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
      gate_id text,
      decision text NOT NULL CHECK (decision IN ('approve', 'reject', 'request_changes')),
      note text,
      patch jsonb,
      decided_by uuid NOT NULL,
      decided_via text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp()
    );
    CREATE INDEX run_decisions_run ON run_decisions (run_id, created_at);

    ALTER TABLE workflow_versions ADD COLUMN visibility text CHECK (visibility IN ('draft', 'internal', 'public'));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE workflow_versions DROP COLUMN visibility;
    DROP TABLE run_decisions;
    DROP INDEX runs_parent_run; DROP INDEX runs_review;
    ALTER TABLE runs DROP COLUMN review_gate_id, DROP COLUMN review_gate_name, DROP COLUMN hold_fields,
      DROP COLUMN inputs, DROP COLUMN source_artifact_ids;
  `.execute(db);
}
