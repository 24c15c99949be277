import { z } from '@hono/zod-openapi';
import {
  CalendarDay,
  Email,
  Etag,
  LIMITS,
  Name,
  orNull,
  Pagination,
  QueryBoolean,
  RequestId,
  Slug,
  Text,
  uuidParam,
  listOf,
} from './common.js';

/** Clients, their billing, rollups, status history and contacts. Money fields are null for members. */
export const CLIENT_STATUSES = ['lead', 'active', 'paused', 'past'] as const;
export const BILLING_MODELS = ['retainer', 'project', 'hourly', 'usage'] as const;
export const BILLING_PERIODS = ['month', 'quarter', 'year', 'one_off'] as const;

const day = CalendarDay;

export const BillingInput = z
  .object({
    model: z.enum(BILLING_MODELS),
    amountCents: z.number().int().min(0).max(LIMITS.cents),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as USD')
      .default('USD'),
    period: z.enum(BILLING_PERIODS),
    scope: z.array(Name).max(LIMITS.scope).default([]),
    renewsOn: day.nullable().optional(),
  })
  .openapi('ClientBillingInput');

export const Billing = z
  .object({
    version: z.number().int().describe('Raised on every billing change'),
    model: z.enum(BILLING_MODELS),
    amountCents: z.number().int(),
    currency: z.string(),
    period: z.enum(BILLING_PERIODS),
    scope: z.array(z.string()),
    renewsOn: z.string().nullable(),
  })
  .openapi('ClientBilling');

export const Rollup = z
  .object({
    periodStart: z.string(),
    costUsd: z.number().nullable().describe('Owners and admins only'),
    waitingOnYou: z.number().int().describe('Runs of its projects waiting in review'),
    made: z.number().int().describe('Artifacts its projects produced this period'),
    expectedFeeCents: z.number().int().nullable().describe('Owners and admins only; null for hourly billing'),
  })
  .openapi('ClientRollup');

export const Client = z
  .object({
    id: z.string().uuid(),
    workspaceId: z.string().uuid(),
    name: z.string(),
    slug: z.string(),
    status: z.enum(CLIENT_STATUSES),
    statusNote: z.string().nullable(),
    billing: orNull(Billing).describe('Owners and admins only'),
    renewsOn: z.string().nullable(),
    paymentCustomerId: z.string().nullable().describe('Owners and admins only'),
    notes: z.string().nullable(),
    archived: z.boolean(),
    archivedAt: z.string().nullable(),
    etag: z.string(),
    projects: z.array(z.object({ id: z.string().uuid(), name: z.string(), archived: z.boolean() })),
    rollup: Rollup,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Client');

export const ClientList = z
  .object({
    items: z.array(Client),
    total: z.number().int(),
    totals: z
      .object({
        costUsd: z.number().nullable(),
        expectedFeeCents: z.number().int().nullable(),
        waitingOnYou: z.number().int(),
        made: z.number().int(),
      })
      .describe('Over the matching active and paused clients: leads and past clients stay out'),
  })
  .openapi('ClientList');

export const ClientCreateRequest = z
  .object({
    name: Name,
    slug: Slug.optional().describe('Derived from the name when absent'),
    status: z.enum(CLIENT_STATUSES).default('lead'),
    statusNote: z.string().trim().max(LIMITS.shortText).optional(),
    billing: BillingInput.optional(),
    paymentCustomerId: z.string().trim().min(1).max(LIMITS.id).optional(),
    notes: Text.optional(),
    requestId: RequestId.optional().describe('A retry with the same requestId and body returns the first answer'),
  })
  .openapi('ClientCreateRequest', {
    example: {
      name: 'Acme Honey Co.',
      slug: 'acme-honey',
      status: 'active',
      billing: { model: 'retainer', amountCents: 250000, currency: 'USD', period: 'month', scope: ['newsletter', 'social'] },
      requestId: 'create-acme-2026-11-26',
    },
  });

export const ClientUpdateRequest = z
  .object({
    name: Name.optional(),
    slug: Slug.optional(),
    status: z.enum(CLIENT_STATUSES).optional(),
    statusNote: z.string().trim().max(LIMITS.shortText).nullable().optional(),
    billing: BillingInput.nullable().optional(),
    paymentCustomerId: z.string().trim().min(1).max(LIMITS.id).nullable().optional(),
    notes: Text.nullable().optional(),
    etag: Etag.optional().describe('The etag you read; or send it as If-Match'),
  })
  .openapi('ClientUpdateRequest', { example: { status: 'paused', statusNote: 'Paused over the winter season', etag: '"c1d9f4a2b7"' } });

export const ClientEvent = z
  .object({
    id: z.number().int(),
    fromStatus: z.enum(CLIENT_STATUSES).nullable(),
    toStatus: z.enum(CLIENT_STATUSES),
    statusNote: z.string().nullable(),
    actorId: z.string().uuid().nullable(),
    createdAt: z.string(),
  })
  .openapi('ClientEvent');

export const Contact = z
  .object({ id: z.string().uuid(), name: z.string(), email: z.string(), role: z.string().nullable(), approvesWork: z.boolean() })
  .openapi('ClientContact');

export const ContactCreateRequest = z
  .object({
    name: Name,
    email: Email,
    role: z.string().trim().max(LIMITS.name).optional(),
    approvesWork: z.boolean().default(false).describe('Whether this person approves work'),
  })
  .openapi('ClientContactCreateRequest', {
    example: { name: 'Jordan Price', email: 'jordan@acmehoney.example', role: 'Marketing lead', approvesWork: true },
  });

export const ContactUpdateRequest = z
  .object({
    name: Name.optional(),
    email: Email.optional(),
    role: z.string().trim().max(LIMITS.name).nullable().optional(),
    approvesWork: z.boolean().optional(),
  })
  .openapi('ClientContactUpdateRequest', { example: { approvesWork: false } });

export const ListClientsQuery = Pagination.extend({ status: z.enum(CLIENT_STATUSES).optional(), includeArchived: QueryBoolean });

export const ClientIdParam = z.object({
  client_id: uuidParam('client_id'),
});
export const ContactParams = ClientIdParam.extend({
  contact_id: uuidParam('contact_id'),
});

export const ClientContactList = listOf(Contact, 'ClientContactList');

export const ClientEventList = listOf(ClientEvent, 'ClientEventList');
