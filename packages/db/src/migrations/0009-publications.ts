import { type Kysely, sql } from 'kysely';

/**
 * Publications (a consumer site's revalidation webhook configuration) and their documents, plus the
 * generic outbound webhook machinery every webhook kind shares: one message per event (the exact body
 * sent, its `msg_` id), every delivery attempt, and per-target delivery health. A target is named by
 * (target_kind, target_id); publications are the first kind, integrator event webhooks will be the next.
 * The signing secret is stored only sealed (AES-256-GCM under ATELIER_SECRETS_KEY); see docs/publications.md.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE publications (
      id text PRIMARY KEY CHECK (id ~ '^pub-[0-9a-f]{16}$'),
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      slug text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(slug) <= 80),
      name text NOT NULL CHECK (length(name) > 0),
      revalidate_url text NOT NULL CHECK (revalidate_url ~ '^https?://'),
      section_path text NOT NULL CHECK (section_path ~ '^/'),
      secret_sealed text NOT NULL,
      secret_rotated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      created_by uuid,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
    );
    CREATE INDEX publications_workspace ON publications (workspace_id, created_at);

    CREATE TABLE publication_documents (
      id text PRIMARY KEY CHECK (id ~ '^doc-[0-9a-f]{16}$'),
      publication_id text NOT NULL REFERENCES publications(id) ON DELETE CASCADE,
      slug text NOT NULL CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
      title text NOT NULL,
      body text NOT NULL,
      categories jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(categories) = 'array'),
      status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'unpublished')),
      published_at timestamptz,
      created_by uuid,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      UNIQUE (publication_id, slug),
      CHECK ((status = 'published') = (published_at IS NOT NULL))
    );
    CREATE INDEX publication_documents_published ON publication_documents (publication_id, published_at DESC) WHERE status = 'published';

    CREATE TABLE webhook_messages (
      id text PRIMARY KEY CHECK (id ~ '^msg_[0-9A-Za-z]{16,64}$'),
      target_kind text NOT NULL CHECK (target_kind IN ('publication')),
      target_id text NOT NULL,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      event_type text NOT NULL,
      body text NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
      attempts integer NOT NULL DEFAULT 0,
      last_error text,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      settled_at timestamptz,
      CHECK ((status = 'pending') = (settled_at IS NULL))
    );
    CREATE INDEX webhook_messages_target ON webhook_messages (target_kind, target_id, created_at DESC);

    CREATE TABLE webhook_attempts (
      id bigserial PRIMARY KEY,
      message_id text NOT NULL REFERENCES webhook_messages(id) ON DELETE CASCADE,
      target_kind text NOT NULL,
      target_id text NOT NULL,
      attempt integer NOT NULL CHECK (attempt >= 1),
      webhook_timestamp bigint NOT NULL,
      url text NOT NULL,
      started_at timestamptz NOT NULL,
      duration_ms integer NOT NULL,
      status_code integer,
      outcome text NOT NULL CHECK (outcome IN ('delivered', 'retrying', 'failed')),
      error text,
      redirected_to text
    );
    CREATE INDEX webhook_attempts_target ON webhook_attempts (target_kind, target_id, id DESC);
    CREATE INDEX webhook_attempts_message ON webhook_attempts (message_id, id);

    CREATE TABLE webhook_target_health (
      target_kind text NOT NULL,
      target_id text NOT NULL,
      last_attempt_at timestamptz NOT NULL,
      last_status_code integer,
      last_ok boolean NOT NULL,
      consecutive_failures integer NOT NULL DEFAULT 0,
      last_success_at timestamptz,
      PRIMARY KEY (target_kind, target_id)
    );

    -- The outbox hands webhook messages to the engine like runs and orders.
    ALTER TABLE engine_commands DROP CONSTRAINT engine_commands_kind_check;
    ALTER TABLE engine_commands ADD CONSTRAINT engine_commands_kind_check
      CHECK (kind IN ('start_run', 'start_order', 'cancel_run', 'cancel_order', 'deliver_webhook'));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DELETE FROM engine_commands WHERE kind = 'deliver_webhook';
    ALTER TABLE engine_commands DROP CONSTRAINT engine_commands_kind_check;
    ALTER TABLE engine_commands ADD CONSTRAINT engine_commands_kind_check CHECK (kind IN ('start_run', 'start_order', 'cancel_run', 'cancel_order'));
    DROP TABLE webhook_target_health;
    DROP TABLE webhook_attempts;
    DROP TABLE webhook_messages;
    DROP TABLE publication_documents;
    DROP TABLE publications;
  `.execute(db);
}
