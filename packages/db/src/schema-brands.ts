import type { Generated } from 'kysely';
import type { Json, NullableTimestamp, Timestamp } from './schema-columns.js';

/** Brands, their imports and snapshots, campaigns and the operator queue (migration 0008-brands-campaigns). */
export interface BrandProfilesTable {
  project_id: string;
  workspace_id: string;
  profile: Json<Record<string, unknown>>;
  current_snapshot_id: string | null;
  etag: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BrandSnapshotsTable {
  id: string;
  project_id: string;
  workspace_id: string;
  content_hash: string;
  profile: Json<Record<string, unknown>>;
  font_capture: Json<Record<string, unknown>>;
  created_by: string | null;
  created_at: Timestamp;
}

export interface BrandImportsTable {
  run_id: string;
  project_id: string;
  active: Generated<boolean>;
  confirmed_at: NullableTimestamp;
  created_by: string | null;
  created_at: Timestamp;
}

export type CampaignStatus = 'draft' | 'submitted' | 'producing';
export type ManagedRequestState = 'received' | 'scoping' | 'in_production' | 'delivered' | 'closed';

export interface CampaignsTable {
  id: string;
  workspace_id: string;
  project_id: string;
  name: string;
  brief: Json<Record<string, unknown>>;
  status: Generated<CampaignStatus>;
  brand_snapshot_id: string;
  request_state: ManagedRequestState | null;
  archived: Generated<boolean>;
  etag: string;
  created_by: string | null;
  submitted_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CampaignRequestEntriesTable {
  id: string;
  campaign_id: string;
  from_state: string | null;
  to_state: string | null;
  note: string | null;
  visibility: 'internal' | 'campaign';
  actor_id: string | null;
  created_at: Timestamp;
}

export interface PlatformOperatorsTable {
  user_id: string;
  granted_by: string;
  granted_at: Timestamp;
}

export interface OpsTasksTable {
  id: string;
  kind: 'campaign_submitted';
  campaign_id: string;
  workspace_id: string;
  status: Generated<'open' | 'done'>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OpsNotificationsTable {
  id: string;
  kind: 'campaign_submitted';
  campaign_id: string;
  workspace_id: string;
  message: string;
  created_at: Timestamp;
}

export interface BrandsSchema {
  brand_profiles: BrandProfilesTable;
  brand_snapshots: BrandSnapshotsTable;
  brand_imports: BrandImportsTable;
  campaigns: CampaignsTable;
  campaign_request_entries: CampaignRequestEntriesTable;
  platform_operators: PlatformOperatorsTable;
  ops_tasks: OpsTasksTable;
  ops_notifications: OpsNotificationsTable;
}
