import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { PG, createClientContact, deleteClientContact, listClientContacts, pgErrorCode, updateClientContact } from '@atelier/db';
import { newUuid } from '@atelier/domain';
import { Pagination, listOf } from '@atelier/contracts/common';
import { ClientIdParam, Contact, ContactCreateRequest, ContactParams, ContactUpdateRequest } from '@atelier/contracts/clients';
import { visibleClient } from '../clients/client-records.js';
import { errorResponses, fail, validationHook } from '../errors.js';
import { presentContact } from '../presenters/client.js';
import type { AppEnv } from '../services.js';
import { json, jsonBody, secured, WHO_MAY_CALL } from '../http/route.js';
import { callerOf } from '../http/caller.js';
import { presentPage } from '../presenters/page.js';

const contactExists = (err: unknown) =>
  pgErrorCode(err) === PG.uniqueViolation
    ? fail.code('contact_exists', { message: 'a contact with this email is already on the client' })
    : err;

/** A client's contacts: list, add, edit (including whether they approve work) and remove. */
export const clientContactRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(
    createRoute({
      ...secured('clients'),
      method: 'get',
      path: '/v1/clients/{client_id}/contacts',
      summary: "The client's contacts",
      description: `The contacts of a client, each with whether they approve work. ${WHO_MAY_CALL.member}`,
      request: { params: ClientIdParam, query: Pagination },
      responses: { 200: { description: 'Contacts', ...json(listOf(Contact, 'ClientContactList')) }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const { client } = await visibleClient(callerOf(c), c.req.valid('param').client_id, false);
      const page = await listClientContacts(c.get('services').db, client.id, c.req.valid('query'));
      return c.json(presentPage(page, presentContact), 200);
    },
  )
  .openapi(
    createRoute({
      ...secured('clients'),
      method: 'post',
      path: '/v1/clients/{client_id}/contacts',
      summary: 'Add a contact; the email is unique per client ignoring case',
      description:
        'Adds a contact to a client. Owners and admins only (403 admin_required); an email already on the client, ignoring case, is 409 contact_exists.',
      request: { params: ClientIdParam, body: jsonBody(ContactCreateRequest) },
      responses: { 201: { description: 'The contact', ...json(Contact) }, ...errorResponses(401, 403, 404, 409, 422) },
    }),
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
    createRoute({
      ...secured('clients'),
      method: 'patch',
      path: '/v1/clients/{client_id}/contacts/{contact_id}',
      summary: 'Edit a contact, including whether they approve work',
      description:
        'Edits a contact, including whether they approve work. Owners and admins only (403 admin_required); changing the email to one already on the client is 409 contact_exists.',
      request: { params: ContactParams, body: jsonBody(ContactUpdateRequest) },
      responses: { 200: { description: 'The contact', ...json(Contact) }, ...errorResponses(401, 403, 404, 409, 422) },
    }),
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
    createRoute({
      ...secured('clients'),
      method: 'delete',
      path: '/v1/clients/{client_id}/contacts/{contact_id}',
      summary: 'Remove a contact outright',
      description: `Removes a contact outright. ${WHO_MAY_CALL.admin}`,
      request: { params: ContactParams },
      responses: { 204: { description: 'Removed' }, ...errorResponses(401, 403, 404, 422) },
    }),
    async (c) => {
      const { contact_id } = c.req.valid('param');
      const { client } = await visibleClient(callerOf(c), c.req.valid('param').client_id, true);
      if (!(await deleteClientContact(c.get('services').db, client.id, contact_id))) throw fail.notFound('contact', contact_id);
      return c.body(null, 204);
    },
  );
