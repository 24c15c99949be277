import { randomBytes } from 'node:crypto';
import { OpenAPIHono } from '@hono/zod-openapi';
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
import {
  Campaign,
  CampaignCreateRequest,
  CampaignIdParam,
  CampaignPatchRequest,
  ListCampaignsQuery,
  ManagedRequestStatus,
  CampaignList,
} from '@atelier/contracts/campaigns';
import { type WorkspaceAccess, visibleRecord } from '../access.js';
import { visibleBrand } from '../brands/brand-records.js';
import { fail, validationHook } from '../errors.js';
import { newEtag, optionalEtag, sendEtag } from '../http/etag.js';
import { writeWithEtag } from '../http/route.js';
import type { AppEnv } from '../services.js';
import { callerOf } from '../http/caller.js';
import type { Caller } from '../caller.js';
import { presentCampaign } from '../presenters/campaign.js';
import { presentPage } from '../presenters/page.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('campaigns');

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

export const campaignRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(operation('POST /v1/campaigns', { body: CampaignCreateRequest }, { 201: Campaign }), async (c) => {
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
  })
  .openapi(operation('GET /v1/campaigns', { query: ListCampaignsQuery }, { 200: CampaignList }), async (c) => {
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
  })
  .openapi(operation('GET /v1/campaigns/{campaign_id}', { params: CampaignIdParam }, { 200: Campaign }), async (c) => {
    const { campaign } = await visibleCampaign(callerOf(c), c.req.valid('param').campaign_id, false);
    sendEtag(c, campaign.etag);
    return c.json(presentCampaign(campaign), 200);
  })
  .openapi(
    operation('PATCH /v1/campaigns/{campaign_id}', { params: CampaignIdParam, body: CampaignPatchRequest }, { 200: Campaign }),
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
  .openapi(operation('POST /v1/campaigns/{campaign_id}/submit', { params: CampaignIdParam }, { 200: Campaign }), async (c) => {
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
  })
  .openapi(operation('GET /v1/campaigns/{campaign_id}/request', { params: CampaignIdParam }, { 200: ManagedRequestStatus }), async (c) => {
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
  })
  .openapi(operation('POST /v1/campaigns/{campaign_id}/archive', { params: CampaignIdParam }, { 200: Campaign }), async (c) => {
    const { campaign } = await visibleCampaign(callerOf(c), c.req.valid('param').campaign_id, true);
    const archived = (await archiveCampaign(c.get('services').db, campaign.id))!;
    sendEtag(c, archived.etag);
    return c.json(presentCampaign(archived), 200);
  });
