import { PG, type PublicationDocumentRow, type PublicationRow, getPublicationDocument, pgErrorCode, publicationTargets } from '@atelier/db';
import type { WebhookAttemptDeps } from '@atelier/engine/webhooks/index';
import { visibleRecord } from '../access.js';
import { type ApiError, fail } from '../errors.js';
import { egressPolicyOf } from '../http/outbound-url.js';
import type { Caller } from '../caller.js';
import { publicationFields } from '../presenters/publication.js';
import { secretsKeyOf } from '../webhook-targets/signed-targets.js';

/** A publication is a signed webhook target (webhook-targets/signed-targets.ts): its store, and its own fields in its record. */
export const publicationTarget = {
  kind: 'publication' as const,
  noun: 'publication' as const,
  store: publicationTargets,
  fields: publicationFields,
};

/** A document the caller may read (write: change); 404 outside the caller's workspaces, 403 admin_required for members writing. */
export async function visibleDocument(
  caller: Caller,
  id: string,
  write: boolean,
): Promise<{ document: PublicationDocumentRow; publication: PublicationRow }> {
  const { db } = caller.services;
  const document = await getPublicationDocument(db, id);
  const publication = document ? await publicationTargets.get(db, document.publication_id) : undefined;
  // A document is seen through its publication's workspace: one without a publication is not found either.
  const { row } = await visibleRecord(caller, document && publication, { noun: 'document', id }, write);
  return { document: document!, publication: row };
}

/** What the gateway's synchronous verify needs to send one attempt. */
export function attemptDeps(caller: Caller): WebhookAttemptDeps {
  const services = caller.services;
  return { db: services.db, egress: egressPolicyOf(caller), secretsKey: secretsKeyOf(caller) };
}

/** Unique-slug refusals as the contract's 409s; anything else is not ours to answer. */
export function publicationConflict(err: unknown): ApiError | undefined {
  if (pgErrorCode(err) !== PG.uniqueViolation) return undefined;
  const constraint = (err as { constraint?: string }).constraint;
  if (constraint === 'publications_slug_key')
    return fail.code('publication_slug_taken', {
      field: 'slug',
      message: 'a publication already has this slug (slugs are global: they name the public articles path)',
    });
  if (constraint === 'publication_documents_publication_id_slug_key')
    return fail.code('document_slug_taken', { field: 'slug', message: 'a document of this publication already has this slug' });
  return undefined;
}

export async function conflictsAnswered<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    throw publicationConflict(err) ?? err;
  }
}
