import { type Insertable, type Selectable, type Updateable, sql } from 'kysely';
import type { Db } from './connect.js';
import type { Executor } from './connect.js';
import type { DocumentStatus, PublicationDocumentsTable, PublicationsTable, WebhookMessagesTable } from './schema-publications.js';
import { type WebhookMessageRow, enqueueWebhookMessage } from './webhooks.js';
import { pageOf } from './paging.js';

/** Publications (a consumer site's revalidation webhook configuration) and their documents. */
export type PublicationRow = Selectable<PublicationsTable>;
export type PublicationDocumentRow = Selectable<PublicationDocumentsTable>;

export async function insertPublication(db: Executor, row: Insertable<PublicationsTable>): Promise<PublicationRow> {
  return db.insertInto('publications').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function getPublication(db: Executor, id: string): Promise<PublicationRow | undefined> {
  return db.selectFrom('publications').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function getPublicationBySlug(db: Executor, slug: string): Promise<PublicationRow | undefined> {
  return db.selectFrom('publications').selectAll().where('slug', '=', slug).executeTakeFirst();
}

export async function listPublications(
  db: Executor,
  workspaceId: string,
  page: { offset: number; limit: number },
): Promise<{ items: PublicationRow[]; total: number }> {
  const base = db.selectFrom('publications').where('workspace_id', '=', workspaceId);
  return pageOf(base, (qb) => qb.selectAll(), ['created_at', 'id'], page);
}

export async function updatePublication(
  db: Executor,
  id: string,
  patch: Updateable<PublicationsTable>,
): Promise<PublicationRow | undefined> {
  return db
    .updateTable('publications')
    .set({ ...patch, updated_at: sql<Date>`clock_timestamp()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
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
  return pageOf(base, (qb) => qb.selectAll(), [['published_at', 'desc'], 'id'], page);
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
