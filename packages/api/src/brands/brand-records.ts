import type { z } from '@hono/zod-openapi';
import { type BrandRow, type BrandSnapshotRow, activeImportsOf, getArtifact, getBrand } from '@atelier/db';
import { canonicalJson, sha256Hex } from '@atelier/domain';
import { BrandProfile } from '@atelier/contracts/brands';
import { type WorkspaceAccess, requireWriter, resourceAccess } from '../access.js';
import { fail } from '../errors.js';
import type { Caller } from '../caller.js';

export type Profile = z.infer<typeof BrandProfile>;

const brandNotFound = (id: string) => fail.notFound('brand', id);

/**
 * The brand with this project id and the caller's access to it: 404 for a random id, a project that is
 * not a brand, or a brand of a workspace the caller is not in; with `write`, members get 403 admin_required.
 */
export async function visibleBrand(
  caller: Caller,
  projectId: string,
  write: boolean,
): Promise<{ brand: BrandRow; access: WorkspaceAccess }> {
  const brand = await getBrand(caller.services.db, projectId);
  if (!brand) throw brandNotFound(projectId);
  const access = await resourceAccess(caller, brand.workspace_id, 'brand', projectId);
  if (write) requireWriter(access);
  return { brand, access };
}

/** A stored profile read back through the contract's schema (fills any field an older writer left out). */
export function storedProfile(raw: unknown): Profile {
  const parsed = BrandProfile.safeParse(raw);
  if (parsed.success) return parsed.data;
  // Stored profiles were validated on the way in; a shape this cannot read is shown as it is.
  return raw as Profile;
}

/** The hash publishing compares: SHA-256 of the profile's canonical JSON. */
export const profileHash = (profile: Profile): string => `sha256:${sha256Hex(canonicalJson(profile))}`;

/** A logo must be an artifact of the brand's own workspace. */
export async function checkLogo(caller: Caller, workspaceId: string, profile: Profile): Promise<void> {
  const id = profile.visual.logoArtifactId;
  if (!id) return;
  const artifact = await getArtifact(caller.services.db, id);
  if (!artifact || artifact.workspace_id !== workspaceId) {
    throw fail.code('artifact_not_found', {
      field: 'visual.logoArtifactId',
      artifactId: id,
      message: `artifact ${id} not found in this workspace`,
    });
  }
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

export async function brandRecords(caller: Caller, brands: BrandRow[]) {
  const active = await activeImportsOf(
    caller.services.db,
    brands.map((b) => b.id),
  );
  return brands.map((b) => presentBrand(b, active.get(b.id) ?? null));
}

export async function brandRecord(caller: Caller, brand: BrandRow) {
  return (await brandRecords(caller, [brand]))[0]!;
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
