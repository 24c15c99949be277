import { OpenAPIHono } from '@hono/zod-openapi';
import {
  PG,
  activeBrandImport,
  createBrand,
  getArtifact,
  getBrand,
  getBrandImport,
  listBrandSnapshots,
  listBrands,
  lockBrandProfile,
  markBrandImportConfirmed,
  pgConstraint,
  pgErrorCode,
  recordBrandImport,
  settleBrandImports,
  writeBrandProfile,
} from '@atelier/db';
import { isTerminalRunStatus, newUuid } from '@atelier/domain';
import { Pagination } from '@atelier/contracts/common';
import {
  Brand,
  BrandCreateRequest,
  BrandIdParam,
  BrandImportRequest,
  BrandProfile,
  BrandProfilePatch,
  BrandSnapshot,
  ListBrandsQuery,
  PROFILE_FIELDS,
  ProfileConfirmRequest,
  BrandList,
  BrandSnapshotList,
} from '@atelier/contracts/brands';
import { Run } from '@atelier/contracts/runs';
import { workspaceAccess, writerAccess } from '../access.js';
import { visibleBrand, brandRecord, brandRecords, checkLogo } from '../brands/brand-records.js';
import { publishBrand } from '../brands/publish.js';
import { fail, validationHook } from '../errors.js';
import { newEtag, optionalEtag, sendEtag } from '../http/etag.js';
import { writeWithEtag } from '../http/route.js';
import { type Profile, presentSnapshot, storedProfile } from '../presenters/brand.js';
import { presentRun } from '../presenters/run.js';
import { createRun } from '../runs/create-run.js';
import type { AppEnv } from '../services.js';
import { callerOf } from '../http/caller.js';
import { presentPage } from '../presenters/page.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('brands');

export const BRAND_IMPORT_WORKFLOW = 'compose-brand-profile';

export const brandRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(operation('POST /v1/brands', { body: BrandCreateRequest }, { 201: Brand }), async (c) => {
    const caller = callerOf(c);
    const body = c.req.valid('json');
    const access = await writerAccess(caller, body.workspaceId);
    const profile: Profile = BrandProfile.parse({ ...body.profile, name: body.profile.name ?? body.name });
    await checkLogo(caller, access.workspaceId, profile);
    const brand = await createBrand(c.get('services').db, {
      id: newUuid(),
      workspaceId: access.workspaceId,
      name: body.name,
      description: body.description ?? null,
      profile,
      etag: newEtag(),
    });
    sendEtag(c, brand.etag);
    return c.json(await brandRecord(caller, brand), 201);
  })
  .openapi(operation('GET /v1/brands', { query: ListBrandsQuery }, { 200: BrandList }), async (c) => {
    const caller = callerOf(c);
    const q = c.req.valid('query');
    const access = await workspaceAccess(caller, q.workspaceId);
    const page = await listBrands(c.get('services').db, {
      workspaceId: access.workspaceId,
      includeArchived: q.includeArchived ?? false,
      offset: q.offset,
      limit: q.limit,
    });
    return c.json({ items: await brandRecords(caller, page.items), total: page.total }, 200);
  })
  .openapi(operation('GET /v1/brands/{project_id}', { params: BrandIdParam }, { 200: Brand }), async (c) => {
    const caller = callerOf(c);
    const { brand } = await visibleBrand(caller, c.req.valid('param').project_id, false);
    sendEtag(c, brand.etag);
    return c.json(await brandRecord(caller, brand), 200);
  })
  .openapi(operation('PATCH /v1/brands/{project_id}', { params: BrandIdParam, body: BrandProfilePatch }, { 200: Brand }), async (c) => {
    const caller = callerOf(c);
    const { etag: bodyEtag, ...patch } = c.req.valid('json');
    const { brand, access } = await visibleBrand(caller, c.req.valid('param').project_id, true);
    const expected = optionalEtag(c, bodyEtag);
    const current = storedProfile(brand.profile);
    const next = BrandProfile.parse({
      ...current,
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.audience !== undefined ? { audience: patch.audience } : {}),
      ...(patch.guidelines !== undefined ? { guidelines: patch.guidelines } : {}),
      voice: { ...current.voice, ...(patch.voice ?? {}) },
      visual: { ...current.visual, ...(patch.visual ?? {}) },
    });
    await checkLogo(caller, access.workspaceId, next);
    const { db } = c.get('services');
    await writeWithEtag(
      c,
      () => writeBrandProfile(db, brand.id, next, newEtag(), expected),
      async () => brandRecord(caller, (await getBrand(db, brand.id))!),
    );
    return c.json(await brandRecord(caller, (await getBrand(db, brand.id))!), 200);
  })
  .openapi(
    operation('POST /v1/brands/{project_id}/import', { params: BrandIdParam, body: BrandImportRequest }, { 201: Run }),
    async (c) => {
      const caller = callerOf(c);
      const body = c.req.valid('json');
      const { brand } = await visibleBrand(caller, c.req.valid('param').project_id, true);
      const { db } = c.get('services');
      const principal = c.get('principal');
      const importActive = (runId: string | null, status: string | null) =>
        fail.code('import_active', { runId, status, message: 'an import of this brand is still running; wait for it to end' });
      await settleBrandImports(db, brand.id);
      const active = await activeBrandImport(db, brand.id);
      if (active) throw importActive(active.run_id, active.status);
      const intake: Record<string, unknown> = { name: storedProfile(brand.profile).name };
      if (body.url !== undefined) intake.url = body.url;
      if (body.notes !== undefined) intake.notes = body.notes;
      try {
        const run = await createRun(
          caller,
          { templateId: BRAND_IMPORT_WORKFLOW, workspaceId: brand.workspace_id, projectId: brand.id, intake },
          { alsoRecord: (tx, run) => recordBrandImport(tx, { runId: run.id, projectId: brand.id, createdBy: principal.userId }) },
        );
        return c.json(presentRun(run, []), 201);
      } catch (err) {
        // Two imports at once: the partial unique index lets one through; the other's run is rolled back.
        if (pgErrorCode(err) === PG.uniqueViolation && pgConstraint(err) === 'brand_imports_one_active') {
          const winner = await activeBrandImport(db, brand.id);
          throw importActive(winner?.run_id ?? null, winner?.status ?? null);
        }
        throw err;
      }
    },
  )
  .openapi(
    operation('POST /v1/brands/{project_id}/profile/confirm', { params: BrandIdParam, body: ProfileConfirmRequest }, { 200: Brand }),
    async (c) => {
      const caller = callerOf(c);
      const body = c.req.valid('json');
      const { brand, access } = await visibleBrand(caller, c.req.valid('param').project_id, true);
      const { db } = c.get('services');
      const imp = await getBrandImport(db, body.runId);
      if (!imp || imp.project_id !== brand.id) {
        throw fail.code('proposal_not_for_brand', { runId: body.runId, message: `run ${body.runId} is not an import of this brand` });
      }
      if (!isTerminalRunStatus(imp.status)) {
        throw fail.code('import_not_finished', {
          runId: imp.run_id,
          status: imp.status,
          message: `the import is still ${imp.status}; confirm it once it has completed`,
        });
      }
      const artifact = imp.status === 'completed' && imp.artifact_id ? await getArtifact(db, imp.artifact_id) : undefined;
      if (!artifact) {
        throw fail.code('import_failed', {
          runId: imp.run_id,
          status: imp.status,
          error: imp.error,
          message: `the import ended ${imp.status} without a proposal to confirm`,
        });
      }
      const parsed = BrandProfile.safeParse((artifact.content as { profile?: unknown }).profile);
      if (!parsed.success) {
        throw fail.code('proposal_invalid', {
          runId: imp.run_id,
          problems: parsed.error.issues.slice(0, 20).map((i) => `${i.path.join('.') || 'profile'}: ${i.message}`),
          message: 'the proposal does not fit the brand profile schema',
        });
      }
      const proposal = parsed.data;
      const current = storedProfile(brand.profile);
      const next: Profile = { ...current };
      for (const field of body.fields ?? PROFILE_FIELDS) {
        if (field === 'visual') {
          // A proposal names no logo; the brand's own logo stays unless the proposal names one.
          next.visual = { ...proposal.visual, logoArtifactId: proposal.visual.logoArtifactId ?? current.visual.logoArtifactId };
        } else {
          (next as Record<string, unknown>)[field] = proposal[field];
        }
      }
      await checkLogo(caller, access.workspaceId, next);
      await db.transaction().execute(async (tx) => {
        await lockBrandProfile(tx, brand.id);
        await writeBrandProfile(tx, brand.id, next, newEtag());
        await markBrandImportConfirmed(tx, imp.run_id);
      });
      const fresh = (await getBrand(db, brand.id))!;
      sendEtag(c, fresh.etag);
      return c.json(await brandRecord(caller, fresh), 200);
    },
  )
  .openapi(operation('POST /v1/brands/{project_id}/profile/publish', { params: BrandIdParam }, { 200: BrandSnapshot }), async (c) => {
    const caller = callerOf(c);
    const { brand } = await visibleBrand(caller, c.req.valid('param').project_id, true);
    const snapshot = await publishBrand(caller, brand);
    return c.json(presentSnapshot(snapshot, snapshot.id), 200);
  })
  .openapi(
    operation('GET /v1/brands/{project_id}/snapshots', { params: BrandIdParam, query: Pagination }, { 200: BrandSnapshotList }),
    async (c) => {
      const { brand } = await visibleBrand(callerOf(c), c.req.valid('param').project_id, false);
      const page = await listBrandSnapshots(c.get('services').db, brand.id, c.req.valid('query'));
      return c.json(
        presentPage(page, (s) => presentSnapshot(s, brand.current_snapshot_id)),
        200,
      );
    },
  );
