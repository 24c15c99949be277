import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from './connect.js';
import type { Executor } from './connect.js';
import type { DocumentStatus, PublicationDocumentsTable, PublicationsTable, WebhookMessagesTable } from './schema-publications.js';
import { signedWebhookTargetStore } from './signed-webhook-targets.js';
import { pageOf } from './paging.js';
import { type WebhookMessageRow, enqueueWebhookMessage } from './webhooks.js';

/** Publications (a consumer site's revalidation webhook configuration) and their documents. */
export type PublicationRow = Selectable<PublicationsTable>;
export type PublicationDocumentRow = Selectable<PublicationDocumentsTable>;

/** A publication is a signed webhook target (signed-webhook-targets.ts); its own are the slug and the documents. */
export const publicationTargets = signedWebhookTargetStore('publications', 'publication');

export async function getPublicationBySlug(db: Executor, slug: string): Promise<PublicationRow | undefined> {
  return db.selectFrom('publications').selectAll().where('slug', '=', slug).executeTakeFirst();
}

export async function insertPublicationDocument(db: Executor, row: Insertable<PublicationDocumentsTable>): Promise<PublicationDocumentRow> {
  return db.insertInto('publication_documents').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function getPublicationDocument(db: Executor, id: string): Promise<PublicationDocumentRow | undefined> {
  return db.selectFrom('publication_documents').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Published documents of a publication, newest first: what the public articles endpoint shows. */
export async function listPublishedDocuments(
  db: Executor,
  publicationId: string,
  page: { offset: number; limit: number },
): Promise<{ items: PublicationDocumentRow[]; total: number }> {
  const base = db.selectFrom('publication_documents').where('publication_id', '=', publicationId).where('status', '=', 'published');
  return pageOf(db, base, (qb) => qb.selectAll(), [['published_at', 'desc'], 'id'], page);
}

/**
 * Moves a document to published or unpublished and records the webhook message announcing it (with its
 * outbox command) in the same transaction: a committed publish always has its delivery, and a rolled-back
 * one never sends. `from` guards the move (null: any status); no row back means the guard failed.
 */
export async function moveDocumentWithMessage(
  db: Db,
  documentId: string,
  to: Exclude<DocumentStatus, 'draft'>,
  from: DocumentStatus[] | null,
  message: (doc: PublicationDocumentRow) => Insertable<WebhookMessagesTable>,
): Promise<{ document: PublicationDocumentRow; message: WebhookMessageRow } | undefined> {
  return db.transaction().execute(async (tx) => {
    let q = tx
      .updateTable('publication_documents')
      .set({ status: to, published_at: to === 'published' ? sql<Date>`clock_timestamp()` : null, updated_at: sql<Date>`clock_timestamp()` })
      .where('id', '=', documentId);
    if (from) q = q.where('status', 'in', from);
    const document = await q.returningAll().executeTakeFirst();
    if (!document) return undefined;
    return { document, message: await enqueueWebhookMessage(tx, message(document)) };
  });
}
