import { z } from '@hono/zod-openapi';
import { CalendarDay, Pagination, pathParam, QueryBoolean, listOf } from './common.js';

/** Campaigns under a brand, their managed request, and the operator surface. */
export const CAMPAIGN_STATUSES = ['draft', 'submitted', 'producing'] as const;
export const REQUEST_STATES = ['received', 'scoping', 'in_production', 'delivered', 'closed'] as const;

const text = (max: number) => z.string().trim().max(max);

export const CampaignBrief = z
  .object({
    objective: text(2000).min(1),
    deliverables: z.array(text(500).min(1)).max(50).default([]),
    deadline: CalendarDay.nullable().default(null),
    notes: text(10000).default(''),
  })
  .openapi('CampaignBrief');

export const CampaignCreateRequest = z
  .object({
    projectId: z.string().uuid().describe('The brand project'),
    name: text(200).min(1),
    brief: CampaignBrief,
  })
  .openapi('CampaignCreateRequest', {
    example: {
      projectId: '9b2e7d41-3c6a-4f58-8e19-6a0d2c7b5e83',
      name: 'Spring harvest launch',
      brief: {
        objective: 'Announce the spring harvest to newsletter subscribers',
        deliverables: ['3 social images', '1 research-backed blog post'],
        deadline: '2027-03-15',
        notes: '',
      },
    },
  });

export const CampaignPatchRequest = z
  .object({
    name: text(200).min(1).optional(),
    brief: z
      .object({
        objective: text(2000).min(1).optional(),
        deliverables: z.array(text(500).min(1)).max(50).optional(),
        deadline: CalendarDay.nullable().optional(),
        notes: text(10000).optional(),
      })
      .optional()
      .describe('Fields given replace those of the brief; others stay'),
    etag: z.string().max(100).optional().describe('Optional: the etag you read (or If-Match); a stale one is 409 etag_mismatch'),
  })
  .openapi('CampaignPatchRequest', { example: { brief: { deadline: '2027-03-22' }, etag: '"c1d9f4a2b7"' } });

export const Campaign = z
  .object({
    id: z.string().describe('campaign- followed by sixteen hex characters'),
    workspaceId: z.string().uuid(),
    projectId: z.string().uuid(),
    name: z.string(),
    brief: CampaignBrief,
    status: z.enum(CAMPAIGN_STATUSES),
    brandSnapshotId: z.string().describe('The brand snapshot pinned at creation; later publishes never move it'),
    requestState: z.enum(REQUEST_STATES).nullable().describe('The managed request; null while draft'),
    archived: z.boolean(),
    etag: z.string(),
    submittedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Campaign');

export const RequestNote = z
  .object({
    id: z.string().uuid(),
    note: z.string(),
    state: z.enum(REQUEST_STATES).nullable().describe('The state the request moved to with this note, if it moved'),
    createdAt: z.string(),
  })
  .openapi('ManagedRequestNote');

export const ManagedRequestStatus = z
  .object({
    campaignId: z.string(),
    campaignStatus: z.enum(CAMPAIGN_STATUSES),
    state: z.enum(REQUEST_STATES).nullable().describe('null while the campaign is a draft (not yet submitted)'),
    notes: z.array(RequestNote).describe('Operator notes addressed to the campaign, oldest first; internal notes never appear'),
    updatedAt: z.string(),
  })
  .openapi('ManagedRequestStatus');

export const ListCampaignsQuery = Pagination.extend({
  projectId: z
    .string()
    .uuid()
    .openapi({ param: { name: 'projectId', in: 'query', required: true } }),
  status: z.enum(CAMPAIGN_STATUSES).optional(),
  includeArchived: QueryBoolean,
});

export const CampaignIdParam = z.object({
  campaign_id: pathParam('campaign_id', z.string().max(64)),
});

// ----- operators ----------------------------------------------------------------------------------

export const OpsTask = z
  .object({
    id: z.string().uuid(),
    kind: z.literal('campaign_submitted'),
    status: z.enum(['open', 'done']),
    campaignId: z.string(),
    campaignName: z.string(),
    workspaceId: z.string().uuid(),
    projectId: z.string().uuid(),
    requestState: z.enum(REQUEST_STATES).nullable(),
    createdAt: z.string(),
  })
  .openapi('OpsTask');

export const OpsNotification = z
  .object({
    id: z.string().uuid(),
    kind: z.literal('campaign_submitted'),
    campaignId: z.string(),
    workspaceId: z.string().uuid(),
    message: z.string(),
    createdAt: z.string(),
  })
  .openapi('OpsNotification');

export const ListOpsTasksQuery = Pagination.extend({ status: z.enum(['open', 'done']).optional() });

export const OpsRequestUpdate = z
  .object({
    state: z.enum(REQUEST_STATES).optional(),
    note: text(5000).min(1).optional(),
    noteVisibility: z
      .enum(['internal', 'campaign'])
      .default('internal')
      .describe('campaign notes are shown to the customer; internal ones never are'),
  })
  .refine((b) => b.state !== undefined || b.note !== undefined, { message: 'give a state, a note, or both', path: ['state'] })
  .openapi('OpsRequestUpdate', { example: { state: 'scoping', note: 'We will send a shot list by Friday.', noteVisibility: 'campaign' } });

export const OpsRequestEntry = z
  .object({
    id: z.string().uuid(),
    fromState: z.enum(REQUEST_STATES).nullable(),
    toState: z.enum(REQUEST_STATES).nullable(),
    note: z.string().nullable(),
    visibility: z.enum(['internal', 'campaign']),
    actorId: z.string().uuid().nullable(),
    createdAt: z.string(),
  })
  .openapi('OpsRequestEntry');

export const OpsRequestView = z
  .object({
    campaign: Campaign,
    state: z.enum(REQUEST_STATES).nullable(),
    entries: z.array(OpsRequestEntry).describe('Every move and note, internal ones included, oldest first'),
  })
  .openapi('OpsRequestView');

export const CampaignList = listOf(Campaign, 'CampaignList');

export const OpsTaskList = listOf(OpsTask, 'OpsTaskList');

export const OpsNotificationList = listOf(OpsNotification, 'OpsNotificationList');
