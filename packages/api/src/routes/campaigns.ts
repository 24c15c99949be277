import { randomBytes } from 'node:crypto';
import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import {
  type CampaignRow,
  archiveCampaign,
  getBrand,
  getCampaign,
  insertCampaign,
  listCampaignRequestEntries,
  listCampaigns,
  submitCampaign,
  updateDraftCampaign,
} from '@atelier/db';
import { listOf } from '@atelier/contracts/common';
import {
  Campaign,
  CampaignCreateRequest,
  CampaignIdParam,
  CampaignPatchRequest,
  ListCampaignsQuery,
  ManagedRequestStatus,
} from '@atelier/contracts/campaigns';
import { type WorkspaceAccess, visibleRecord } from '../access.js';
import { visibleBrand } from '../brands/brand-records.js';
import { errorResponses, fail, validationHook } from '../errors.js';
import { newEtag, optionalEtag, sendEtag } from '../http/etag.js';
import { json, jsonBody, secured, WHO_MAY_CALL, writeWithEtag } from '../http/route.js';
import type { AppEnv } from '../services.js';
import { callerOf } from '../http/caller.js';
import type { Caller } from '../caller.js';
import { presentCampaign } from '../presenters/campaign.js';
import { presentPage } from '../presenters/page.js';

export const newCampaignId = (): string => `campaign-${randomBytes(8).toString('hex')}`;

type Brief = { objective: string; deliverables: string[]; deadline: string | null; notes: string };

const campaignNotFound = (id: string) => fail.notFound('campaign', id);

/** The campaign and the caller's access: 404 outside the caller's workspaces; members read, owners and admins write. */
export async function visibleCampaign(
  caller: Caller,
  id: string,
  write: boolean,
): Promise<{ campaign: CampaignRow; access: WorkspaceAccess }> {
  const { row: campaign, access } = await visibleRecord(caller, await getCampaign(caller.services.db, id), { noun: 'campaign', id }, write);
  return { campaign, access };
}

const notDraft = (campaign: CampaignRow) =>
  fail.code('campaign_not_draft', {
    state: campaign.status,
    campaignId: campaign.id,
    message: `the campaign is ${campaign.status}; its brief can be edited only while it is draft`,
  });

const WithEtag = { description: 'The campaign; its etag is in the ETag header and the etag field', ...json(Campaign) };

export const campaignRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    createRoute({
      ...secured('campaigns'),
      method: 'post',
      path: '/v1/campaigns',
      summary: "Create a draft campaign under a brand; it pins the brand's current published snapshot (owners and admins)",
      description: '422 brand_not_published when the brand has never published. Later publishes never move the pin.',
      request: { body: jsonBody(CampaignCreateRequest) },
      responses: { 201: WithEtag, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const { brand } = await visibleBrand(callerOf(c), body.projectId, true);
      if (!brand.current_snapshot_id) {
        throw fail.code('brand_not_published', {
          projectId: brand.id,
          message: 'the brand has never published its profile; publish it before creating campaigns',
        });
      }
      const campaign = await insertCampaign(c.get('services').db, {
        id: newCampaignId(),
        workspaceId: brand.workspace_id,
        projectId: brand.id,
        name: body.name,
        brief: body.brief,
        brandSnapshotId: brand.current_snapshot_id,
        etag: newEtag(),
        createdBy: c.get('principal').userId,
      });
      sendEtag(c, campaign.etag);
      return c.json(presentCampaign(campaign), 201);
    },
  )
  .openapi(
    createRoute({
      ...secured('campaigns'),
      method: 'get',
      path: '/v1/campaigns',
      summary: 'Campaigns of a brand, newest first; archived ones only with includeArchived=true',
      description: `The campaigns of a brand (projectId is required), newest first and paged, filtered by status; archived ones appear only with includeArchived=true. ${WHO_MAY_CALL.member}`,
      request: { query: ListCampaignsQuery },
      responses: { 200: { description: 'Campaigns', ...json(listOf(Campaign, 'CampaignList')) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const { brand } = await visibleBrand(callerOf(c), q.projectId, false);
      const page = await listCampaigns(c.get('services').db, {
        projectId: brand.id,
        status: q.status,
        includeArchived: q.includeArchived ?? false,
        offset: q.offset,
        limit: q.limit,
      });
      return c.json(presentPage(page, presentCampaign), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('campaigns'),
      method: 'get',
      path: '/v1/campaigns/{campaign_id}',
      summary: 'A campaign',
      description: `A campaign with its brief, status and pinned brand snapshot; the ETag header carries its etag. ${WHO_MAY_CALL.member}`,
      request: { params: CampaignIdParam },
      responses: { 200: WithEtag, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const { campaign } = await visibleCampaign(callerOf(c), c.req.valid('param').campaign_id, false);
      sendEtag(c, campaign.etag);
      return c.json(presentCampaign(campaign), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('campaigns'),
      method: 'patch',
      path: '/v1/campaigns/{campaign_id}',
      summary: 'Edit the name or brief while the campaign is draft (owners and admins); otherwise 409 campaign_not_draft naming the state',
      description:
        'Brief fields given replace those stored; others stay. An etag (body or If-Match) is optional; a stale one is 409 etag_mismatch.',
      request: { params: CampaignIdParam, body: jsonBody(CampaignPatchRequest) },
      responses: { 200: WithEtag, ...errorResponses(401, 403, 404, 409, 422) },
    }),
    async (c) => {
      const { etag: bodyEtag, ...patch } = c.req.valid('json');
      const { campaign } = await visibleCampaign(callerOf(c), c.req.valid('param').campaign_id, true);
      if (campaign.status !== 'draft') throw notDraft(campaign);
      const expected = optionalEtag(c, bodyEtag);
      const brief = patch.brief ? { ...(campaign.brief as Brief), ...patch.brief } : undefined;
      const { db } = c.get('services');
      const updated = await writeWithEtag(
        c,
        () => updateDraftCampaign(db, campaign.id, { name: patch.name, brief }, newEtag(), expected),
        async () => {
          // No row written: submitted meanwhile (409 naming the state), else a stale etag.
          const now = (await getCampaign(db, campaign.id))!;
          if (now.status !== 'draft') throw notDraft(now);
          return presentCampaign(now);
        },
      );
      return c.json(presentCampaign(updated), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('campaigns'),
      method: 'post',
      path: '/v1/campaigns/{campaign_id}/submit',
      summary: 'Submit a draft to the managed production queue (owners and admins); idempotent',
      description:
        'Moves draft to submitted, opens the managed request (received), creates one operator task and one inbox notification. Submitting again, even concurrently, returns the campaign unchanged and creates nothing.',
      request: { params: CampaignIdParam },
      responses: { 200: WithEtag, ...errorResponses(401, 403, 404, 409, 422) },
    }),
    async (c) => {
      const { campaign } = await visibleCampaign(callerOf(c), c.req.valid('param').campaign_id, true);
      if (campaign.archived && campaign.status === 'draft') {
        throw fail.invalidTransition('an archived campaign cannot be submitted', { state: campaign.status, archived: true });
      }
      const brand = await getBrand(c.get('services').db, campaign.project_id);
      const result = await submitCampaign(
        c.get('services').db,
        campaign.id,
        `Campaign "${campaign.name}" of brand "${brand?.name ?? campaign.project_id}" was submitted`,
      );
      if (!result) throw campaignNotFound(campaign.id);
      sendEtag(c, result.campaign.etag);
      return c.json(presentCampaign(result.campaign), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('campaigns'),
      method: 'get',
      path: '/v1/campaigns/{campaign_id}/request',
      summary: 'The managed request: its customer-facing state and the operator notes addressed to the campaign',
      description:
        'States: received, scoping, in_production, delivered, closed; null while the campaign is a draft. Internal operator notes never appear.',
      request: { params: CampaignIdParam },
      responses: { 200: { description: 'The managed request', ...json(ManagedRequestStatus) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const { campaign } = await visibleCampaign(callerOf(c), c.req.valid('param').campaign_id, false);
      const entries = await listCampaignRequestEntries(c.get('services').db, campaign.id, 'campaign');
      const notes = entries
        .filter((e) => e.note !== null)
        .map((e) => ({
          id: e.id,
          note: e.note!,
          state: e.to_state as CampaignRow['request_state'],
          createdAt: e.created_at.toISOString(),
        }));
      return c.json(
        {
          campaignId: campaign.id,
          campaignStatus: campaign.status,
          state: campaign.request_state,
          notes,
          updatedAt: campaign.updated_at.toISOString(),
        },
        200,
      );
    },
  )
  .openapi(
    createRoute({
      ...secured('campaigns'),
      method: 'post',
      path: '/v1/campaigns/{campaign_id}/archive',
      summary: 'Soft-archive a campaign (owners and admins): hidden from default lists, kept with its provenance; idempotent',
      description: `Soft-archives a campaign: hidden from default lists, kept with its provenance; archiving again returns it unchanged. ${WHO_MAY_CALL.admin}`,
      request: { params: CampaignIdParam },
      responses: { 200: WithEtag, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const { campaign } = await visibleCampaign(callerOf(c), c.req.valid('param').campaign_id, true);
      const archived = (await archiveCampaign(c.get('services').db, campaign.id))!;
      sendEtag(c, archived.etag);
      return c.json(presentCampaign(archived), 200);
    },
  );
