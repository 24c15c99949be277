import type { Context } from 'hono';
import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import {
  type ManagedRequestState,
  isPlatformOperator,
  listCampaignRequestEntries,
  listOpsNotifications,
  listOpsTasks,
  moveCampaignRequest,
} from '@atelier/db';
import { Pagination, listOf } from '@atelier/contracts/common';
import {
  CampaignIdParam,
  ListOpsTasksQuery,
  OpsNotification,
  OpsRequestUpdate,
  OpsRequestView,
  OpsTask,
} from '@atelier/contracts/campaigns';
import { errorResponses, fail, validationHook } from '../errors.js';
import { json, jsonBody, secured } from '../http/route.js';
import type { AppEnv } from '../services.js';
import { presentCampaign } from '../presenters/campaign.js';

/**
 * Moves of the managed request an operator may make. closed is final. Going back is allowed where work
 * really goes back: re-scoping during production, rework after delivery.
 */
export const REQUEST_MOVES: Record<ManagedRequestState, readonly ManagedRequestState[]> = {
  received: ['scoping', 'in_production', 'closed'],
  scoping: ['in_production', 'closed'],
  in_production: ['delivered', 'scoping', 'closed'],
  delivered: ['closed', 'in_production'],
  closed: [],
};

/** Platform operators only (a role apart from workspace roles, granted with `atelier operators grant`). */
export async function requireOperator(c: Context<AppEnv>): Promise<void> {
  const principal = c.get('principal');
  const refuse = (message: string) => fail.code('operator_required', { message });
  if (principal.keyWorkspaceId) throw refuse('operator actions need a session or an unbound API key of a platform operator');
  if (!(await isPlatformOperator(c.get('services').db, principal.userId))) throw refuse('only platform operators can do this');
}

export const opsRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    createRoute({
      ...secured('ops'),
      method: 'get',
      path: '/v1/ops/tasks',
      summary: 'The operator queue: one task per submitted campaign, newest first (platform operators)',
      description:
        'The operator queue: one task per submitted campaign, newest first. Platform operators only: anyone else gets 403 operator_required.',
      request: { query: ListOpsTasksQuery },
      responses: { 200: { description: 'Tasks', ...json(listOf(OpsTask, 'OpsTaskList')) }, ...errorResponses(401, 403, 422) },
    }),
    async (c) => {
      await requireOperator(c);
      const page = await listOpsTasks(c.get('services').db, c.req.valid('query'));
      const items = page.items.map((t) => ({
        id: t.id,
        kind: t.kind,
        status: t.status,
        campaignId: t.campaign_id,
        campaignName: t.campaign_name,
        workspaceId: t.workspace_id,
        projectId: t.project_id,
        requestState: t.request_state as ManagedRequestState | null,
        createdAt: t.created_at.toISOString(),
      }));
      return c.json({ items, total: page.total }, 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('ops'),
      method: 'get',
      path: '/v1/ops/inbox',
      summary: 'Notifications for operators, newest first (platform operators)',
      description:
        'Notifications for operators, newest first, such as the one each campaign submission creates. Platform operators only: anyone else gets 403 operator_required.',
      request: { query: Pagination },
      responses: {
        200: { description: 'Notifications', ...json(listOf(OpsNotification, 'OpsNotificationList')) },
        ...errorResponses(401, 403, 422),
      },
    }),
    async (c) => {
      await requireOperator(c);
      const page = await listOpsNotifications(c.get('services').db, c.req.valid('query'));
      const items = page.items.map((n) => ({
        id: n.id,
        kind: n.kind,
        campaignId: n.campaign_id,
        workspaceId: n.workspace_id,
        message: n.message,
        createdAt: n.created_at.toISOString(),
      }));
      return c.json({ items, total: page.total }, 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('ops'),
      method: 'post',
      path: '/v1/ops/campaigns/{campaign_id}/request',
      summary: "Move a campaign's managed request and/or add a note (platform operators)",
      description:
        'Moves: received → scoping | in_production | closed; scoping → in_production | closed; in_production → delivered | scoping | closed; delivered → closed | in_production; closed is final. Reaching in_production makes the campaign producing. A note with noteVisibility campaign is shown to the customer; internal notes never are. Any other move is 409 invalid_transition naming the state.',
      request: { params: CampaignIdParam, body: jsonBody(OpsRequestUpdate) },
      responses: {
        200: { description: 'The request as operators see it', ...json(OpsRequestView) },
        ...errorResponses(401, 403, 404, 409, 422),
      },
    }),
    async (c) => {
      await requireOperator(c);
      const id = c.req.valid('param').campaign_id;
      const body = c.req.valid('json');
      const { db } = c.get('services');
      const result = await moveCampaignRequest(
        db,
        id,
        { to: body.state, note: body.note, visibility: body.noteVisibility, actorId: c.get('principal').userId },
        (from, to) => REQUEST_MOVES[from].includes(to),
      );
      if (!result) throw fail.notFound('campaign', id);
      if ('refused' in result) {
        const state = result.refused.request_state;
        throw fail.invalidTransition(
          state === null
            ? 'the campaign is a draft: it has no managed request until it is submitted'
            : `the request cannot move from ${state} to ${body.state}`,
          { state: state ?? result.refused.status, allowed: state === null ? [] : REQUEST_MOVES[state] },
        );
      }
      const entries = await listCampaignRequestEntries(db, id);
      return c.json(
        {
          campaign: presentCampaign(result.campaign),
          state: result.campaign.request_state,
          entries: entries.map((e) => ({
            id: e.id,
            fromState: e.from_state as ManagedRequestState | null,
            toState: e.to_state as ManagedRequestState | null,
            note: e.note,
            visibility: e.visibility,
            actorId: e.actor_id,
            createdAt: e.created_at.toISOString(),
          })),
        },
        200,
      );
    },
  );
