import { z } from '@hono/zod-openapi';
import { ValidationIssue } from './common';

/**
 * Every error body of the contract as its own schema, so that a generated client can tell a 402 budget
 * refusal from a 422 and narrow on `detail.code` (or `detail.error`, for the two 422 bodies the contract
 * keys that way). Each status lists the bodies it can carry; `CodedError` covers the other domain codes.
 */
const Message = z.string();

export const MessageError = z.object({ detail: Message }).openapi('MessageError');

export const CodedError = z
  .object({ detail: z.object({ code: z.string(), message: z.string().optional() }).catchall(z.unknown()) })
  .openapi('CodedError');

export const RequestValidationError = z.object({ detail: z.array(ValidationIssue) }).openapi('RequestValidationError');

export const BudgetRefusal = z
  .object({
    detail: z.object({
      code: z.literal('budget_exceeded'),
      reason: z.enum(['per_run_cap_exceeded', 'hard_stop', 'allow_overage_exceeded', 'allow_one_more_exhausted']),
      budgetId: z.string().nullable(),
      scope: z.string(),
      enforcementMode: z.string(),
      limitUsd: z.number(),
      spendUsd: z.number(),
      runEstimateUsd: z.number(),
      remainingUsd: z.number(),
    }).catchall(z.unknown()),
  })
  .openapi('BudgetRefusal');

export const IntakeInvalid = z
  .object({ detail: z.object({ error: z.literal('intake_invalid'), fields: z.array(z.string()) }).catchall(z.unknown()) })
  .openapi('IntakeInvalid');

export const WorkflowInvalid = z
  .object({ detail: z.object({ error: z.literal('workflow_invalid'), errors: z.array(z.string()) }).catchall(z.unknown()) })
  .openapi('WorkflowInvalid');

/** The other 422 bodies keyed by `error` (workflow_not_runnable, variations_invalid). */
export const KeyedInvalid = z
  .object({ detail: z.object({ error: z.string(), message: z.string().optional() }).catchall(z.unknown()) })
  .openapi('KeyedInvalid');

export const TemplateDeprecated = z
  .object({
    detail: z.object({ code: z.literal('template_deprecated'), templateId: z.string(), supersededBy: z.string().nullable(), message: z.string() }).catchall(z.unknown()),
  })
  .openapi('TemplateDeprecated');

export const EtagMismatch = z
  .object({ detail: z.object({ code: z.literal('etag_mismatch'), message: z.string(), current: z.record(z.string(), z.unknown()) }) })
  .openapi('EtagMismatch');

export const EtagRequired = z.object({ detail: z.object({ code: z.literal('etag_required'), message: z.string() }) }).openapi('EtagRequired');

export const CharacterNotUsable = z
  .object({ detail: z.object({ code: z.literal('character_not_usable'), reasons: z.array(z.string()), message: z.string() }).catchall(z.unknown()) })
  .openapi('CharacterNotUsable');

export const AdminRequired = z.object({ detail: z.object({ code: z.literal('admin_required'), message: z.string() }) }).openapi('AdminRequired');

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
  503: [MessageError],
};
