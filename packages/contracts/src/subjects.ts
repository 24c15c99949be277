import { z } from '@hono/zod-openapi';
import { CalendarDay, Email, Etag, Label, LIMITS, Name, Pagination, QueryBoolean, uuidParam, listOf } from './common.js';

/** Subjects (people a likeness depicts) and their likeness consents. */
const day = CalendarDay;

export const SubjectAttestations = z
  .object({
    adult: z.literal(true, { message: 'the subject must be attested an adult' }),
    notPolitical: z.literal(true, { message: 'the subject must be attested not a political figure' }),
  })
  .openapi('SubjectAttestations');

export const SubjectCreateRequest = z
  .object({
    displayName: Name,
    email: Email.optional(),
    publicRole: z.string().trim().max(LIMITS.name).optional(),
    unionStatus: z.string().trim().max(LIMITS.label).optional(),
    attestations: SubjectAttestations,
  })
  .openapi('SubjectCreateRequest', {
    example: {
      displayName: 'Maya Chen',
      email: 'maya.chen@talent.example',
      publicRole: 'Brand ambassador',
      attestations: { adult: true, notPolitical: true },
    },
  });

export const SubjectUpdateRequest = z
  .object({
    displayName: Name.optional(),
    email: Email.nullable().optional(),
    publicRole: z.string().trim().max(LIMITS.name).nullable().optional(),
    unionStatus: z.string().trim().max(LIMITS.label).nullable().optional(),
    etag: Etag.optional().describe('The etag you read; or send it as If-Match'),
  })
  .openapi('SubjectUpdateRequest', { example: { publicRole: 'Lead brand ambassador', etag: '"c1d9f4a2b7"' } });

export const CONSENT_GRANTORS = ['subject', 'guardian', 'agent', 'estate'] as const;
export const EVIDENCE_KINDS = ['signed_release', 'recorded_video', 'esign_envelope', 'other'] as const;

const scopeList = z.array(Label).max(LIMITS.scope);
export const ConsentScope = z
  .object({ uses: scopeList, media: scopeList, channels: scopeList, territories: scopeList })
  .describe('What the consent covers; `*` in a list covers every value')
  .openapi('ConsentScope');

export const ConsentCreateRequest = z
  .object({
    grantor: z.enum(CONSENT_GRANTORS),
    coversLikeness: z.boolean(),
    coversVoice: z.boolean(),
    scope: ConsentScope,
    startsOn: day,
    endsOn: day,
    evidenceKind: z.enum(EVIDENCE_KINDS),
    evidenceSha256: z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 digest: 64 lowercase hex characters'),
  })
  .openapi('ConsentCreateRequest', {
    example: {
      grantor: 'subject',
      coversLikeness: true,
      coversVoice: false,
      scope: { uses: ['advertising'], media: ['image', 'video'], channels: ['social'], territories: ['US', 'CA'] },
      startsOn: '2027-01-01',
      endsOn: '2028-12-31',
      evidenceKind: 'signed_release',
      evidenceSha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    },
  });

export const CONSENT_STATUS_VALUES = ['pending', 'active', 'suspended', 'revoked'] as const;

export const Consent = z
  .object({
    id: z.string().uuid(),
    workspaceId: z.string().uuid(),
    subjectId: z.string().uuid(),
    status: z.enum(CONSENT_STATUS_VALUES),
    grantor: z.enum(CONSENT_GRANTORS),
    coversLikeness: z.boolean(),
    coversVoice: z.boolean(),
    scope: ConsentScope,
    startsOn: z.string(),
    endsOn: z.string(),
    evidenceKind: z.enum(EVIDENCE_KINDS),
    evidenceSha256: z.string(),
    etag: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('LikenessConsent');

export const ConsentMoveRequest = z
  .object({
    etag: Etag.optional().describe('Checked when sent (or as If-Match); a revoke is never refused for a stale etag'),
    reason: z.string().trim().max(LIMITS.shortText).optional(),
  })
  .openapi('ConsentMoveRequest', { example: { etag: '"c1d9f4a2b7"', reason: 'Signed release received and filed' } });

export const ConsentEvent = z
  .object({
    id: z.number().int(),
    consentId: z.string().uuid(),
    fromStatus: z.enum(CONSENT_STATUS_VALUES).nullable(),
    toStatus: z.enum(CONSENT_STATUS_VALUES),
    actorId: z.string().uuid().nullable(),
    reason: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('LikenessConsentEvent');

/** The attestations as recorded (the request's SubjectAttestations only accepts true). */
export const SubjectAttestationsRecord = z.object({ adult: z.boolean(), notPolitical: z.boolean() }).openapi('SubjectAttestationsRecord');

export const Subject = z
  .object({
    id: z.string().uuid(),
    workspaceId: z.string().uuid(),
    displayName: z.string().nullable().describe('null once erased'),
    email: z.string().nullable(),
    publicRole: z.string().nullable(),
    unionStatus: z.string().nullable(),
    attestations: SubjectAttestationsRecord,
    erased: z.boolean(),
    erasedAt: z.string().nullable(),
    etag: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Subject');

export const SubjectWithConsents = Subject.extend({ consents: z.array(Consent) }).openapi('SubjectWithConsents');

export const ListSubjectsQuery = Pagination.extend({ includeErased: QueryBoolean });

export const SubjectIdParam = z.object({
  subject_id: uuidParam('subject_id'),
});
export const ConsentIdParam = z.object({
  consent_id: uuidParam('consent_id'),
});

export const SubjectList = listOf(Subject, 'SubjectList');

export const ConsentEventList = listOf(ConsentEvent, 'ConsentEventList');
