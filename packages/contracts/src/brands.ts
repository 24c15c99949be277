import { z } from '@hono/zod-openapi';
import { Pagination, QueryBoolean, Uuid, uuidParam, listOf } from './common.js';
import { Run } from './runs.js';

/**
 * Brands: projects of kind brand with a profile (the working copy), imports that propose a profile,
 * and immutable published snapshots. Every string and array is bounded.
 */
export const PROFILE_FIELDS = ['name', 'voice', 'visual', 'audience', 'guidelines'] as const;

const text = (max: number) => z.string().trim().max(max);
const HexColor = z
  .string()
  .trim()
  .max(9)
  .regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'a hex colour such as #1a2b3c');

export const BrandFont = z
  .object({
    family: text(100).min(1),
    url: z
      .string()
      .trim()
      .url()
      .max(2048)
      .regex(/^https?:\/\//i, 'an http or https URL')
      .optional()
      .describe('Where the font file is; the first family with a url is captured at publish'),
  })
  .openapi('BrandFont');

export const BrandVoice = z
  .object({ tone: text(500).default(''), keywords: z.array(text(60).min(1)).max(20).default([]) })
  .openapi('BrandVoice');

export const BrandVisual = z
  .object({
    colors: z.array(HexColor).max(12).default([]),
    fonts: z.array(BrandFont).max(8).default([]),
    logoArtifactId: z.string().trim().max(64).nullable().default(null).describe('An artifact of the same workspace'),
  })
  .openapi('BrandVisual');

/** The profile as stored and shown: every field present. */
export const BrandProfile = z
  .object({
    name: text(200).min(1),
    voice: BrandVoice,
    visual: BrandVisual,
    audience: text(2000).default(''),
    guidelines: text(10000).default(''),
  })
  .openapi('BrandProfile');

/** A profile as supplied on create: only name is needed (it defaults to the brand's name). */
export const BrandProfileInput = z
  .object({
    name: text(200).min(1).optional(),
    voice: BrandVoice.default({ tone: '', keywords: [] }),
    visual: BrandVisual.default({ colors: [], fonts: [], logoArtifactId: null }),
    audience: text(2000).default(''),
    guidelines: text(10000).default(''),
  })
  .openapi('BrandProfileInput');

export const BrandCreateRequest = z
  .object({
    workspaceId: z.string().uuid(),
    name: text(200).min(1),
    description: text(5000).nullish(),
    profile: BrandProfileInput.default({
      voice: { tone: '', keywords: [] },
      visual: { colors: [], fonts: [], logoArtifactId: null },
      audience: '',
      guidelines: '',
    }),
  })
  .openapi('BrandCreateRequest', {
    example: {
      workspaceId: '4f6c2a9e-8d1b-4c3e-9a57-2b8e1d6f0c34',
      name: 'Acme Honey',
      description: 'Raw honey from city rooftops',
      profile: {
        voice: { tone: 'warm and plain-spoken', keywords: ['local', 'raw', 'seasonal'] },
        visual: { colors: ['#F2A900', '#1B1B1B'], fonts: [], logoArtifactId: null },
        audience: 'City dwellers who shop at farmers markets',
        guidelines: 'Never call the honey organic.',
      },
    },
  });

/** Edits of the working copy: top-level fields replace; voice and visual merge one level deep. */
export const BrandProfilePatch = z
  .object({
    name: text(200).min(1).optional(),
    voice: z.object({ tone: text(500).optional(), keywords: z.array(text(60).min(1)).max(20).optional() }).optional(),
    visual: z
      .object({
        colors: z.array(HexColor).max(12).optional(),
        fonts: z.array(BrandFont).max(8).optional(),
        logoArtifactId: z.string().trim().max(64).nullable().optional(),
      })
      .optional(),
    audience: text(2000).optional(),
    guidelines: text(10000).optional(),
    etag: z.string().max(100).optional().describe('Optional: the etag you read (or If-Match); a stale one is 409 etag_mismatch'),
  })
  .openapi('BrandProfilePatch', {
    example: {
      voice: { tone: 'warm, plain-spoken and a little playful' },
      visual: { colors: ['#F2A900', '#1B1B1B', '#FFFFFF'] },
      etag: '"c1d9f4a2b7"',
    },
  });

export const FontCapture = z
  .object({
    family: z.string().nullable(),
    url: z.string().nullable().optional(),
    status: z.enum(['captured', 'failed', 'skipped']),
    storageKey: z.string().optional(),
    bytes: z.number().int().optional(),
    contentType: z.string().optional(),
    error: z.string().optional(),
  })
  .openapi('FontCapture');

export const BrandSnapshot = z
  .object({
    id: z.string().describe('The snapshot id, which is also its knowledge artifact id'),
    brandId: z.string().uuid(),
    artifactId: z.string(),
    contentHash: z.string(),
    profile: BrandProfile,
    fontCapture: FontCapture,
    current: z.boolean().describe("Whether the brand's current snapshot is this one"),
    createdAt: z.string(),
  })
  .openapi('BrandSnapshot');

export const Brand = z
  .object({
    id: z.string().uuid().describe('The brand project id'),
    workspaceId: z.string().uuid(),
    kind: z.literal('brand'),
    name: z.string(),
    description: z.string().nullable(),
    clientId: z.string().uuid().nullable(),
    archived: z.boolean(),
    profile: BrandProfile.describe('The working copy'),
    currentSnapshotId: z.string().nullable().describe('The published snapshot campaigns pin; null until the first publish'),
    activeImportRunId: z.string().nullable(),
    etag: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Brand');

export const BrandImportRequest = z
  .object({
    url: z.string().trim().url().max(2048).optional(),
    notes: text(10000).min(1).optional(),
  })
  .refine((b) => b.url !== undefined || b.notes !== undefined, { message: 'give url or notes', path: ['url'] })
  .openapi('BrandImportRequest', { example: { url: 'https://acmehoney.example', notes: 'Use the About page for the brand voice' } });

export const BrandImportRun = Run;

export const ProfileConfirmRequest = z
  .object({
    runId: z.string().max(64),
    fields: z
      .array(z.enum(PROFILE_FIELDS))
      .min(1)
      .max(PROFILE_FIELDS.length)
      .optional()
      .describe('Top-level fields to accept; all when absent'),
  })
  .openapi('ProfileConfirmRequest', { example: { runId: 'run-4a7c9e1b', fields: ['voice', 'visual'] } });

export const ListBrandsQuery = Pagination.extend({
  workspaceId: Uuid.openapi({ param: { name: 'workspaceId', in: 'query', required: true } }),
  includeArchived: QueryBoolean,
});

export const BrandIdParam = z.object({
  project_id: uuidParam('project_id'),
});

export const BrandList = listOf(Brand, 'BrandList');

export const BrandSnapshotList = listOf(BrandSnapshot, 'BrandSnapshotList');
