import { z } from '@hono/zod-openapi';
import {
  CalendarDay,
  Etag,
  Id,
  Label,
  LIMITS,
  Name,
  orNull,
  Pagination,
  pathParam,
  QueryBoolean,
  RequestId,
  uuidParam,
  listOf,
} from './common.js';

/** `char-<hex>` (the contract's form); characters created before it keep their UUID ids. */
export const CharacterId = z
  .string()
  .max(LIMITS.generatedId)
  .regex(/^(char-[0-9a-f]{16}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/, 'a character id (char-…)');

/** Characters, their references, frozen versions, provider copies (bindings) and the gate's check. */
export const CHARACTER_FORMATS = ['synthetic', 'likeness'] as const;
export const REFERENCE_ROLES = ['portrait', 'turnaround', 'expression', 'outfit', 'pose', 'voice_sample', 'other'] as const;
export const PROVIDER_CONSENT_STATUSES = ['pending', 'accepted', 'refused', 'not_required'] as const;
export const CHECK_MEDIA = ['image', 'video', 'voice'] as const;

export const Persona = z
  .object({ summary: z.string().max(LIMITS.text).optional() })
  .catchall(z.unknown())
  .openapi('Persona');

export const CharacterCreateRequest = z
  .object({
    projectId: z.string().uuid(),
    name: Name,
    format: z.enum(CHARACTER_FORMATS),
    persona: Persona.optional(),
    requestId: RequestId.optional().describe('A retry with the same requestId and body returns the first answer'),
  })
  .openapi('CharacterCreateRequest', {
    example: {
      projectId: '9b2e7d41-3c6a-4f58-8e19-6a0d2c7b5e83',
      name: 'Bea the Beekeeper',
      format: 'synthetic',
      persona: { summary: 'A cheerful urban beekeeper who explains things simply' },
      requestId: 'create-bea-2026-11-26',
    },
  });

export const CharacterUpdateRequest = z
  .object({
    name: Name.optional(),
    persona: Persona.optional(),
    etag: Etag.optional().describe('The etag you read; or send it as If-Match'),
  })
  .openapi('CharacterUpdateRequest', {
    example: { persona: { summary: 'A cheerful urban beekeeper with a dry sense of humour' }, etag: '"c1d9f4a2b7"' },
  });

export const CharacterReference = z
  .object({ id: z.string().uuid(), role: z.enum(REFERENCE_ROLES), artifactId: z.string(), createdAt: z.string().optional() })
  .openapi('CharacterReference');

export const ReferenceCreateRequest = z
  .object({ role: z.enum(REFERENCE_ROLES), artifactId: Id, etag: Etag.optional() })
  .openapi('CharacterReferenceCreateRequest', { example: { role: 'portrait', artifactId: 'artifact-5c1e9a7d', etag: '"c1d9f4a2b7"' } });

export const CharacterBinding = z
  .object({
    id: z.string().uuid(),
    characterId: CharacterId,
    versionNumber: z.number().int(),
    provider: z.string(),
    assetKind: z.enum(['likeness', 'voice']),
    assetId: z.string(),
    photoBased: z.boolean(),
    providerConsentStatus: z.enum(PROVIDER_CONSENT_STATUSES),
    disabled: z.boolean(),
    etag: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('CharacterBinding');

export const BindingCreateRequest = z
  .object({
    provider: Label,
    assetKind: z.enum(['likeness', 'voice']),
    assetId: z.string().trim().min(1).max(LIMITS.opaque),
    photoBased: z
      .boolean()
      .default(false)
      .describe('A copy made from photos; only such a copy may have providerConsentStatus not_required'),
    providerConsentStatus: z.enum(PROVIDER_CONSENT_STATUSES),
  })
  .refine((b) => b.providerConsentStatus !== 'not_required' || b.photoBased, {
    message: 'not_required applies only to photo-based assets',
    path: ['providerConsentStatus'],
  })
  .openapi('CharacterBindingCreateRequest', {
    example: { provider: 'elevenlabs', assetKind: 'voice', assetId: 'voice_21m00Tcm4TlvDq8ikWAM', providerConsentStatus: 'accepted' },
  });

export const BindingUpdateRequest = z
  .object({
    providerConsentStatus: z.enum(PROVIDER_CONSENT_STATUSES).optional(),
    disabled: z.boolean().optional(),
    etag: Etag.optional(),
  })
  .openapi('CharacterBindingUpdateRequest', { example: { providerConsentStatus: 'refused', etag: '"c1d9f4a2b7"' } });

export const CharacterVersion = z
  .object({
    number: z.number().int(),
    characterId: CharacterId,
    format: z.enum(CHARACTER_FORMATS),
    name: z.string(),
    persona: Persona,
    references: z.array(CharacterReference),
    subjectId: z.string().uuid().nullable(),
    note: z.string().nullable(),
    status: z.enum(['active', 'retired']),
    retiredAt: z.string().nullable(),
    retiredReason: z.string().nullable(),
    createdAt: z.string(),
    bindings: z.array(CharacterBinding).describe('Provider copies of this version'),
  })
  .openapi('CharacterVersion');

export const VersionCreateRequest = z
  .object({
    subjectId: z
      .string()
      .uuid()
      .optional()
      .describe('The depicted person; required for the first likeness version, and the same person afterwards'),
    note: z.string().trim().max(LIMITS.shortText).optional(),
  })
  .openapi('CharacterVersionCreateRequest', { example: { note: 'First approved look' } });

export const CheckRequest = z
  .object({
    media: z.enum(CHECK_MEDIA),
    use: Label.optional(),
    channel: Label.optional(),
    territory: Label.optional(),
    advertiser: Name.optional(),
    provider: Label.optional(),
    date: CalendarDay.optional(),
    version: z.number().int().min(1).max(LIMITS.int32).optional(),
  })
  .openapi('CharacterCheckRequest', {
    example: { media: 'image', use: 'advertising', channel: 'social', territory: 'US', date: '2027-03-01' },
  });

export const CheckResult = z
  .object({ usable: z.boolean(), reasons: z.array(z.string()), checkedAt: z.string(), version: z.number().int().nullable() })
  .openapi('CharacterCheckResult');

export const Character = z
  .object({
    id: CharacterId,
    workspaceId: z.string().uuid(),
    projectId: z.string().uuid(),
    name: z.string(),
    format: z.enum(CHARACTER_FORMATS),
    persona: Persona,
    references: z.array(CharacterReference),
    latestVersion: orNull(CharacterVersion),
    usableToday: z
      .object({ usable: z.boolean(), reasons: z.array(z.string()), version: z.number().int().nullable() })
      .describe('The gate for an image use today, naming no provider'),
    archived: z.boolean(),
    archivedAt: z.string().nullable(),
    etag: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Character');

export const ListCharactersQuery = Pagination.extend({
  workspaceId: z.string().uuid().optional(),
  projectId: z.string().uuid().optional(),
  includeArchived: QueryBoolean,
});

export const CharacterIdParam = z.object({ character_id: pathParam('character_id', CharacterId) });
export const ReferenceParams = CharacterIdParam.extend({ item_id: uuidParam('item_id') });
export const VersionParams = CharacterIdParam.extend({
  number: pathParam('number', z.coerce.number().int().min(1).max(LIMITS.int32)),
});
export const BindingIdParam = z.object({ binding_id: uuidParam('binding_id') });

export const CharacterVersionList = listOf(CharacterVersion, 'CharacterVersionList');

export const CharacterList = listOf(Character, 'CharacterList');
