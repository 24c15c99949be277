import { z } from '@hono/zod-openapi';

/**
 * Bounds of every request input (body fields, query and path parameters), so that absurd input is a
 * 422 at the edge and the bounds show in /openapi.json (docs/architecture.md, "Input limits"). Response
 * schemas carry none: they echo stored data. Free-form JSON objects (persona, patch) are bounded by the
 * 2 MiB body cap and the nesting depth instead; intakes also by their own size bounds, and workflow
 * definitions by their counts of steps, gates and intake fields.
 */
export const LIMITS = {
  /** Names and titles: people, workspaces, projects, keys, characters, clients. */
  name: 200,
  /** Short labels: providers, channels, territories, union status, consent scope entries. */
  label: 100,
  /** Slugs; a derived slug is cut to the same length (domain/client-billing). */
  slug: 80,
  /** RFC 5321: 64 + 1 + 255, rounded up as is customary. */
  email: 320,
  /** Passwords (a new one needs at least 12 characters). */
  password: 1024,
  /** Opaque strings another system issued: refresh tokens, provider asset ids. */
  opaque: 512,
  /** Ids, request ids, versions and etags in a body, a query or a path. */
  id: 200,
  /** Ids the platform generates (`run-…`, `order-…`, `char-…`). */
  generatedId: 64,
  url: 2048,
  /** One-paragraph text: status notes, reasons, version notes. */
  shortText: 2_000,
  /** Free text: notes, descriptions, decision notes, a persona summary. */
  text: 10_000,
  /** Items of an array in a body when nothing more specific applies. */
  items: 1_000,
  /** Entries of a scope list (consent scopes, billing scope). */
  scope: 100,
  /** Decisions in one queue batch. */
  batch: 100,
  /** Variations of one order, before and after resolving (domain MAX_VARIATIONS); also its targetCount. */
  variations: 10_000,
  /** Characters of an order's CSV variation text. */
  csv: 2_000_000,
  /** Runtime steps of one workflow definition (the built-ins have at most 4). */
  steps: 100,
  /** Gates of one workflow definition. */
  gates: 50,
  /** Intake fields of one workflow definition. */
  intakeFields: 100,
  /** Characters of one string (a key or a value, at any depth) in an intake; 422 intake_invalid beyond. */
  intakeString: 65_536,
  /** UTF-8 bytes of one intake as JSON (an order child's: intakeBase with its variation); 422 intake_invalid beyond. */
  intakeBytes: 262_144,
  /** UTF-8 bytes of all of an order's child intakes together (intakeBase is copied into each); 422 variations_invalid beyond. */
  orderIntakeBytes: 32 * 1024 * 1024,
  /** PostgreSQL `integer` (and what OFFSET/LIMIT take here). */
  int32: 2_147_483_647,
  /** USD amounts (numeric(14, 6) columns hold below 1e8). */
  usd: 1_000_000,
  /** Billing cents (a bigint column; below Number.MAX_SAFE_INTEGER). */
  cents: 1e12,
} as const;

/** A name or title: trimmed, 1–200 characters. */
export const Name = z.string().trim().min(1).max(LIMITS.name);
/** A short label: trimmed, 1–100 characters. */
export const Label = z.string().trim().min(1).max(LIMITS.label);
/** An email address, trimmed, at most 320 characters. */
export const Email = z.string().trim().email().max(LIMITS.email);
/** An id (or version) named in a body, query or path: 1–200 characters. */
export const Id = z.string().min(1).max(LIMITS.id);
/** A point in time in a query (createdAfter, createdBefore): ISO 8601 with an offset, so it means one instant. */
export const Instant = z
  .string()
  .datetime({ offset: true })
  .max(LIMITS.label)
  // ISO's year 0000 passes the format, but PostgreSQL's timestamptz has no year 0 and would refuse it in the query.
  .refine((s) => !s.startsWith('0000'), 'year 0000 is out of range: the first year is 0001');
/** A caller's idempotency key: trimmed, 1–200 characters. */
export const RequestId = z.string().trim().min(1).max(LIMITS.id);
/** An etag sent back in a body (the `If-Match` header is the other way). */
export const Etag = z.string().max(LIMITS.id);
/** An absolute URL, at most 2048 characters. */
export const Url = z.string().url().max(LIMITS.url);
/** A URL this gateway sends requests to (webhook targets): http or https only. */
export const HttpUrl = Url.refine((u) => /^https?:\/\//i.test(u), 'an http or https URL');
/** A slug (clients, publications, documents): lowercase words joined by hyphens; the database checks the same pattern. */
export const Slug = z
  .string()
  .trim()
  .min(1)
  .max(LIMITS.slug)
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'lowercase letters and digits joined by single hyphens');
/** Free text: at most 10,000 characters. */
export const Text = z.string().max(LIMITS.text);
/** An integer a PostgreSQL `integer` column holds, from `min`. */
export const Int32 = (min = 0) => z.number().int().min(min).max(LIMITS.int32);
/** A USD amount: finite, 0 – 1,000,000. */
export const Usd = z.number().finite().nonnegative().max(LIMITS.usd, 'must be at most 1,000,000 USD');
/** A string-to-string map (role → model id): keys and values bounded like ids. */
export const IdMap = z.record(z.string().max(LIMITS.id), z.string().max(LIMITS.id));

/** How many models one role binding may list: the primary and up to four fallbacks. */
export const MAX_BINDING_MODELS = 5;

/**
 * A role's binding: one model-registry id, or an ordered list of them (the first is the primary, the rest
 * fallbacks tried in order). A plain string means what it always meant.
 */
export const ModelBinding = z
  .union([z.string().max(LIMITS.id), z.array(z.string().max(LIMITS.id)).min(1).max(MAX_BINDING_MODELS)])
  .describe(
    `A model-registry id, or an ordered list of 1 to ${MAX_BINDING_MODELS} ids: the first is the primary model, the rest are fallbacks. ` +
      'A step moves to the next model only when its provider is unavailable (down, 5xx or timeouts after retries, 503, ' +
      '404 model not found, or 429 throttling that outlasts a bounded wait); a refused request (400, content policy) fails as it would without fallbacks. ' +
      'Every id is validated like a single binding (registered, of the kind the role needs). Estimates price the primary; ' +
      "a fallback whose estimated cost would take the run past its per-run cap fails the step with budget_gate_exceeded. The step's provider and model are those that ran, " +
      'and its fallbacks list the models skipped and why',
  )
  .openapi('ModelBinding');

/** Role → model binding (a model id, or an ordered list with fallbacks). */
export const BindingMap = z.record(z.string().max(LIMITS.id), ModelBinding);

/**
 * An intake a caller sends (a run's, an order's intakeBase and variations). Its size is checked by the
 * domain (intake-limits.ts) so the refusal is the contract's intake_invalid naming the field; the bounds
 * are stated here because JSON Schema has no keyword for them on free-form values.
 */
export const Intake = z
  .record(z.string(), z.unknown())
  .describe(
    `Each string in it (a key or a value, at any depth) at most ${LIMITS.intakeString.toLocaleString('en-US')} characters, the whole at most ${LIMITS.intakeBytes.toLocaleString('en-US')} bytes as JSON; beyond, 422 intake_invalid`,
  );

/** Paging of every list endpoint: offset 0 – 2147483647 (default 0), limit 1–100 (default 50). */
export const Pagination = z.object({
  offset: z.coerce
    .number()
    .int()
    .min(0)
    .max(LIMITS.int32)
    .default(0)
    .openapi({ param: { name: 'offset', in: 'query' }, example: 0 }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(50)
    .openapi({ param: { name: 'limit', in: 'query' }, example: 50 }),
});

/** `true`/`false` in a query string (z.coerce.boolean would read "false" as true). */
export const QueryBoolean = z
  .enum(['true', 'false'])
  .transform((v) => v === 'true')
  .optional();

export const Uuid = z.string().uuid();

/** `schema` as the path parameter `name`, with an example where the id's form is worth showing. */
export const pathParam = <T extends z.ZodTypeAny>(name: string, schema: T, example?: string) =>
  schema.openapi({ param: { name, in: 'path' }, ...(example === undefined ? {} : { example }) });

/** A UUID as the path parameter `name`. */
export const uuidParam = (name: string) => pathParam(name, Uuid);

/** An id the service generated (`run-…`, `order-…`) as the path parameter `name`. */
export const generatedIdParam = (name: string, example: string) => pathParam(name, z.string().max(LIMITS.generatedId), example);

/** The `workspaceId` a list is of: the caller's default workspace when absent. */
const WorkspaceIdQuery = Uuid.optional().openapi({ param: { name: 'workspaceId', in: 'query' } });

/** A list of one workspace's records, paged. */
export const WorkspaceListQuery = Pagination.extend({ workspaceId: WorkspaceIdQuery });

/**
 * A named schema or null. `X.nullable()` on a schema registered with `.openapi('X')` makes the generator widen the
 * component X itself to `type: [object, null]` (wrong wherever X is never null, and an inline object inside a union
 * that openapi-python-client cannot name); `anyOf: [{ $ref: X }, { type: 'null' }]` says the same thing about the
 * value and keeps X an object. Same parsing, same TypeScript type (`X | null`).
 */
export function orNull<T extends z.ZodTypeAny>(schema: T) {
  return z.union([schema, z.null()]);
}

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
  .refine(
    (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
    'not a real calendar day',
  );
