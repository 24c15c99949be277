import type { Generated } from 'kysely';
import type { Json, NullableTimestamp, Timestamp } from './schema-columns.js';

/** Publications, their documents and the shared webhook tables (migration 0009-publications). */
export interface PublicationsTable {
  id: string;
  workspace_id: string;
  slug: string;
  name: string;
  revalidate_url: string;
  section_path: string;
  /** The signing key, sealed with AES-256-GCM (webhooks/secret-box); never the plaintext. */
  secret_sealed: string;
  secret_rotated_at: Timestamp;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type DocumentStatus = 'draft' | 'published' | 'unpublished';

export interface PublicationDocumentsTable {
  id: string;
  publication_id: string;
  slug: string;
  title: string;
  body: string;
  categories: Json<string[]>;
  status: Generated<DocumentStatus>;
  published_at: NullableTimestamp;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Who a message goes to: a publication's revalidateUrl, or an integrator's event webhook endpoint. */
export type WebhookTargetKind = 'publication' | 'webhook_endpoint';
export type WebhookMessageStatus = 'pending' | 'delivered' | 'failed';
export type WebhookAttemptOutcome = 'delivered' | 'retrying' | 'failed';

export interface WebhookMessagesTable {
  id: string;
  target_kind: WebhookTargetKind;
  target_id: string;
  workspace_id: string;
  event_type: string;
  /** The exact bytes every attempt sends (and signs). */
  body: string;
  status: Generated<WebhookMessageStatus>;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: Timestamp;
  settled_at: NullableTimestamp;
}

export interface WebhookAttemptsTable {
  id: Generated<string>;
  message_id: string;
  target_kind: WebhookTargetKind;
  target_id: string;
  attempt: number;
  webhook_timestamp: string | number;
  url: string;
  started_at: Timestamp;
  duration_ms: number;
  status_code: number | null;
  outcome: WebhookAttemptOutcome;
  error: string | null;
  redirected_to: string | null;
}

export interface WebhookTargetHealthTable {
  target_kind: WebhookTargetKind;
  target_id: string;
  last_attempt_at: Timestamp;
  last_status_code: number | null;
  last_ok: boolean;
  consecutive_failures: Generated<number>;
  last_success_at: NullableTimestamp;
}

export interface PublicationsSchema {
  publications: PublicationsTable;
  publication_documents: PublicationDocumentsTable;
  webhook_messages: WebhookMessagesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_target_health: WebhookTargetHealthTable;
}
