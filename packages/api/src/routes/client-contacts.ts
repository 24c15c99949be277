import { OpenAPIHono } from '@hono/zod-openapi';
import { PG, createClientContact, deleteClientContact, listClientContacts, pgErrorCode, updateClientContact } from '@atelier/db';
import { newUuid } from '@atelier/domain';
import { Pagination } from '@atelier/contracts/common';
import {
  ClientIdParam,
  Contact,
  ContactCreateRequest,
  ContactParams,
  ContactUpdateRequest,
  ClientContactList,
} from '@atelier/contracts/clients';
import { clientPage, visibleClient } from '../clients/client-records.js';
import { fail, validationHook } from '../errors.js';
import { presentContact } from '../presenters/client.js';
import type { AppEnv } from '../services.js';
import { callerOf } from '../http/caller.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('clients');

const contactExists = (err: unknown) =>
  pgErrorCode(err) === PG.uniqueViolation
    ? fail.code('contact_exists', { message: 'a contact with this email is already on the client' })
    : err;

/** A client's contacts: list, add, edit (including whether they approve work) and remove. */
export const clientContactRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    operation('GET /v1/clients/{client_id}/contacts', { params: ClientIdParam, query: Pagination }, { 200: ClientContactList }),
    async (c) =>
      c.json(await clientPage(callerOf(c), c.req.valid('param').client_id, c.req.valid('query'), listClientContacts, presentContact), 200),
  )
  .openapi(
    operation('POST /v1/clients/{client_id}/contacts', { params: ClientIdParam, body: ContactCreateRequest }, { 201: Contact }),
    async (c) => {
      const body = c.req.valid('json');
      const { client } = await visibleClient(callerOf(c), c.req.valid('param').client_id, true);
      const contact = await createClientContact(c.get('services').db, {
        id: newUuid(),
        client_id: client.id,
        workspace_id: client.workspace_id,
        name: body.name,
        email: body.email,
        role: body.role ?? null,
        approves_work: body.approvesWork,
      }).catch((err) => {
        throw contactExists(err);
      });
      return c.json(presentContact(contact), 201);
    },
  )
  .openapi(
    operation(
      'PATCH /v1/clients/{client_id}/contacts/{contact_id}',
      { params: ContactParams, body: ContactUpdateRequest },
      { 200: Contact },
    ),
    async (c) => {
      const body = c.req.valid('json');
      const { contact_id } = c.req.valid('param');
      const { client } = await visibleClient(callerOf(c), c.req.valid('param').client_id, true);
      const contact = await updateClientContact(c.get('services').db, client.id, contact_id, {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.email !== undefined ? { email: body.email } : {}),
        ...(body.role !== undefined ? { role: body.role } : {}),
        ...(body.approvesWork !== undefined ? { approves_work: body.approvesWork } : {}),
      }).catch((err) => {
        throw contactExists(err);
      });
      if (!contact) throw fail.notFound('contact', contact_id);
      return c.json(presentContact(contact), 200);
    },
  )
  .openapi(
    operation('DELETE /v1/clients/{client_id}/contacts/{contact_id}', { params: ContactParams }, { 204: { description: 'Removed' } }),
    async (c) => {
      const { contact_id } = c.req.valid('param');
      const { client } = await visibleClient(callerOf(c), c.req.valid('param').client_id, true);
      if (!(await deleteClientContact(c.get('services').db, client.id, contact_id))) throw fail.notFound('contact', contact_id);
      return c.body(null, 204);
    },
  );
