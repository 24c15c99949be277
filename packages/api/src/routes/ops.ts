import type { Context } from 'hono';
import { OpenAPIHono } from '@hono/zod-openapi';
import {
  type ManagedRequestState,
  isPlatformOperator,
  listCampaignRequestEntries,
  listOpsNotifications,
  listOpsTasks,
  moveCampaignRequest,
} from '@atelier/db';
import { Pagination } from '@atelier/contracts/common';
import {
  CampaignIdParam,
  ListOpsTasksQuery,
  OpsRequestUpdate,
  OpsRequestView,
  OpsTaskList,
  OpsNotificationList,
} from '@atelier/contracts/campaigns';
import { fail, validationHook } from '../errors.js';
import type { AppEnv } from '../services.js';
import { presentCampaign, presentOpsNotification, presentOpsTask } from '../presenters/campaign.js';
import { presentPage } from '../presenters/page.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('ops');

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
  .openapi(operation('GET /v1/ops/tasks', { query: ListOpsTasksQuery }, { 200: OpsTaskList }), async (c) => {
    await requireOperator(c);
    const page = await listOpsTasks(c.get('services').db, c.req.valid('query'));
    return c.json(presentPage(page, presentOpsTask), 200);
  })
  .openapi(operation('GET /v1/ops/inbox', { query: Pagination }, { 200: OpsNotificationList }), async (c) => {
    await requireOperator(c);
    const page = await listOpsNotifications(c.get('services').db, c.req.valid('query'));
    return c.json(presentPage(page, presentOpsNotification), 200);
  })
  .openapi(
    operation('POST /v1/ops/campaigns/{campaign_id}/request', { params: CampaignIdParam, body: OpsRequestUpdate }, { 200: OpsRequestView }),
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
