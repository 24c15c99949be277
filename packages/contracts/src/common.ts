import { z } from '@hono/zod-openapi';

/** Paging of every list endpoint: offset ≥ 0 (default 0), limit 1–100 (default 50). */
export const Pagination = z.object({
  offset: z.coerce.number().int().min(0).default(0).openapi({ param: { name: 'offset', in: 'query' }, example: 0 }),
  limit: z.coerce.number().int().min(1).max(100).default(50).openapi({ param: { name: 'limit', in: 'query' }, example: 50 }),
});

/** `true`/`false` in a query string (z.coerce.boolean would read "false" as true). */
export const QueryBoolean = z
  .enum(['true', 'false'])
  .transform((v) => v === 'true')
  .optional();

export const Uuid = z.string().uuid();

export function listOf<T extends z.ZodTypeAny>(item: T, name: string) {
  return z.object({ items: z.array(item), total: z.number().int() }).openapi(name);
}

export const ValidationIssue = z
  .object({
    type: z.string(),
    loc: z.array(z.union([z.string(), z.number()])),
    msg: z.string(),
    input: z.unknown(),
  })
  .openapi('ValidationIssue');

/** Every error body has a top-level `detail`: a string, an object or an array. */
export const ErrorBody = z
  .object({
    detail: z.union([z.string(), z.record(z.string(), z.unknown()), z.array(ValidationIssue)]),
  })
  .openapi('Error');

/** A calendar day, YYYY-MM-DD, that exists (no February 30th). */
export const CalendarDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a calendar day, YYYY-MM-DD')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), 'not a real calendar day');
