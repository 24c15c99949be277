import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
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
import { Pagination, listOf } from '@atelier/contracts/common';
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
} from '@atelier/contracts/brands';
import { Run } from '@atelier/contracts/runs';
import { workspaceAccess, writerAccess } from '../access.js';
import { visibleBrand, brandRecord, brandRecords, checkLogo } from '../brands/brand-records.js';
import { publishBrand } from '../brands/publish.js';
import { errorResponses, fail, validationHook } from '../errors.js';
import { newEtag, optionalEtag, sendEtag } from '../http/etag.js';
import { json, jsonBody, secured, WHO_MAY_CALL, writeWithEtag } from '../http/route.js';
import { type Profile, presentSnapshot, storedProfile } from '../presenters/brand.js';
import { presentRun } from '../presenters/run.js';
import { createRun } from '../runs/create-run.js';
import type { AppEnv } from '../services.js';
import { callerOf } from '../http/caller.js';
import { presentPage } from '../presenters/page.js';

export const BRAND_IMPORT_WORKFLOW = 'compose-brand-profile';

const WithEtag = { description: 'The brand; its etag is in the ETag header and the etag field', ...json(Brand) };

export const brandRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    createRoute({
      ...secured('brands'),
      method: 'post',
      path: '/v1/brands',
      summary: 'Create a brand: a project of kind brand and its profile, together (owners and admins)',
      description: `Creates a brand: a project of kind brand and its profile, together; the answer carries the etag in the ETag header and the etag field. ${WHO_MAY_CALL.admin}`,
      request: { body: jsonBody(BrandCreateRequest) },
      responses: { 201: WithEtag, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
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
    },
  )
  .openapi(
    createRoute({
      ...secured('brands'),
      method: 'get',
      path: '/v1/brands',
      summary: 'Brands of a workspace, newest first; archived ones only with includeArchived=true',
      description: `The brands of a workspace (workspaceId is required), newest first and paged; archived ones appear only with includeArchived=true. ${WHO_MAY_CALL.member}`,
      request: { query: ListBrandsQuery },
      responses: { 200: { description: 'Brands', ...json(listOf(Brand, 'BrandList')) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
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
    },
  )
  .openapi(
    createRoute({
      ...secured('brands'),
      method: 'get',
      path: '/v1/brands/{project_id}',
      summary: 'A brand with its working copy and current snapshot id',
      description: `A brand with its working copy and current snapshot id; the ETag header carries its etag. ${WHO_MAY_CALL.member}`,
      request: { params: BrandIdParam },
      responses: { 200: WithEtag, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const caller = callerOf(c);
      const { brand } = await visibleBrand(caller, c.req.valid('param').project_id, false);
      sendEtag(c, brand.etag);
      return c.json(await brandRecord(caller, brand), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('brands'),
      method: 'patch',
      path: '/v1/brands/{project_id}',
      summary: 'Edit the working copy (owners and admins); published snapshots never change',
      description:
        'Top-level fields replace; voice and visual merge one level deep. An etag (body or If-Match) is optional; a stale one is 409 etag_mismatch.',
      request: { params: BrandIdParam, body: jsonBody(BrandProfilePatch) },
      responses: { 200: WithEtag, ...errorResponses(401, 403, 404, 409, 422) },
    }),
    async (c) => {
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
    },
  )
  .openapi(
    createRoute({
      ...secured('brands'),
      method: 'post',
      path: '/v1/brands/{project_id}/import',
      summary: 'Start a brand import: a run of compose-brand-profile that proposes a profile (owners and admins)',
      description:
        'The run is created as POST /v1/runs creates runs (budgets apply) and produces a proposal only; the working copy is untouched until a person confirms it. 409 import_active while an earlier import of the brand has not ended.',
      request: { params: BrandIdParam, body: jsonBody(BrandImportRequest) },
      responses: { 201: { description: 'The import run, pending', ...json(Run) }, ...errorResponses(400, 401, 402, 403, 404, 409, 422) },
    }),
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
    createRoute({
      ...secured('brands'),
      method: 'post',
      path: '/v1/brands/{project_id}/profile/confirm',
      summary: "Accept a finished import's proposal into the working copy, whole or only the named top-level fields (owners and admins)",
      description:
        '422 proposal_not_for_brand when the run is not an import of this brand; 409 import_not_finished while it runs; 422 import_failed when it ended without a proposal; 422 proposal_invalid when the proposal does not fit the profile schema.',
      request: { params: BrandIdParam, body: jsonBody(ProfileConfirmRequest) },
      responses: { 200: WithEtag, ...errorResponses(401, 403, 404, 409, 422) },
    }),
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
  .openapi(
    createRoute({
      ...secured('brands'),
      method: 'post',
      path: '/v1/brands/{project_id}/profile/publish',
      summary: 'Snapshot the working copy as an immutable knowledge artifact and make it current (owners and admins)',
      description:
        'Idempotent by content hash: an unchanged profile returns the standing snapshot. The first font of visual.fonts with a url is captured once, through the egress policy; a font that cannot be fetched is recorded as failed and never blocks publishing.',
      request: { params: BrandIdParam },
      responses: { 200: { description: 'The current snapshot', ...json(BrandSnapshot) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const caller = callerOf(c);
      const { brand } = await visibleBrand(caller, c.req.valid('param').project_id, true);
      const snapshot = await publishBrand(caller, brand);
      return c.json(presentSnapshot(snapshot, snapshot.id), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('brands'),
      method: 'get',
      path: '/v1/brands/{project_id}/snapshots',
      summary: "The brand's published snapshots, newest first; every one stays readable",
      description: `The brand's published snapshots, newest first; every one stays readable, so campaigns pinned to an old one keep it. ${WHO_MAY_CALL.member}`,
      request: { params: BrandIdParam, query: Pagination },
      responses: {
        200: { description: 'Snapshots', ...json(listOf(BrandSnapshot, 'BrandSnapshotList')) },
        ...errorResponses(401, 403, 404, 422),
      },
    }),
    async (c) => {
      const { brand } = await visibleBrand(callerOf(c), c.req.valid('param').project_id, false);
      const page = await listBrandSnapshots(c.get('services').db, brand.id, c.req.valid('query'));
      return c.json(
        presentPage(page, (s) => presentSnapshot(s, brand.current_snapshot_id)),
        200,
      );
    },
  );
