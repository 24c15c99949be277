import type { PublicationDocumentRow, PublicationRow, WebhookAttemptListRow } from '@atelier/db';
import { presentAttemptOf } from '../webhook-targets/signed-targets.js';
import { iso } from './time.js';

/** A publication's own fields in its signed-target record (the rest is presentTarget's, webhook-targets/signed-targets.ts). */
export const publicationFields = (p: PublicationRow) => ({
  slug: p.slug,
  name: p.name,
  revalidateUrl: p.revalidate_url,
  sectionPath: p.section_path,
});

export function presentDocument(d: PublicationDocumentRow) {
  return {
    id: d.id,
    publicationId: d.publication_id,
    slug: d.slug,
    title: d.title,
    body: d.body,
    categories: d.categories,
    status: d.status,
    publishedAt: iso(d.published_at),
    createdAt: iso(d.created_at),
    updatedAt: iso(d.updated_at),
  };
}

export function presentArticle(d: PublicationDocumentRow) {
  return { slug: d.slug, title: d.title, body: d.body, categories: d.categories, publishedAt: iso(d.published_at)! };
}

export function presentAttempt(a: WebhookAttemptListRow) {
  return {
    id: String(a.id),
    messageId: a.message_id,
    action: a.event_type,
    ...presentAttemptOf(a),
  };
}
