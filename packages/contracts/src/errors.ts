import { z } from '@hono/zod-openapi';
import { ValidationIssue } from './common.js';

/**
 * Every domain error code the API answers with, and its one status. A code lives here or nowhere: a
 * handler names a code and the status follows, so two routes never answer the same refusal differently.
 */
export const ERROR_CODES = {
  template_deprecated: 400,
  invalid_provider_override: 400,
  character_batch_unsupported: 400,
  admin_required: 403,
  workspace_bound_key: 403,
  account_scope_required: 403,
  operator_required: 403,
  session_required: 403,
  approval_blocked: 409,
  campaign_not_draft: 409,
  character_archived: 409,
  client_conflict: 409,
  contact_exists: 409,
  document_slug_taken: 409,
  email_taken: 409,
  etag_mismatch: 409,
  gate_mismatch: 409,
  import_active: 409,
  import_not_finished: 409,
  invalid_transition: 409,
  last_owner: 409,
  member_exists: 409,
  project_has_characters: 409,
  publication_slug_taken: 409,
  request_id_reused: 409,
  subject_erased: 409,
  version_frozen: 409,
  workflow_id_taken: 409,
  workflow_published: 409,
  artifact_not_found: 422,
  bulk_limit_exceeded: 422,
  brand_not_published: 422,
  character_not_usable: 422,
  client_not_found: 422,
  hold_patch_invalid: 422,
  hold_value_invalid: 422,
  idempotency_key_reused: 422,
  import_failed: 422,
  input_refused: 422,
  invalid_successor: 422,
  proposal_invalid: 422,
  proposal_not_for_brand: 422,
  no_references: 422,
  subject_required: 422,
  subject_changed: 422,
  subject_not_found: 422,
  subject_not_allowed: 422,
  webhook_verify_failed: 422,
  etag_required: 428,
  login_throttled: 429,
} as const satisfies Record<string, 400 | 403 | 409 | 422 | 428 | 429>;

/**
 * Every error body of the contract as its own schema, so that a generated client can tell a 402 budget
 * refusal from a 422 and narrow on `detail.code` (or `detail.error`, for the two 422 bodies the contract
 * keys that way). Each status lists the bodies it can carry; `CodedError` covers the other domain codes.
 */
const Message = z.string();

export const MessageError = z.object({ detail: Message }).openapi('MessageError', { example: { detail: 'run run-3f9a1c2e not found' } });

const OTHER_CODES = Object.keys(ERROR_CODES).filter(
  (c) =>
    !['etag_mismatch', 'etag_required', 'character_not_usable', 'admin_required', 'template_deprecated', 'login_throttled'].includes(c),
) as [string, ...string[]];

/** Any other domain refusal; its code is one of the closed list, so narrowing on a specific code rules it out. */
export const CodedError = z
  .object({ detail: z.object({ code: z.enum(OTHER_CODES), message: z.string().optional() }).catchall(z.unknown()) })
  .openapi('CodedError', {
    example: { detail: { code: 'invalid_transition', message: 'an order that is completed cannot be cancelled', status: 'completed' } },
  });

export const RequestValidationError = z.object({ detail: z.array(ValidationIssue) }).openapi('RequestValidationError', {
  example: {
    detail: [{ type: 'missing', loc: ['body', 'templateId'], msg: 'Required', input: { workflowId: 'plan-research-report', intake: {} } }],
  },
});

export const BudgetRefusal = z
  .object({
    detail: z
      .object({
        code: z.literal('budget_exceeded'),
        reason: z.enum(['per_run_cap_exceeded', 'hard_stop', 'allow_overage_exceeded', 'allow_one_more_exhausted']),
        budgetId: z.string().nullable(),
        scope: z.string(),
        enforcementMode: z.string(),
        limitUsd: z.number(),
        spendUsd: z.number(),
        runEstimateUsd: z.number(),
        remainingUsd: z.number(),
      })
      .catchall(z.unknown()),
  })
  .openapi('BudgetRefusal');

export const IntakeInvalid = z
  .object({
    detail: z.object({
      error: z.literal('intake_invalid'),
      code: z.literal('intake_invalid'),
      fields: z.array(z.string()),
      variations: z.array(z.record(z.string(), z.unknown())).optional(),
    }),
  })
  .openapi('IntakeInvalid', {
    example: {
      detail: {
        error: 'intake_invalid',
        code: 'intake_invalid',
        fields: ['topic is required', 'depth must be one of brief, standard, deep'],
      },
    },
  });

export const WorkflowInvalid = z
  .object({ detail: z.object({ error: z.literal('workflow_invalid'), code: z.literal('workflow_invalid'), errors: z.array(z.string()) }) })
  .openapi('WorkflowInvalid');

/** The other 422 bodies keyed by `error` (workflow_not_runnable, variations_invalid). */
export const KeyedInvalid = z
  .object({
    detail: z.object({
      error: z.enum(['workflow_not_runnable', 'variations_invalid']),
      code: z.enum(['workflow_not_runnable', 'variations_invalid']),
      message: z.string(),
    }),
  })
  .openapi('KeyedInvalid');

export const TemplateDeprecated = z
  .object({
    detail: z
      .object({ code: z.literal('template_deprecated'), templateId: z.string(), supersededBy: z.string().nullable(), message: z.string() })
      .catchall(z.unknown()),
  })
  .openapi('TemplateDeprecated', {
    example: {
      detail: {
        code: 'template_deprecated',
        templateId: 'plan-research-brief',
        supersededBy: 'plan-research-report',
        message: 'plan-research-brief is deprecated; use plan-research-report',
      },
    },
  });

export const EtagMismatch = z
  .object({ detail: z.object({ code: z.literal('etag_mismatch'), message: z.string(), current: z.record(z.string(), z.unknown()) }) })
  .openapi('EtagMismatch', {
    example: {
      detail: {
        code: 'etag_mismatch',
        message: 'the client changed since you read it',
        current: { id: '1e8a6c3d-5b7f-4a92-b0d4-7c2f9e1a3b65', name: 'Acme Honey Co.', status: 'active', etag: '"d41d8cd98f"' },
      },
    },
  });

export const EtagRequired = z
  .object({ detail: z.object({ code: z.literal('etag_required'), message: z.string() }) })
  .openapi('EtagRequired');

export const CharacterNotUsable = z
  .object({
    detail: z.object({ code: z.literal('character_not_usable'), reasons: z.array(z.string()), message: z.string() }).catchall(z.unknown()),
  })
  .openapi('CharacterNotUsable');

export const AdminRequired = z
  .object({ detail: z.object({ code: z.literal('admin_required'), message: z.string() }) })
  .openapi('AdminRequired');

export const LoginThrottled = z
  .object({
    detail: z.object({
      code: z.literal('login_throttled'),
      message: z.string(),
      retryAfterSeconds: z.number().int().describe('The same number of seconds as the Retry-After header'),
    }),
  })
  .openapi('LoginThrottled');

/** The bodies each status can carry, most specific first. */
export const ERROR_BODIES: Record<number, readonly z.ZodTypeAny[]> = {
  400: [TemplateDeprecated, CodedError],
  401: [MessageError],
  402: [BudgetRefusal],
  403: [AdminRequired, CodedError, MessageError],
  404: [MessageError],
  409: [EtagMismatch, CodedError],
  413: [MessageError],
  415: [MessageError],
  422: [RequestValidationError, IntakeInvalid, WorkflowInvalid, KeyedInvalid, CharacterNotUsable, CodedError],
  428: [EtagRequired],
  429: [LoginThrottled],
  503: [MessageError],
};
