import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { clientsInTotals, createClientOnce, getClient, listClientEvents, listClients, updateClient } from '@atelier/db';
import { newUuid, requestFingerprint, slugFromName } from '@atelier/domain';
import { Pagination, listOf } from '@atelier/contracts/common';
import {
  Client,
  ClientCreateRequest,
  ClientEvent,
  ClientIdParam,
  ClientList,
  ClientUpdateRequest,
  ListClientsQuery,
} from '@atelier/contracts/clients';
import { WorkspaceIdParam } from '@atelier/contracts/workspaces';
import { workspaceAccess, writerAccess } from '../access.js';
import { billingColumns, clientConflict, visibleClient, clientRecord, clientRecords, clientTotals } from '../clients/client-records.js';
import { errorResponses, fail, validationHook } from '../errors.js';
import { newEtag, requiredEtag, sendEtag } from '../http/etag.js';
import { presentClientEvent } from '../presenters/client.js';
import type { AppEnv } from '../services.js';
import { json, jsonBody, secured, WHO_MAY_CALL, writeWithEtag } from '../http/route.js';
import { callerOf } from '../http/caller.js';
import { presentPage } from '../presenters/page.js';

const WithEtag = { description: 'The client; its etag is in the ETag header and the etag field', ...json(Client) };

async function conflictsAnswered<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    throw clientConflict(err) ?? err;
  }
}

export const clientRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    createRoute({
      ...secured('clients'),
      method: 'get',
      path: '/v1/workspaces/{workspace_id}/clients',
      summary: "Clients with this month's rollups, by name; totals leave out leads and past clients",
      description:
        "The clients of a workspace by name, with this month's rollups; leads and past clients stay out of totals, and archived ones appear only with includeArchived=true. Members read; billing and money fields are null for anyone but owners and admins.",
      request: { params: WorkspaceIdParam, query: ListClientsQuery },
      responses: { 200: { description: 'Clients', ...json(ClientList) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const caller = callerOf(c);
      const q = c.req.valid('query');
      const access = await workspaceAccess(caller, c.req.valid('param').workspace_id);
      const { db } = c.get('services');
      const filter = { workspaceId: access.workspaceId, status: q.status, includeArchived: q.includeArchived ?? false };
      const page = await listClients(db, { ...filter, offset: q.offset, limit: q.limit });
      const [items, totals] = await Promise.all([
        clientRecords(caller, page.items, access),
        clientTotals(caller, await clientsInTotals(db, filter), access),
      ]);
      return c.json({ items, total: page.total, totals }, 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('clients'),
      method: 'post',
      path: '/v1/workspaces/{workspace_id}/clients',
      summary: 'Create a client (owners and admins); a retry with the same requestId returns the first answer',
      description:
        'Creates a client (name, status, billing). Owners and admins only (403 admin_required); a retry with the same requestId returns the first answer, the same requestId with another body is 409 request_id_reused, and a slug a live client already has is 409 client_conflict.',
      request: { params: WorkspaceIdParam, body: jsonBody(ClientCreateRequest) },
      responses: { 201: WithEtag, ...errorResponses(401, 403, 404, 409, 422) },
    }),
    async (c) => {
      const caller = callerOf(c);
      const body = c.req.valid('json');
      const access = await writerAccess(caller, c.req.valid('param').workspace_id);
      const fingerprint = requestFingerprint(body);
      const { client, created } = await conflictsAnswered(() =>
        createClientOnce(
          c.get('services').db,
          {
            id: newUuid(),
            workspace_id: access.workspaceId,
            name: body.name,
            slug: body.slug ?? slugFromName(body.name),
            status: body.status,
            status_note: body.statusNote ?? null,
            ...billingColumns(body.billing ?? null, null),
            payment_customer_id: body.paymentCustomerId ?? null,
            notes: body.notes ?? null,
            request_id: body.requestId ?? null,
            request_fingerprint: body.requestId ? fingerprint : null,
            etag: newEtag(),
            created_by: c.get('principal').userId,
          } as never,
          c.get('principal').userId,
        ),
      );
      if (!created && client.request_fingerprint !== fingerprint) {
        throw fail.code('request_id_reused', {
          requestId: body.requestId,
          clientId: client.id,
          message: 'this requestId was used with a different body',
        });
      }
      sendEtag(c, client.etag);
      return c.json(await clientRecord(caller, client, access), 201);
    },
  )
  .openapi(
    createRoute({
      ...secured('clients'),
      method: 'get',
      path: '/v1/clients/{client_id}',
      summary: 'A client with its projects and rollup',
      description:
        'A client with its projects and rollup; the ETag header carries its etag. Members read; billing, cost to serve and expected fees are null for anyone but owners and admins.',
      request: { params: ClientIdParam },
      responses: { 200: WithEtag, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const caller = callerOf(c);
      const { client, access } = await visibleClient(caller, c.req.valid('param').client_id, false);
      sendEtag(c, client.etag);
      return c.json(await clientRecord(caller, client, access), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('clients'),
      method: 'patch',
      path: '/v1/clients/{client_id}',
      summary: 'Edit name, slug, status, statusNote, billing or notes; needs the etag (body or If-Match)',
      description:
        'Edits the name, slug, status, statusNote, billing or notes of a client and returns the new ETag. Owners and admins only (403 admin_required); the etag is required (428 etag_required), a stale one is 409 etag_mismatch with current, and a slug taken by a live client is 409 client_conflict.',
      request: { params: ClientIdParam, body: jsonBody(ClientUpdateRequest) },
      responses: { 200: WithEtag, ...errorResponses(401, 403, 404, 409, 422, 428) },
    }),
    async (c) => {
      const caller = callerOf(c);
      const body = c.req.valid('json');
      const { client, access } = await visibleClient(caller, c.req.valid('param').client_id, true);
      const expected = requiredEtag(c, body.etag);
      const { db } = c.get('services');
      const updated = await writeWithEtag(
        c,
        () =>
          conflictsAnswered(() =>
            updateClient(
              db,
              client.id,
              expected,
              {
                ...(body.name !== undefined ? { name: body.name } : {}),
                ...(body.slug !== undefined ? { slug: body.slug } : {}),
                ...(body.status !== undefined ? { status: body.status } : {}),
                ...(body.statusNote !== undefined ? { status_note: body.statusNote } : {}),
                ...(body.billing !== undefined ? billingColumns(body.billing, client) : {}),
                ...(body.paymentCustomerId !== undefined ? { payment_customer_id: body.paymentCustomerId } : {}),
                ...(body.notes !== undefined ? { notes: body.notes } : {}),
                etag: newEtag(),
              },
              c.get('principal').userId,
            ),
          ),
        async () => clientRecord(caller, (await getClient(db, client.id))!, access),
      );
      return c.json(await clientRecord(caller, updated, access), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('clients'),
      method: 'delete',
      path: '/v1/clients/{client_id}',
      summary: 'Archive a client: hidden from lists, its history kept (a client with history is never deleted)',
      description: `Archives a client: hidden from lists by default, its history kept; a client with history is never deleted. ${WHO_MAY_CALL.admin}`,
      request: { params: ClientIdParam },
      responses: { 200: WithEtag, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const caller = callerOf(c);
      const { client, access } = await visibleClient(caller, c.req.valid('param').client_id, true);
      const archived = client.archived_at
        ? client
        : (await updateClient(
            c.get('services').db,
            client.id,
            undefined,
            { archived_at: new Date(), etag: newEtag() },
            c.get('principal').userId,
          ))!;
      sendEtag(c, archived.etag);
      return c.json(await clientRecord(caller, archived, access), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('clients'),
      method: 'get',
      path: '/v1/clients/{client_id}/events',
      summary: 'Status history, newest first',
      description: `A client's status history, newest first. ${WHO_MAY_CALL.member}`,
      request: { params: ClientIdParam, query: Pagination },
      responses: { 200: { description: 'Events', ...json(listOf(ClientEvent, 'ClientEventList')) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const { client } = await visibleClient(callerOf(c), c.req.valid('param').client_id, false);
      const page = await listClientEvents(c.get('services').db, client.id, c.req.valid('query'));
      return c.json(presentPage(page, presentClientEvent), 200);
    },
  );
