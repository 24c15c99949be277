import { OpenAPIHono } from '@hono/zod-openapi';
import { clientsInTotals, createClientOnce, getClient, listClientEvents, listClients, updateClient } from '@atelier/db';
import { newUuid, requestFingerprint, slugFromName } from '@atelier/domain';
import { Pagination } from '@atelier/contracts/common';
import {
  Client,
  ClientCreateRequest,
  ClientIdParam,
  ClientList,
  ClientUpdateRequest,
  ListClientsQuery,
  ClientEventList,
} from '@atelier/contracts/clients';
import { WorkspaceIdParam } from '@atelier/contracts/workspaces';
import { workspaceAccess, writerAccess } from '../access.js';
import {
  billingColumns,
  clientConflict,
  clientPage,
  visibleClient,
  clientRecord,
  clientRecords,
  clientTotals,
} from '../clients/client-records.js';
import { fail, validationHook } from '../errors.js';
import { newEtag, requiredEtag, sendEtag } from '../http/etag.js';
import { presentClientEvent } from '../presenters/client.js';
import type { AppEnv } from '../services.js';
import { writeWithEtag } from '../http/route.js';
import { callerOf } from '../http/caller.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('clients');

async function conflictsAnswered<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    throw clientConflict(err) ?? err;
  }
}

export const clientRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    operation('GET /v1/workspaces/{workspace_id}/clients', { params: WorkspaceIdParam, query: ListClientsQuery }, { 200: ClientList }),
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
    operation('POST /v1/workspaces/{workspace_id}/clients', { params: WorkspaceIdParam, body: ClientCreateRequest }, { 201: Client }),
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
  .openapi(operation('GET /v1/clients/{client_id}', { params: ClientIdParam }, { 200: Client }), async (c) => {
    const caller = callerOf(c);
    const { client, access } = await visibleClient(caller, c.req.valid('param').client_id, false);
    sendEtag(c, client.etag);
    return c.json(await clientRecord(caller, client, access), 200);
  })
  .openapi(operation('PATCH /v1/clients/{client_id}', { params: ClientIdParam, body: ClientUpdateRequest }, { 200: Client }), async (c) => {
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
  })
  .openapi(operation('DELETE /v1/clients/{client_id}', { params: ClientIdParam }, { 200: Client }), async (c) => {
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
  })
  .openapi(
    operation('GET /v1/clients/{client_id}/events', { params: ClientIdParam, query: Pagination }, { 200: ClientEventList }),
    async (c) =>
      c.json(
        await clientPage(callerOf(c), c.req.valid('param').client_id, c.req.valid('query'), listClientEvents, presentClientEvent),
        200,
      ),
  );
