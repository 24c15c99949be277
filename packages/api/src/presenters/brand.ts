import type { z } from '@hono/zod-openapi';
import type { BrandRow, BrandSnapshotRow } from '@atelier/db';
import { BrandProfile } from '@atelier/contracts/brands';

export type Profile = z.infer<typeof BrandProfile>;

/**
 * A stored profile read back through the contract's schema (fills any field an older writer left out).
 * Presenting is its main reader; publishing and profile edits start from it too.
 */
export function storedProfile(raw: unknown): Profile {
  const parsed = BrandProfile.safeParse(raw);
  if (parsed.success) return parsed.data;
  // Stored profiles were validated on the way in; a shape this cannot read is shown as it is.
  return raw as Profile;
}

export function presentBrand(b: BrandRow, activeImportRunId: string | null) {
  return {
    id: b.id,
    workspaceId: b.workspace_id,
    kind: 'brand' as const,
    name: b.name,
    description: b.description,
    clientId: b.client_id,
    archived: b.archived,
    profile: storedProfile(b.profile),
    currentSnapshotId: b.current_snapshot_id,
    activeImportRunId,
    etag: b.etag,
    createdAt: b.created_at.toISOString(),
    updatedAt: new Date(Math.max(b.profile_updated_at.getTime(), b.updated_at.getTime())).toISOString(),
  };
}

export function presentSnapshot(s: BrandSnapshotRow, currentSnapshotId: string | null) {
  return {
    id: s.id,
    brandId: s.project_id,
    artifactId: s.id,
    contentHash: s.content_hash,
    profile: storedProfile(s.profile),
    fontCapture: s.font_capture as {
      family: string | null;
      url?: string | null;
      status: 'captured' | 'failed' | 'skipped';
      storageKey?: string;
      bytes?: number;
      contentType?: string;
      error?: string;
    },
    current: s.id === currentSnapshotId,
    createdAt: s.created_at.toISOString(),
  };
}
