/** The wire shapes of characters, subjects and consents (camelCase, ISO times, quoted etags). */
import type {
  CharacterBindingRow,
  CharacterReferenceRow,
  CharacterRow,
  CharacterVersionRow,
  ConsentEventRow,
  ConsentRow,
  SubjectRow,
} from '@atelier/db';
import type { CharacterVerdict } from '@atelier/domain';
import { wireEtag } from '../http/etag.js';
import { iso } from './time.js';

export function presentSubject(s: SubjectRow) {
  return {
    id: s.id,
    workspaceId: s.workspace_id,
    displayName: s.display_name,
    email: s.email,
    publicRole: s.public_role,
    unionStatus: s.union_status,
    attestations: { adult: s.attested_adult, notPolitical: s.attested_not_political },
    erased: s.erased_at !== null,
    erasedAt: iso(s.erased_at),
    etag: wireEtag(s.etag),
    createdAt: s.created_at.toISOString(),
    updatedAt: s.updated_at.toISOString(),
  };
}

export function presentConsent(c: ConsentRow) {
  return {
    id: c.id,
    workspaceId: c.workspace_id,
    subjectId: c.subject_id,
    status: c.status,
    grantor: c.grantor as 'subject',
    coversLikeness: c.covers_likeness,
    coversVoice: c.covers_voice,
    scope: c.scope,
    startsOn: c.starts_on,
    endsOn: c.ends_on,
    evidenceKind: c.evidence_kind as 'other',
    evidenceSha256: c.evidence_sha256,
    etag: wireEtag(c.etag),
    createdAt: c.created_at.toISOString(),
    updatedAt: c.updated_at.toISOString(),
  };
}

export function presentConsentEvent(e: ConsentEventRow) {
  return {
    id: e.id,
    consentId: e.consent_id,
    fromStatus: e.from_status as 'pending' | null,
    toStatus: e.to_status as 'pending',
    actorId: e.actor_id,
    reason: e.reason,
    createdAt: e.created_at.toISOString(),
  };
}

export function presentBinding(b: CharacterBindingRow, characterId: string, versionNumber: number) {
  return {
    id: b.id,
    characterId,
    versionNumber,
    provider: b.provider,
    assetKind: b.asset_kind,
    assetId: b.asset_id,
    photoBased: b.photo_based,
    providerConsentStatus: b.provider_consent_status,
    disabled: b.disabled_at !== null,
    etag: wireEtag(b.etag),
    createdAt: b.created_at.toISOString(),
    updatedAt: b.updated_at.toISOString(),
  };
}

export const presentReference = (r: CharacterReferenceRow) => ({
  id: r.id,
  role: r.role as 'other',
  artifactId: r.artifact_id,
  createdAt: r.created_at.toISOString(),
});

export function presentVersion(v: CharacterVersionRow, bindings: CharacterBindingRow[]) {
  return {
    number: v.number,
    characterId: v.character_id,
    format: v.format,
    name: v.name,
    persona: v.persona,
    references: v.references.map((r) => ({ id: r.id, role: r.role as 'other', artifactId: r.artifactId })),
    subjectId: v.subject_id,
    note: v.note,
    status: v.retired_at ? ('retired' as const) : ('active' as const),
    retiredAt: iso(v.retired_at),
    retiredReason: v.retired_reason,
    createdAt: v.created_at.toISOString(),
    bindings: bindings.filter((b) => b.version_id === v.id).map((b) => presentBinding(b, v.character_id, v.number)),
  };
}

export function presentCharacter(
  c: CharacterRow,
  parts: {
    references: CharacterReferenceRow[];
    latest: CharacterVersionRow | undefined;
    bindings: CharacterBindingRow[];
    usableToday: CharacterVerdict;
  },
) {
  return {
    id: c.id,
    workspaceId: c.workspace_id,
    projectId: c.project_id,
    name: c.name,
    format: c.format,
    persona: c.persona,
    references: parts.references.map(presentReference),
    latestVersion: parts.latest ? presentVersion(parts.latest, parts.bindings) : null,
    usableToday: parts.usableToday,
    archived: c.archived_at !== null,
    archivedAt: iso(c.archived_at),
    etag: wireEtag(c.etag),
    createdAt: c.created_at.toISOString(),
    updatedAt: c.updated_at.toISOString(),
  };
}
