import type { Insertable, Selectable } from 'kysely';
import { TERMINAL_RUN_STATUSES } from '@atelier/domain';
import type { Db } from './connect.js';
import type { Executor } from './connect.js';
import type { Database } from './schema.js';
import type { BrandProfilesTable, BrandSnapshotsTable } from './schema-brands.js';
import { pageOf } from './paging.js';

/** A brand: its project row and its profile row, read together. */
export interface BrandRow {
  id: string;
  workspace_id: string;
  name: string;
  description: string | null;
  client_id: string | null;
  archived: boolean;
  created_at: Date;
  updated_at: Date;
  profile: Record<string, unknown>;
  current_snapshot_id: string | null;
  etag: string;
  profile_updated_at: Date;
}

export type BrandSnapshotRow = Selectable<BrandSnapshotsTable>;
export type BrandProfileRow = Selectable<BrandProfilesTable>;

/** Brand projects joined to their profiles, with nothing selected yet. */
function brandsFrom(db: Executor) {
  return db.selectFrom('projects as p').innerJoin('brand_profiles as b', 'b.project_id', 'p.id').where('p.kind', '=', 'brand');
}

function brandColumns(brands: ReturnType<typeof brandsFrom>) {
  return brands.select([
    'p.id',
    'p.workspace_id',
    'p.name',
    'p.description',
    'p.client_id',
    'p.archived',
    'p.created_at',
    'p.updated_at',
    'b.profile',
    'b.current_snapshot_id',
    'b.etag',
    'b.updated_at as profile_updated_at',
  ]);
}

function brandQuery(db: Executor) {
  return brandColumns(brandsFrom(db));
}

export interface NewBrand {
  id: string;
  workspaceId: string;
  name: string;
  description: string | null;
  profile: Record<string, unknown>;
  etag: string;
}

/** The brand project and its profile, in one transaction. */
export async function createBrand(db: Db, b: NewBrand): Promise<BrandRow> {
  return db.transaction().execute(async (tx) => {
    await tx
      .insertInto('projects')
      .values({ id: b.id, workspace_id: b.workspaceId, name: b.name, kind: 'brand', description: b.description })
      .execute();
    await tx
      .insertInto('brand_profiles')
      .values({ project_id: b.id, workspace_id: b.workspaceId, profile: JSON.stringify(b.profile), etag: b.etag })
      .execute();
    return (await brandQuery(tx).where('p.id', '=', b.id).executeTakeFirstOrThrow()) as BrandRow;
  });
}

/** A brand by project id, whatever its workspace (callers check access); undefined for other kinds. */
export async function getBrand(db: Executor, projectId: string): Promise<BrandRow | undefined> {
  return (await brandQuery(db).where('p.id', '=', projectId).executeTakeFirst()) as BrandRow | undefined;
}

export interface BrandListQuery {
  workspaceId: string;
  includeArchived?: boolean;
  offset: number;
  limit: number;
}

/** Brands of a workspace, newest first; archived ones only when asked for. */
export async function listBrands(db: Db, q: BrandListQuery): Promise<{ items: BrandRow[]; total: number }> {
  let base = brandsFrom(db).where('p.workspace_id', '=', q.workspaceId);
  if (!q.includeArchived) base = base.where('p.archived', '=', false);
  const { items, total } = await pageOf(db, base, brandColumns, [['p.created_at', 'desc'], 'p.id'], q);
  return { items: items as BrandRow[], total };
}

/** Locks the brand's profile row until the transaction ends (publish, confirm and import serialise on it). */
export async function lockBrandProfile(tx: Executor, projectId: string): Promise<BrandProfileRow | undefined> {
  return tx.selectFrom('brand_profiles').selectAll().where('project_id', '=', projectId).forUpdate().executeTakeFirst();
}

/**
 * Replaces the working copy; with `expectedEtag`, only when the etag still matches. Undefined when no
 * row was written (no such brand, or a stale etag).
 */
export async function writeBrandProfile(
  db: Executor,
  projectId: string,
  profile: Record<string, unknown>,
  etag: string,
  expectedEtag?: string,
): Promise<BrandProfileRow | undefined> {
  let q = db
    .updateTable('brand_profiles')
    .set({ profile: JSON.stringify(profile), etag, updated_at: new Date() })
    .where('project_id', '=', projectId);
  if (expectedEtag !== undefined) q = q.where('etag', '=', expectedEtag);
  return q.returningAll().executeTakeFirst();
}

// ----- imports ------------------------------------------------------------------------------------

/** Imports whose run has ended stop being active (done before a new import is recorded). */
export async function settleBrandImports(db: Executor, projectId: string): Promise<void> {
  await db
    .updateTable('brand_imports')
    .set({ active: false })
    .where('project_id', '=', projectId)
    .where('active', '=', true)
    .where('run_id', 'in', (eb) =>
      eb
        .selectFrom('runs')
        .select('id')
        .where('status', 'in', [...TERMINAL_RUN_STATUSES]),
    )
    .execute();
}

/** Records an import; a second active import of the brand breaks brand_imports_one_active (unique violation). */
export async function recordBrandImport(tx: Executor, i: { runId: string; projectId: string; createdBy: string | null }): Promise<void> {
  await tx.insertInto('brand_imports').values({ run_id: i.runId, project_id: i.projectId, created_by: i.createdBy }).execute();
}

/** The brand's active import with its run's status, if any. */
export async function activeBrandImport(db: Executor, projectId: string): Promise<{ run_id: string; status: string } | undefined> {
  return db
    .selectFrom('brand_imports as i')
    .innerJoin('runs as r', 'r.id', 'i.run_id')
    .select(['i.run_id', 'r.status'])
    .where('i.project_id', '=', projectId)
    .where('i.active', '=', true)
    .executeTakeFirst();
}

/** An import by its run, with the run's status and artifact. */
export async function getBrandImport(db: Executor, runId: string) {
  return db
    .selectFrom('brand_imports as i')
    .innerJoin('runs as r', 'r.id', 'i.run_id')
    .select(['i.run_id', 'i.project_id', 'i.active', 'i.confirmed_at', 'r.status', 'r.artifact_id', 'r.error', 'r.error_code'])
    .where('i.run_id', '=', runId)
    .executeTakeFirst();
}

export async function markBrandImportConfirmed(tx: Executor, runId: string): Promise<void> {
  await tx.updateTable('brand_imports').set({ confirmed_at: new Date(), active: false }).where('run_id', '=', runId).execute();
}

// ----- snapshots ----------------------------------------------------------------------------------

export async function getBrandSnapshot(db: Executor, id: string): Promise<BrandSnapshotRow | undefined> {
  return db.selectFrom('brand_snapshots').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findBrandSnapshotByHash(db: Executor, projectId: string, contentHash: string): Promise<BrandSnapshotRow | undefined> {
  return db
    .selectFrom('brand_snapshots')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('content_hash', '=', contentHash)
    .executeTakeFirst();
}

/** An earlier capture of the same font file for this brand, to reuse instead of fetching again. */
export async function findCapturedFont(
  db: Executor,
  projectId: string,
  family: string,
  url: string,
): Promise<Record<string, unknown> | undefined> {
  const rows = await db
    .selectFrom('brand_snapshots')
    .select('font_capture')
    .where('project_id', '=', projectId)
    .orderBy('created_at', 'desc')
    .execute();
  return rows
    .map((r) => r.font_capture as Record<string, unknown>)
    .find((f) => f.status === 'captured' && f.family === family && f.url === url && typeof f.storageKey === 'string');
}

/** Stores the snapshot's artifact and the snapshot, and points the brand's current snapshot at it. */
export async function insertBrandSnapshot(
  tx: Executor,
  artifact: Insertable<Database['artifacts']>,
  snapshot: Insertable<Database['brand_snapshots']>,
): Promise<BrandSnapshotRow> {
  await tx.insertInto('artifacts').values(artifact).execute();
  const row = await tx.insertInto('brand_snapshots').values(snapshot).returningAll().executeTakeFirstOrThrow();
  await pointBrandAt(tx, snapshot.project_id, row.id);
  return row;
}

export async function pointBrandAt(tx: Executor, projectId: string, snapshotId: string): Promise<void> {
  await tx.updateTable('brand_profiles').set({ current_snapshot_id: snapshotId }).where('project_id', '=', projectId).execute();
}

export async function listBrandSnapshots(
  db: Db,
  projectId: string,
  page: { offset: number; limit: number },
): Promise<{ items: BrandSnapshotRow[]; total: number }> {
  const base = db.selectFrom('brand_snapshots').where('project_id', '=', projectId);
  return pageOf(db, base, (qb) => qb.selectAll(), [['created_at', 'desc'], 'id'], page);
}

/** The run ids of the active (not yet ended) imports of these brands, by brand. */
export async function activeImportsOf(db: Executor, projectIds: string[]): Promise<Map<string, string>> {
  if (projectIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('brand_imports as i')
    .innerJoin('runs as r', 'r.id', 'i.run_id')
    .select(['i.project_id', 'i.run_id'])
    .where('i.project_id', 'in', projectIds)
    .where('i.active', '=', true)
    .where('r.status', 'not in', [...TERMINAL_RUN_STATUSES])
    .execute();
  return new Map(rows.map((r) => [r.project_id, r.run_id]));
}
