import { createHash } from 'node:crypto';
import {
  type BrandRow,
  type BrandSnapshotRow,
  findBrandSnapshotByHash,
  findCapturedFont,
  getBrandSnapshot,
  insertBrandSnapshot,
  lockBrandProfile,
  pointBrandAt,
} from '@atelier/db';
import { newArtifactId } from '@atelier/domain';
import { DEFAULT_EGRESS_POLICY, EgressRefused, egressFetch } from '@atelier/egress';
import type { Caller } from '../caller.js';
import { type Profile, storedProfile } from '../presenters/brand.js';
import { profileHash } from './brand-records.js';

/** A font file is small: more than this is refused, and the fetch gives up after FONT_TIMEOUT_MS. */
export const FONT_MAX_BYTES = 5 * 1024 * 1024;
export const FONT_TIMEOUT_MS = 10_000;

export interface FontCapture {
  family: string | null;
  url: string | null;
  status: 'captured' | 'failed' | 'skipped';
  storageKey?: string;
  bytes?: number;
  contentType?: string;
  error?: string;
}

const FONT_TYPES: Record<string, string> = { woff2: 'font/woff2', woff: 'font/woff', ttf: 'font/ttf', otf: 'font/otf' };

function fontExtension(url: string, contentType: string | null): string {
  const fromPath = new URL(url).pathname.split('.').pop()?.toLowerCase() ?? '';
  if (fromPath in FONT_TYPES) return fromPath;
  const fromType = Object.entries(FONT_TYPES).find(([, t]) => contentType?.toLowerCase().startsWith(t));
  return fromType ? fromType[0] : 'bin';
}

/**
 * Captures the first font family of visual.fonts that has a url: fetched once through the egress policy
 * (size and time capped), kept in storage under a key derived from its bytes, and described by the
 * outcome. Never throws: a font that cannot be fetched is recorded as failed and publishing goes on.
 * A file this brand already captured from the same url is reused rather than fetched again.
 */
export async function captureFont(caller: Caller, brandId: string, profile: Profile): Promise<FontCapture> {
  const { db, storage, logger } = caller.services;
  const font = profile.visual.fonts.find((f) => f.url);
  if (!font?.url) return { family: profile.visual.fonts[0]?.family ?? null, url: null, status: 'skipped' };
  const base = { family: font.family, url: font.url };
  const earlier = await findCapturedFont(db, brandId, font.family, font.url);
  if (earlier) return earlier as unknown as FontCapture;
  const configured = caller.services.egress ?? DEFAULT_EGRESS_POLICY;
  const policy = {
    ...configured,
    maxBytes: Math.min(configured.maxBytes, FONT_MAX_BYTES),
    timeoutMs: Math.min(configured.timeoutMs, FONT_TIMEOUT_MS),
  };
  try {
    const res = await egressFetch(font.url, { headers: { accept: 'font/woff2, font/woff, font/*;q=0.9, */*;q=0.5' } }, policy);
    if (res.status < 200 || res.status >= 300)
      return { ...base, status: 'failed', error: `${new URL(res.url).host} answered HTTP ${res.status}` };
    if (res.body.length === 0) return { ...base, status: 'failed', error: 'the font file is empty' };
    const ext = fontExtension(res.url, res.headers.get('content-type'));
    const contentType = FONT_TYPES[ext] ?? 'application/octet-stream';
    const storageKey = `brands/${brandId}/fonts/${createHash('sha256').update(res.body).digest('hex').slice(0, 32)}.${ext}`;
    await storage.put(storageKey, res.body, contentType);
    return { ...base, status: 'captured', storageKey, bytes: res.body.length, contentType };
  } catch (err) {
    if (err instanceof EgressRefused) {
      logger.info({ brandId, reason: err.reason, detail: err.detail }, 'brand font not captured');
      return { ...base, status: 'failed', error: err.message };
    }
    logger.warn({ err, brandId }, 'brand font capture failed');
    return { ...base, status: 'failed', error: 'the font could not be fetched or stored' };
  }
}

/**
 * Publishes the working copy: the standing snapshot when the profile is unchanged (same content hash);
 * an earlier snapshot with the same content when the profile went back to it (the brand points at it
 * again); otherwise a new immutable knowledge artifact (brand-profile) and its snapshot, which becomes
 * the brand's current one. Concurrent publishes serialise on the brand's profile row.
 */
export async function publishBrand(caller: Caller, brand: BrandRow): Promise<BrandSnapshotRow> {
  const { db } = caller.services;
  const profile = storedProfile(brand.profile);
  const contentHash = profileHash(profile);
  if (brand.current_snapshot_id) {
    const current = await getBrandSnapshot(db, brand.current_snapshot_id);
    if (current?.content_hash === contentHash) return current;
  }
  const same = await findBrandSnapshotByHash(db, brand.id, contentHash);
  if (same) {
    await db.transaction().execute(async (tx) => {
      await lockBrandProfile(tx, brand.id);
      await pointBrandAt(tx, brand.id, same.id);
    });
    return same;
  }
  // The network is reached outside any transaction; the lock below is held only for the writes.
  const fontCapture = await captureFont(caller, brand.id, profile);
  return db.transaction().execute(async (tx) => {
    await lockBrandProfile(tx, brand.id);
    const raced = await findBrandSnapshotByHash(tx, brand.id, contentHash);
    if (raced) {
      await pointBrandAt(tx, brand.id, raced.id);
      return raced;
    }
    const id = newArtifactId();
    const title = `Brand profile: ${profile.name}`;
    return insertBrandSnapshot(
      tx,
      {
        id,
        run_id: null,
        workspace_id: brand.workspace_id,
        project_id: brand.id,
        template_id: null,
        title,
        status: 'approved',
        artifact_class: 'knowledge',
        artifact_type: 'brand-profile',
        content: JSON.stringify({
          type: 'brand-profile',
          status: 'published',
          title,
          brandId: brand.id,
          contentHash,
          profile,
          fontCapture,
        }),
        qa: JSON.stringify({ status: 'not_applicable', checks: [] }),
      },
      {
        id,
        project_id: brand.id,
        workspace_id: brand.workspace_id,
        content_hash: contentHash,
        profile: JSON.stringify(profile),
        font_capture: JSON.stringify(fontCapture),
        created_by: caller.principal.userId,
      },
    );
  });
}
