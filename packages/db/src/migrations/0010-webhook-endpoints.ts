import { type Kysely, sql } from 'kysely';

/**
 * Event webhooks for integrators: a workspace's endpoints (URL, the event types wanted, enabled or not, a
 * signing secret stored only sealed). Their messages, attempts and health live in the shared webhook tables
 * under a new target kind, `webhook_endpoint` (docs/webhooks.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE webhook_endpoints (
      id text PRIMARY KEY CHECK (id ~ '^ep-[0-9a-f]{16}$'),
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      url text NOT NULL CHECK (url ~* '^https?://' AND length(url) <= 2048),
      description text CHECK (length(description) <= 2000),
      events text[] NOT NULL CHECK (cardinality(events) > 0),
      enabled boolean NOT NULL DEFAULT true,
      secret_sealed text NOT NULL,
      secret_rotated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      created_by uuid,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
    );
    CREATE INDEX webhook_endpoints_workspace ON webhook_endpoints (workspace_id, created_at);
    -- What every run and order settlement reads: the enabled endpoints of its workspace.
    CREATE INDEX webhook_endpoints_enabled ON webhook_endpoints (workspace_id) WHERE enabled;

    ALTER TABLE webhook_messages DROP CONSTRAINT webhook_messages_target_kind_check;
    ALTER TABLE webhook_messages ADD CONSTRAINT webhook_messages_target_kind_check
      CHECK (target_kind IN ('publication', 'webhook_endpoint'));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DELETE FROM engine_commands c USING webhook_messages m
      WHERE c.kind = 'deliver_webhook' AND c.target_id = m.id AND m.target_kind = 'webhook_endpoint';
    DELETE FROM webhook_target_health WHERE target_kind = 'webhook_endpoint';
    DELETE FROM webhook_messages WHERE target_kind = 'webhook_endpoint';
    ALTER TABLE webhook_messages DROP CONSTRAINT webhook_messages_target_kind_check;
    ALTER TABLE webhook_messages ADD CONSTRAINT webhook_messages_target_kind_check CHECK (target_kind IN ('publication'));
    DROP TABLE webhook_endpoints;
  `.execute(db);
}
