import { z } from '@hono/zod-openapi';
import { HttpUrl, Label, LIMITS, listOf, Name, pathParam, Slug, WorkspaceListQuery } from './common.js';

/**
 * Publications: a consumer site's revalidation webhook configuration (revalidateUrl, sectionPath, a signing
 * secret shown once), its documents, their delivery attempts and the delivery health (docs/publications.md).
 */
const SectionPath = z
  .string()
  .min(1)
  .max(LIMITS.name)
  .regex(/^\/[A-Za-z0-9\-._~/%]*$/, "the consumer's route segment, starting with / (for example /blog)");
const GeneratedId = z.string().min(1).max(LIMITS.generatedId);

export const PublicationIdParam = z.object({
  publication_id: pathParam('publication_id', GeneratedId, 'pub-0123456789abcdef'),
});
export const DocumentIdParam = z.object({
  document_id: pathParam('document_id', GeneratedId, 'doc-0123456789abcdef'),
});
export const PublicationSlugParam = z.object({
  slug: pathParam('slug', z.string().min(1).max(LIMITS.slug), 'journal'),
});

export const ListPublicationsQuery = WorkspaceListQuery;

export const DeliveryHealth = z
  .object({
    status: z
      .enum(['healthy', 'failing', 'unknown'])
      .describe('healthy: the last attempt was answered 2xx; failing: it was not; unknown: nothing sent yet'),
    lastAttemptAt: z.string().nullable(),
    lastStatusCode: z.number().int().nullable().describe('null when the last attempt got no answer (network error, timeout, refused URL)'),
    consecutiveFailures: z.number().int(),
  })
  .openapi('DeliveryHealth');

export const Publication = z
  .object({
    id: z.string(),
    workspaceId: z.string().uuid(),
    slug: z.string().describe('Stable id sent as `publication` in every webhook body; never changes'),
    name: z.string(),
    revalidateUrl: z.string(),
    sectionPath: z.string(),
    secretRotatedAt: z.string(),
    deliveryHealth: DeliveryHealth,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Publication');

/** A signed target (a publication, a webhook endpoint) as created or rotated: with its secret, shown that once. */
export const withSigningSecret = <T extends z.ZodObject>(target: T, name: string, keepIt: string) =>
  target
    .extend({
      secret: z.string().describe(`whsec_ + base64 of 32 random bytes (Standard Webhooks). Shown only in this response; ${keepIt}`),
    })
    .openapi(name);

export const PublicationWithSecret = withSigningSecret(Publication, 'PublicationWithSecret', 'store it as REVALIDATE_SECRET_<SLUG>');

export const PublicationList = listOf(Publication, 'PublicationList');

export const PublicationCreateRequest = z
  .object({
    workspaceId: z.string().uuid(),
    slug: Slug,
    name: Name,
    revalidateUrl: HttpUrl.describe("The consumer's revalidation endpoint in its canonical form (a redirect is not followed)"),
    sectionPath: SectionPath,
  })
  .openapi('PublicationCreateRequest', {
    example: {
      workspaceId: '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34',
      slug: 'acme-journal',
      name: 'Acme Journal',
      revalidateUrl: 'https://acmehoney.example/api/revalidate',
      sectionPath: '/journal',
    },
  });

export const PublicationUpdateRequest = z
  .object({ name: Name.optional(), revalidateUrl: HttpUrl.optional(), sectionPath: SectionPath.optional() })
  .openapi('PublicationUpdateRequest', { example: { revalidateUrl: 'https://www.acmehoney.example/api/revalidate/' } });

export const DocumentCreateRequest = z
  .object({
    slug: Slug,
    title: Name,
    body: z.string().max(200_000),
    categories: z.array(Label).max(50).default([]),
  })
  .openapi('DocumentCreateRequest', {
    example: {
      slug: 'why-city-bees-thrive',
      title: 'Why city bees thrive',
      body: '# Why city bees thrive\n\nRooftop hives find more varied forage than many farms.',
      categories: ['beekeeping'],
    },
  });

export const PublicationDocument = z
  .object({
    id: z.string(),
    publicationId: z.string(),
    slug: z.string(),
    title: z.string(),
    body: z.string(),
    categories: z.array(z.string()),
    status: z.enum(['draft', 'published', 'unpublished']),
    publishedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('PublicationDocument');

export const DocumentTransition = PublicationDocument.extend({
  messageId: z.string().describe('webhook-id of the revalidation message this change sends (msg_…)'),
}).openapi('DocumentTransition');

export const PublicArticle = z
  .object({ slug: z.string(), title: z.string(), body: z.string(), categories: z.array(z.string()), publishedAt: z.string() })
  .openapi('PublicArticle');

export const PublicArticleList = listOf(PublicArticle, 'PublicArticleList');

export const DeliveryAttempt = z
  .object({
    id: z.string(),
    messageId: z.string().describe('The webhook-id; the same on every attempt of one message'),
    action: z.string().describe('publish, unpublish or verify'),
    attempt: z.number().int(),
    attemptedAt: z.string(),
    webhookTimestamp: z.number().int(),
    url: z.string(),
    statusCode: z.number().int().nullable(),
    outcome: z.enum(['delivered', 'retrying', 'failed']).describe('failed: final (no further attempt of this message)'),
    error: z.string().nullable(),
    redirectedTo: z.string().nullable(),
    durationMs: z.number().int(),
  })
  .openapi('DeliveryAttempt');

export const DeliveryAttemptList = listOf(DeliveryAttempt, 'DeliveryAttemptList');

export const VerifyResult = z
  .object({ verified: z.literal(true), messageId: z.string(), consumerStatus: z.number().int(), deliveryHealth: DeliveryHealth })
  .openapi('PublicationVerifyResult');
