import { type Kysely, sql } from 'kysely';

/** Orders of many child runs, budgets with their refusals, and pack membership of order artifacts. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE orders (
      id text PRIMARY KEY CHECK (id ~ '^order-[0-9a-f]{16}$'),
      workspace_id uuid NOT NULL REFERENCES workspaces(id),
      project_id uuid,
      workflow_id text NOT NULL,
      workflow_version text NOT NULL,
      status text NOT NULL CHECK (status IN ('planned', 'running', 'attention', 'completed', 'failed', 'cancelled')),
      execution_mode text NOT NULL DEFAULT 'standard' CHECK (execution_mode IN ('standard', 'batch')),
      target_count integer NOT NULL CHECK (target_count >= 1),
      planned_count integer NOT NULL,
      skipped_count integer NOT NULL DEFAULT 0,
      estimated_cost_usd numeric(14, 6) NOT NULL,
      budget_limit_usd numeric(14, 6) CHECK (budget_limit_usd IS NULL OR budget_limit_usd >= 0),
      budget_enforcement_mode text NOT NULL DEFAULT 'hard_stop',
      currency text NOT NULL DEFAULT 'USD',
      provider_overrides jsonb NOT NULL DEFAULT '{}'::jsonb,
      intake_base jsonb NOT NULL DEFAULT '{}'::jsonb,
      variation_spec jsonb NOT NULL,
      plan_artifact_id text,
      accept_gap_reason text,
      failure_reason text,
      created_by uuid,
      created_via text NOT NULL,
      api_key_id uuid,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      started_at timestamptz,
      finished_at timestamptz,
      updated_at timestamptz NOT NULL DEFAULT now(),
      FOREIGN KEY (project_id, workspace_id) REFERENCES projects (id, workspace_id) ON DELETE SET NULL (project_id)
    );
    CREATE INDEX orders_workspace ON orders (workspace_id, created_at DESC);

    ALTER TABLE runs ADD COLUMN superseded_by text, ADD COLUMN execution_mode text NOT NULL DEFAULT 'standard';
    ALTER TABLE runs ADD CONSTRAINT runs_parent_order_fk FOREIGN KEY (parent_order_id) REFERENCES orders(id);
    CREATE UNIQUE INDEX runs_order_dedupe ON runs (parent_order_id, order_dedupe_key) WHERE parent_order_id IS NOT NULL AND superseded_by IS NULL;
    CREATE INDEX runs_order_status ON runs (parent_order_id, status) WHERE parent_order_id IS NOT NULL;
    CREATE INDEX runs_spend ON runs (workspace_id, created_at) INCLUDE (project_id, status, actual_usd, estimated_usd);

    ALTER TABLE artifacts ADD COLUMN pack_id text, ADD COLUMN pack_member_id text;

    CREATE TABLE budgets (
      id text PRIMARY KEY CHECK (id ~ '^budget-[0-9a-f]{16}$'),
      workspace_id uuid NOT NULL REFERENCES workspaces(id),
      project_id uuid,
      scope text NOT NULL CHECK (scope IN ('workspace', 'project')),
      limit_usd numeric(14, 6) NOT NULL CHECK (limit_usd >= 0),
      period text NOT NULL CHECK (period IN ('month', 'total')),
      enforcement_mode text NOT NULL CHECK (enforcement_mode IN ('hard_stop', 'allow_overage', 'allow_one_more', 'notify_only')),
      overage_usd numeric(14, 6) CHECK (overage_usd IS NULL OR overage_usd >= 0),
      per_run_cap_usd numeric(14, 6) CHECK (per_run_cap_usd IS NULL OR per_run_cap_usd >= 0),
      name text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((scope = 'project') = (project_id IS NOT NULL)),
      FOREIGN KEY (project_id, workspace_id) REFERENCES projects (id, workspace_id) ON DELETE CASCADE
    );
    CREATE INDEX budgets_workspace ON budgets (workspace_id);

    CREATE TABLE budget_refusals (
      id uuid PRIMARY KEY,
      budget_id text REFERENCES budgets(id) ON DELETE CASCADE,
      workspace_id uuid NOT NULL,
      detail jsonb NOT NULL,
      attempted text NOT NULL,
      caller_id uuid,
      caller_via text,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp()
    );
    CREATE INDEX budget_refusals_budget ON budget_refusals (budget_id, created_at DESC);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE budget_refusals; DROP TABLE budgets;
    ALTER TABLE artifacts DROP COLUMN pack_id, DROP COLUMN pack_member_id;
    DROP INDEX runs_spend; DROP INDEX runs_order_status; DROP INDEX runs_order_dedupe;
    ALTER TABLE runs DROP CONSTRAINT runs_parent_order_fk, DROP COLUMN superseded_by, DROP COLUMN execution_mode;
    DROP TABLE orders;
  `.execute(db);
}
