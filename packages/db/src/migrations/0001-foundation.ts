import { type Kysely, sql } from 'kysely';

/** Accounts, workspaces, projects, workflows, runs and artifacts: the foundation's system of record. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE users (
      id uuid PRIMARY KEY,
      email text NOT NULL,
      name text NOT NULL,
      password_hash text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deletion_status text CHECK (deletion_status IN ('pending', 'approved')),
      deletion_requested_at timestamptz,
      deletion_reason text
    );
    CREATE UNIQUE INDEX users_email_key ON users (lower(email));

    CREATE TABLE workspaces (
      id uuid PRIMARY KEY,
      name text NOT NULL,
      personal boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE memberships (
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      PRIMARY KEY (workspace_id, user_id)
    );
    CREATE INDEX memberships_user ON memberships (user_id, created_at);

    CREATE TABLE auth_sessions (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz
    );

    CREATE TABLE auth_tokens (
      token_hash text PRIMARY KEY,
      session_id uuid NOT NULL REFERENCES auth_sessions(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX auth_tokens_session ON auth_tokens (session_id);

    CREATE TABLE api_keys (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      workspace_id uuid REFERENCES workspaces(id) ON DELETE CASCADE,
      name text NOT NULL,
      prefix text NOT NULL,
      secret_hash text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz,
      revoked_at timestamptz
    );
    CREATE INDEX api_keys_user ON api_keys (user_id, created_at);

    CREATE TABLE projects (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      name text NOT NULL,
      kind text NOT NULL DEFAULT 'project',
      description text,
      client_id uuid,
      archived boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (id, workspace_id)
    );
    CREATE INDEX projects_workspace ON projects (workspace_id, created_at);

    CREATE TABLE workflows (
      id text PRIMARY KEY,
      workspace_id uuid REFERENCES workspaces(id) ON DELETE RESTRICT,
      name text NOT NULL,
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'deprecated')),
      superseded_by_id text REFERENCES workflows(id),
      visibility text NOT NULL CHECK (visibility IN ('draft', 'internal', 'public')),
      live_version text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE workflow_versions (
      workflow_id text NOT NULL REFERENCES workflows(id),
      version text NOT NULL,
      definition jsonb NOT NULL,
      definition_hash text NOT NULL,
      state text NOT NULL CHECK (state IN ('draft', 'published')),
      created_at timestamptz NOT NULL DEFAULT now(),
      published_at timestamptz,
      PRIMARY KEY (workflow_id, version)
    );

    CREATE TABLE runs (
      id text PRIMARY KEY CHECK (id ~ '^run-[0-9a-f]{8}$'),
      workspace_id uuid NOT NULL REFERENCES workspaces(id),
      project_id uuid,
      template_id text NOT NULL,
      template_name text NOT NULL,
      workflow_version text NOT NULL,
      spec_version_hash text NOT NULL,
      status text NOT NULL,
      current_step_index integer NOT NULL DEFAULT 0,
      intake jsonb NOT NULL,
      definition jsonb NOT NULL,
      bindings jsonb NOT NULL,
      artifact_id text,
      created_via text NOT NULL CHECK (created_via IN ('session', 'api_key', 'worker')),
      api_key_id uuid,
      api_key_name text,
      created_by uuid,
      estimated_usd numeric(14, 6) NOT NULL DEFAULT 0,
      actual_usd numeric(14, 6) NOT NULL DEFAULT 0,
      currency text NOT NULL DEFAULT 'USD',
      cost_status text NOT NULL DEFAULT 'estimated',
      error text,
      error_code text,
      failure_details jsonb,
      parent_run_id text REFERENCES runs(id),
      parent_order_id text,
      order_dedupe_key text,
      worker_id text,
      not_executed_reason text,
      archived boolean NOT NULL DEFAULT false,
      queued_at timestamptz NOT NULL DEFAULT now(),
      started_at timestamptz,
      finished_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      FOREIGN KEY (project_id, workspace_id) REFERENCES projects (id, workspace_id) ON DELETE SET NULL (project_id)
    );
    CREATE INDEX runs_workspace_created ON runs (workspace_id, created_at DESC, id DESC);
    CREATE INDEX runs_project ON runs (project_id);
    CREATE INDEX runs_status ON runs (workspace_id, status);
    CREATE INDEX runs_parent_order ON runs (parent_order_id) WHERE parent_order_id IS NOT NULL;

    CREATE TABLE run_steps (
      run_id text NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
      step_index integer NOT NULL,
      step_id text NOT NULL,
      name text NOT NULL,
      kind text NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'completed', 'failed', 'skipped')),
      provider text,
      model text,
      duration_ms integer,
      cost_actual_usd numeric(14, 6) NOT NULL DEFAULT 0,
      output jsonb,
      error text,
      error_code text,
      attempts integer NOT NULL DEFAULT 1,
      started_at timestamptz,
      finished_at timestamptz,
      PRIMARY KEY (run_id, step_index)
    );

    CREATE TABLE run_events (
      run_id text NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
      seq integer NOT NULL,
      type text NOT NULL,
      data jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      PRIMARY KEY (run_id, seq)
    );

    CREATE TABLE artifacts (
      id text PRIMARY KEY,
      run_id text REFERENCES runs(id),
      workspace_id uuid NOT NULL REFERENCES workspaces(id),
      project_id uuid,
      template_id text,
      title text NOT NULL,
      status text NOT NULL CHECK (status IN ('review', 'approved', 'rejected', 'draft', 'ready')),
      artifact_class text NOT NULL CHECK (artifact_class IN ('visual', 'video', 'research', 'knowledge')),
      artifact_type text NOT NULL,
      version integer NOT NULL DEFAULT 1,
      content jsonb NOT NULL,
      qa jsonb NOT NULL,
      source_report_artifact_id text REFERENCES artifacts(id),
      created_at timestamptz NOT NULL DEFAULT now(),
      FOREIGN KEY (project_id, workspace_id) REFERENCES projects (id, workspace_id) ON DELETE SET NULL (project_id)
    );
    CREATE INDEX artifacts_run ON artifacts (run_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE artifacts; DROP TABLE run_events; DROP TABLE run_steps; DROP TABLE runs;
    DROP TABLE workflow_versions; DROP TABLE workflows; DROP TABLE projects; DROP TABLE api_keys;
    DROP TABLE auth_tokens; DROP TABLE auth_sessions; DROP TABLE memberships; DROP TABLE workspaces; DROP TABLE users;
  `.execute(db);
}
