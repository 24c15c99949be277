import { randomBytes } from 'node:crypto';
import { createRoute, type z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  enqueueWebhookMessage,
  getPublicationBySlug,
  insertPublicationDocument,
  listPublishedDocuments,
  listWebhookAttempts,
  moveDocumentWithMessage,
  webhookHealthOf,
} from '@atelier/db';
import { Pagination } from '@atelier/contracts/common';
import {
  DeliveryAttemptList,
  DocumentCreateRequest,
  DocumentIdParam,
  DocumentTransition,
  ListPublicationsQuery,
  PublicArticleList,
  Publication,
  PublicationCreateRequest,
  PublicationDocument,
  PublicationIdParam,
  PublicationList,
  PublicationSlugParam,
  PublicationUpdateRequest,
  PublicationWithSecret,
  VerifyResult,
} from '@atelier/contracts/publications';
import { attemptWebhook, newWebhookMessageId } from '@atelier/engine/webhooks/index';
import { errorResponses, fail } from '../errors.js';
import { json, jsonBody, secured, WHO_MAY_CALL } from '../http/route.js';
import { presentArticle, presentAttempt, presentDocument } from '../presenters/publication.js';
import { attemptDeps, conflictsAnswered, visibleDocument, publicationTarget } from '../publications/records.js';
import type { AppEnv } from '../services.js';
import { presentHealth, visibleTarget } from '../webhook-targets/signed-targets.js';
import { signedTargetRoutes, targetDeliveriesRoute } from './signed-target-routes.js';
import { callerOf } from '../http/caller.js';
import { presentPage } from '../presenters/page.js';

const newDocumentId = () => `doc-${randomBytes(8).toString('hex')}`;

/** The revalidation body of the contract: the publication's slug (not a URL), the document's slug, the action, its categories. */
const webhookBody = (publication: string, slug: string, action: string, categories: string[]) =>
  JSON.stringify({ publication, slug, action, categories });

const at = { tag: 'publications', path: '/v1/publications', idParam: 'publication_id', idParams: PublicationIdParam };

/** Create, list, read, change and rotate are those of every signed webhook target; the rest is the publication's own. */
export const publicationRoutes = signedTargetRoutes(publicationTarget, {
  ...at,
  idPrefix: 'pub',
  urlField: 'revalidateUrl',
  one: 'publication',
  many: 'Publications',
  schemas: {
    createRequest: PublicationCreateRequest,
    withSecret: PublicationWithSecret,
    listQuery: ListPublicationsQuery,
    list: PublicationList,
    record: Publication,
    updateRequest: PublicationUpdateRequest,
  },
  summaries: {
    create: 'Create a publication (owners and admins); the signing secret is in this response only',
    list: "A workspace's publications with their delivery health (never their secrets)",
    get: 'A publication with its delivery health',
    update: 'Change the name, revalidateUrl or sectionPath (owners and admins); the slug is a stable id and never changes',
    rotateSecret:
      'Replace the signing secret (owners and admins); the new one is in this response only and the old one stops signing at once',
  },
  createErrors: [401, 403, 404, 409, 422, 503],
  columns: (body: z.infer<typeof PublicationCreateRequest>) => ({
    slug: body.slug,
    name: body.name,
    revalidate_url: body.revalidateUrl,
    section_path: body.sectionPath,
  }),
  changes: (body: z.infer<typeof PublicationUpdateRequest>) => ({
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.revalidateUrl !== undefined ? { revalidate_url: body.revalidateUrl } : {}),
    ...(body.sectionPath !== undefined ? { section_path: body.sectionPath } : {}),
  }),
  answerConflicts: conflictsAnswered,
})
  .openapi(
    createRoute({
      ...secured('publications'),
      method: 'post',
      path: '/v1/publications/{publication_id}/verify',
      summary:
        'Send a signed no-op message (action verify) to the revalidateUrl now; 200 only when the consumer answered 2xx, otherwise 422 webhook_verify_failed saying what it answered. Recorded as an attempt and as delivery health',
      description:
        "Sends the publication's consumer a signed no-op message now and records the answer as delivery health; 200 means the consumer verified it. Owners and admins only (403 admin_required); any other answer from the consumer is 422 webhook_verify_failed.",
      request: { params: PublicationIdParam },
      responses: {
        200: { description: 'The consumer verified the message', ...json(VerifyResult) },
        ...errorResponses(401, 403, 404, 422, 503),
      },
    }),
    async (c) => {
      const caller = callerOf(c);
      const publication = await visibleTarget(caller, publicationTarget, c.req.valid('param').publication_id, true);
      const deps = attemptDeps(caller);
      const message = await enqueueWebhookMessage(
        deps.db,
        {
          id: newWebhookMessageId(),
          target_kind: 'publication',
          target_id: publication.id,
          workspace_id: publication.workspace_id,
          event_type: 'verify',
          body: webhookBody(publication.slug, '', 'verify', []),
        },
        false,
      );
      const result = await attemptWebhook(deps, { messageId: message.id, attempt: 1, lastAttempt: true });
      const health = presentHealth((await webhookHealthOf(deps.db, 'publication', [publication.id])).get(publication.id));
      if (result.outcome === 'delivered')
        return c.json({ verified: true as const, messageId: message.id, consumerStatus: result.statusCode!, deliveryHealth: health }, 200);
      throw fail.code('webhook_verify_failed', {
        messageId: message.id,
        consumerStatus: result.statusCode,
        message: result.error ?? 'the consumer did not verify the message',
        ...(result.redirectedTo ? { redirectedTo: result.redirectedTo } : {}),
        deliveryHealth: health,
      });
    },
  )
  .openapi(
    ...targetDeliveriesRoute(publicationTarget, at, {
      summary: 'Every delivery attempt to this publication (verify included), newest first',
      description: 'Attempts',
      query: Pagination,
      list: DeliveryAttemptList,
      page: (db, publication, query: z.infer<typeof Pagination>) => listWebhookAttempts(db, 'publication', publication.id, query),
      present: presentAttempt,
    }),
  )
  .openapi(
    createRoute({
      ...secured('publications'),
      method: 'post',
      path: '/v1/publications/{publication_id}/documents',
      summary: 'Add a draft document (owners and admins); publishing it sends the revalidation webhook',
      description:
        'Adds a draft document to a publication; nothing is sent until it is published. Owners and admins only (403 admin_required); a slug another document of the publication has is 409 document_slug_taken.',
      request: { params: PublicationIdParam, body: jsonBody(DocumentCreateRequest) },
      responses: { 201: { description: 'The document', ...json(PublicationDocument) }, ...errorResponses(401, 403, 404, 409, 422) },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const publication = await visibleTarget(callerOf(c), publicationTarget, c.req.valid('param').publication_id, true);
      const row = await conflictsAnswered(() =>
        insertPublicationDocument(c.get('services').db, {
          id: newDocumentId(),
          publication_id: publication.id,
          slug: body.slug,
          title: body.title,
          body: body.body,
          categories: JSON.stringify(body.categories),
          created_by: c.get('principal').userId,
        }),
      );
      return c.json(presentDocument(row), 201);
    },
  )
  .openapi(
    createRoute({
      ...secured('publications'),
      method: 'post',
      path: '/v1/documents/{document_id}/publish',
      summary: 'Publish (or publish again) a document; the signed revalidation webhook is delivered by the engine with retries',
      description: `Publishes a document (or publishes it again) and sends the signed revalidation webhook to the publication's revalidateUrl, delivered by the engine with retries. ${WHO_MAY_CALL.admin}`,
      request: { params: DocumentIdParam },
      responses: {
        200: { description: 'The document and the message announcing it', ...json(DocumentTransition) },
        ...errorResponses(401, 403, 404, 422),
      },
    }),
    async (c) => transition(c, c.req.valid('param').document_id, 'publish'),
  )
  .openapi(
    createRoute({
      ...secured('publications'),
      method: 'post',
      path: '/v1/documents/{document_id}/unpublish',
      summary:
        'Unpublish a published document (409 invalid_transition otherwise); the signed revalidation webhook is delivered by the engine',
      description:
        'Unpublishes a published document and sends the signed revalidation webhook. Owners and admins only (403 admin_required); a document that is not published is 409 invalid_transition.',
      request: { params: DocumentIdParam },
      responses: {
        200: { description: 'The document and the message announcing it', ...json(DocumentTransition) },
        ...errorResponses(401, 403, 404, 409, 422),
      },
    }),
    async (c) => transition(c, c.req.valid('param').document_id, 'unpublish'),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/v1/publications/public/{slug}/articles',
      tags: ['publications'],
      summary: "A publication's published documents, newest first (public, no credential)",
      description: 'Public, no credential: the published documents of a publication, newest first. An unknown slug is 404.',
      request: { params: PublicationSlugParam, query: Pagination },
      responses: { 200: { description: 'Articles', ...json(PublicArticleList) }, ...errorResponses(404, 422) },
    }),
    async (c) => {
      const { slug } = c.req.valid('param');
      const { db } = c.get('services');
      const publication = await getPublicationBySlug(db, slug);
      if (!publication) throw fail.notFound('publication', slug);
      const page = await listPublishedDocuments(db, publication.id, c.req.valid('query'));
      return c.json(presentPage(page, presentArticle), 200);
    },
  );

async function transition(c: Context<AppEnv>, documentId: string, action: 'publish' | 'unpublish') {
  const { document, publication } = await visibleDocument(callerOf(c), documentId, true);
  const moved = await moveDocumentWithMessage(
    c.get('services').db,
    document.id,
    action === 'publish' ? 'published' : 'unpublished',
    action === 'publish' ? null : ['published'],
    (doc) => ({
      id: newWebhookMessageId(),
      target_kind: 'publication',
      target_id: publication.id,
      workspace_id: publication.workspace_id,
      event_type: action,
      body: webhookBody(publication.slug, doc.slug, action, doc.categories),
    }),
  );
  if (!moved) throw fail.invalidTransition(`document ${document.id} is ${document.status}, not published`, { status: document.status });
  c.get('services').dispatcher?.wake();
  return c.json({ ...presentDocument(moved.document), messageId: moved.message.id }, 200 as const);
}
