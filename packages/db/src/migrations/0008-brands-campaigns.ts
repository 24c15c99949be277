import { type Kysely, sql } from 'kysely';

/**
 * Brands (a project of kind brand plus its profile), their imports and immutable published snapshots;
 * campaigns under a brand with their managed request; the operator queue (tasks and inbox) and the
 * platform operator role. Rules that must hold for every writer live here: one active import per brand
 * (a partial unique index), a snapshot's artifact never changes, a campaign's pin never moves, one
 * queue task and one notification per submitted campaign, and no link crossing workspaces.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE brand_profiles (
      project_id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL,
      profile jsonb NOT NULL CHECK (jsonb_typeof(profile) = 'object'),
      current_snapshot_id text REFERENCES artifacts(id),
      etag text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (project_id, workspace_id),
      FOREIGN KEY (project_id, workspace_id) REFERENCES projects (id, workspace_id) ON DELETE CASCADE
    );

    CREATE TABLE brand_snapshots (
      id text PRIMARY KEY REFERENCES artifacts(id),
      project_id uuid NOT NULL,
      workspace_id uuid NOT NULL,
      content_hash text NOT NULL,
      profile jsonb NOT NULL,
      font_capture jsonb NOT NULL,
      created_by uuid,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      UNIQUE (project_id, content_hash),
      FOREIGN KEY (project_id, workspace_id) REFERENCES brand_profiles (project_id, workspace_id) ON DELETE CASCADE
    );
    CREATE INDEX brand_snapshots_project ON brand_snapshots (project_id, created_at DESC);

    -- A published snapshot is immutable: neither it nor the artifact holding it is ever rewritten.
    CREATE FUNCTION brand_snapshot_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'a published brand snapshot cannot be changed' USING ERRCODE = 'check_violation', CONSTRAINT = 'brand_snapshot_frozen';
    END $$;
    CREATE TRIGGER brand_snapshots_frozen BEFORE UPDATE ON brand_snapshots FOR EACH ROW EXECUTE FUNCTION brand_snapshot_frozen();
    CREATE FUNCTION brand_snapshot_artifact_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM brand_snapshots WHERE id = OLD.id) THEN
        RAISE EXCEPTION 'artifact % is a published brand snapshot and cannot be changed', OLD.id USING ERRCODE = 'check_violation', CONSTRAINT = 'brand_snapshot_frozen';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER artifacts_brand_snapshot_frozen BEFORE UPDATE OF title, status, artifact_class, artifact_type, version, content, qa ON artifacts FOR EACH ROW EXECUTE FUNCTION brand_snapshot_artifact_frozen();

    -- Imports: a run of compose-brand-profile for a brand. At most one active import per brand, whoever writes.
    CREATE TABLE brand_imports (
      run_id text PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES brand_profiles(project_id) ON DELETE CASCADE,
      active boolean NOT NULL DEFAULT true,
      confirmed_at timestamptz,
      created_by uuid,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp()
    );
    CREATE UNIQUE INDEX brand_imports_one_active ON brand_imports (project_id) WHERE active;
    CREATE INDEX brand_imports_project ON brand_imports (project_id, created_at DESC);

    CREATE TABLE campaigns (
      id text PRIMARY KEY CHECK (id ~ '^campaign-[0-9a-f]{16}$'),
      workspace_id uuid NOT NULL,
      project_id uuid NOT NULL,
      name text NOT NULL CHECK (length(name) > 0),
      brief jsonb NOT NULL CHECK (jsonb_typeof(brief) = 'object'),
      status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'submitted', 'producing')),
      brand_snapshot_id text NOT NULL,
      request_state text CHECK (request_state IN ('received', 'scoping', 'in_production', 'delivered', 'closed')),
      archived boolean NOT NULL DEFAULT false,
      etag text NOT NULL,
      created_by uuid,
      submitted_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((status = 'draft') = (request_state IS NULL)),
      FOREIGN KEY (project_id, workspace_id) REFERENCES brand_profiles (project_id, workspace_id) ON DELETE CASCADE,
      FOREIGN KEY (brand_snapshot_id) REFERENCES brand_snapshots (id)
    );
    CREATE INDEX campaigns_project ON campaigns (project_id, created_at DESC);

    -- The pin: a campaign keeps the snapshot it was created with, and it must be a snapshot of its own brand.
    CREATE FUNCTION campaign_pin_checked() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND NEW.brand_snapshot_id IS DISTINCT FROM OLD.brand_snapshot_id THEN
        RAISE EXCEPTION 'a campaign keeps the brand snapshot it was created with' USING ERRCODE = 'check_violation', CONSTRAINT = 'campaign_pin_fixed';
      END IF;
      IF TG_OP = 'INSERT' AND NOT EXISTS (SELECT 1 FROM brand_snapshots WHERE id = NEW.brand_snapshot_id AND project_id = NEW.project_id) THEN
        RAISE EXCEPTION 'the pinned snapshot is not one of this brand' USING ERRCODE = 'check_violation', CONSTRAINT = 'campaign_pin_own_brand';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER campaigns_pin BEFORE INSERT OR UPDATE ON campaigns FOR EACH ROW EXECUTE FUNCTION campaign_pin_checked();

    -- Operator notes and request moves, append-only. visibility campaign is shown to the customer; internal never is.
    CREATE TABLE campaign_request_entries (
      id uuid PRIMARY KEY,
      campaign_id text NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
      from_state text,
      to_state text,
      note text,
      visibility text NOT NULL CHECK (visibility IN ('internal', 'campaign')),
      actor_id uuid,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      CHECK (note IS NOT NULL OR to_state IS NOT NULL)
    );
    CREATE INDEX campaign_request_entries_campaign ON campaign_request_entries (campaign_id, created_at);

    CREATE TABLE platform_operators (
      user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      granted_by text NOT NULL,
      granted_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE ops_tasks (
      id uuid PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('campaign_submitted')),
      campaign_id text NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
      workspace_id uuid NOT NULL,
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'done')),
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (kind, campaign_id)
    );
    CREATE INDEX ops_tasks_status ON ops_tasks (status, created_at);

    CREATE TABLE ops_notifications (
      id uuid PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('campaign_submitted')),
      campaign_id text NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
      workspace_id uuid NOT NULL,
      message text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      UNIQUE (kind, campaign_id)
    );
    CREATE INDEX ops_notifications_created ON ops_notifications (created_at DESC);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE ops_notifications; DROP TABLE ops_tasks; DROP TABLE platform_operators;
    DROP TABLE campaign_request_entries; DROP TABLE campaigns; DROP FUNCTION campaign_pin_checked();
    DROP TABLE brand_imports;
    DROP TRIGGER artifacts_brand_snapshot_frozen ON artifacts; DROP FUNCTION brand_snapshot_artifact_frozen();
    DROP TABLE brand_snapshots; DROP FUNCTION brand_snapshot_frozen();
    DROP TABLE brand_profiles;
  `.execute(db);
}
