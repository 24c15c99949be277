import { type BrandRow, activeImportsOf, getArtifact, getBrand } from '@atelier/db';
import { canonicalJson, sha256Hex } from '@atelier/domain';
import { type WorkspaceAccess, visibleRecord } from '../access.js';
import { fail } from '../errors.js';
import type { Caller } from '../caller.js';
import { type Profile, presentBrand } from '../presenters/brand.js';

/**
 * The brand with this project id and the caller's access to it: 404 for a random id, a project that is
 * not a brand, or a brand of a workspace the caller is not in; with `write`, members get 403 admin_required.
 */
export async function visibleBrand(
  caller: Caller,
  projectId: string,
  write: boolean,
): Promise<{ brand: BrandRow; access: WorkspaceAccess }> {
  const found = await getBrand(caller.services.db, projectId);
  const { row: brand, access } = await visibleRecord(caller, found, { noun: 'brand', id: projectId }, write);
  return { brand, access };
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
