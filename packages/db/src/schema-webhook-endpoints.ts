import type { Generated } from 'kysely';

/** Integrators' event webhook endpoints (migration 0010-webhook-endpoints; docs/webhooks.md). */
export interface WebhookEndpointsTable {
  id: string;
  workspace_id: string;
  url: string;
  description: string | null;
  /** The event types wanted (`run.completed`, …), or `*` for every one. */
  events: string[];
  enabled: Generated<boolean>;
  /** The signing key, sealed with AES-256-GCM (engine webhooks/secret-box); never the plaintext. */
  secret_sealed: string;
  secret_rotated_at: Generated<Date>;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface WebhookEndpointsSchema {
  webhook_endpoints: WebhookEndpointsTable;
}
