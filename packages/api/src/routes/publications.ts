import { randomBytes } from 'node:crypto';
import type { z } from '@hono/zod-openapi';
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
import { fail } from '../errors.js';
import { presentArticle, presentAttempt, presentDocument } from '../presenters/publication.js';
import { attemptDeps, conflictsAnswered, visibleDocument, publicationTarget } from '../publications/records.js';
import type { AppEnv } from '../services.js';
import { presentHealth, visibleTarget } from '../webhook-targets/signed-targets.js';
import { signedTargetRoutes, targetDeliveriesRoute } from './signed-target-routes.js';
import { callerOf } from '../http/caller.js';
import { presentPage } from '../presenters/page.js';
import { operationsOf } from '../http/operations.js';

const operation = operationsOf('publications');
const publicOperation = operationsOf('publications', 'public');

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
  schemas: {
    createRequest: PublicationCreateRequest,
    withSecret: PublicationWithSecret,
    listQuery: ListPublicationsQuery,
    list: PublicationList,
    record: Publication,
    updateRequest: PublicationUpdateRequest,
  },
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
  .openapi(operation('POST /v1/publications/{publication_id}/verify', { params: PublicationIdParam }, { 200: VerifyResult }), async (c) => {
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
  })
  .openapi(
    ...targetDeliveriesRoute(publicationTarget, at, {
      query: Pagination,
      list: DeliveryAttemptList,
      page: (db, publication, query: z.infer<typeof Pagination>) => listWebhookAttempts(db, 'publication', publication.id, query),
      present: presentAttempt,
    }),
  )
  .openapi(
    operation(
      'POST /v1/publications/{publication_id}/documents',
      { params: PublicationIdParam, body: DocumentCreateRequest },
      { 201: PublicationDocument },
    ),
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
  .openapi(operation('POST /v1/documents/{document_id}/publish', { params: DocumentIdParam }, { 200: DocumentTransition }), async (c) =>
    transition(c, c.req.valid('param').document_id, 'publish'),
  )
  .openapi(operation('POST /v1/documents/{document_id}/unpublish', { params: DocumentIdParam }, { 200: DocumentTransition }), async (c) =>
    transition(c, c.req.valid('param').document_id, 'unpublish'),
  )
  .openapi(
    publicOperation(
      'GET /v1/publications/public/{slug}/articles',
      { params: PublicationSlugParam, query: Pagination },
      { 200: PublicArticleList },
    ),
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
