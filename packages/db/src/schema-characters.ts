import type { Generated } from 'kysely';
import type { Json, NullableTimestamp, Timestamp, ManagedRecordColumns } from './schema-columns.js';

/** Tables of characters, subjects and likeness consents (migration 0004-characters-consent). */
export interface SubjectsTable {
  id: string;
  workspace_id: string;
  display_name: string | null;
  email: string | null;
  public_role: string | null;
  union_status: string | null;
  attested_adult: boolean;
  attested_not_political: boolean;
  erased_at: NullableTimestamp;
  etag: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ConsentScope {
  uses: string[];
  media: string[];
  channels: string[];
  territories: string[];
}

export interface LikenessConsentsTable {
  id: string;
  workspace_id: string;
  subject_id: string;
  status: Generated<'pending' | 'active' | 'suspended' | 'revoked'>;
  grantor: string;
  covers_likeness: boolean;
  covers_voice: boolean;
  scope: Json<ConsentScope>;
  /** `date` columns come back as YYYY-MM-DD strings (the pool's type parser keeps them as text). */
  starts_on: string;
  ends_on: string;
  evidence_kind: string;
  evidence_sha256: string;
  etag: string;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface LikenessConsentEventsTable {
  id: Generated<number>;
  consent_id: string;
  workspace_id: string;
  from_status: string | null;
  to_status: string;
  actor_id: string | null;
  reason: string | null;
  created_at: Timestamp;
}

export interface CharactersTable extends ManagedRecordColumns {
  id: string;
  workspace_id: string;
  project_id: string;
  name: string;
  format: 'synthetic' | 'likeness';
  persona: Json<Record<string, unknown>>;
}

export interface CharacterReferencesTable {
  id: string;
  character_id: string;
  workspace_id: string;
  role: string;
  artifact_id: string;
  created_at: Timestamp;
}

export interface FrozenReference {
  id: string;
  role: string;
  artifactId: string;
}

export interface CharacterVersionsTable {
  id: string;
  character_id: string;
  workspace_id: string;
  number: number;
  format: 'synthetic' | 'likeness';
  name: string;
  persona: Json<Record<string, unknown>>;
  references: Json<FrozenReference[]>;
  subject_id: string | null;
  note: string | null;
  created_by: string | null;
  created_at: Timestamp;
  retired_at: NullableTimestamp;
  retired_reason: string | null;
}

export interface CharacterBindingsTable {
  id: string;
  workspace_id: string;
  version_id: string;
  provider: string;
  asset_kind: 'likeness' | 'voice';
  asset_id: string;
  photo_based: boolean;
  provider_consent_status: 'pending' | 'accepted' | 'refused' | 'not_required';
  disabled_at: NullableTimestamp;
  etag: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CharactersSchema {
  subjects: SubjectsTable;
  likeness_consents: LikenessConsentsTable;
  likeness_consent_events: LikenessConsentEventsTable;
  characters: CharactersTable;
  character_references: CharacterReferencesTable;
  character_versions: CharacterVersionsTable;
  character_bindings: CharacterBindingsTable;
}
