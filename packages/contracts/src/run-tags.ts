import { z } from '@hono/zod-openapi';

/**
 * A run's `tags` and `metadata`: labels a caller attaches at creation to find its runs again
 * (GET /v1/runs?tag=…&metadata[key]=…). Bounded so that a run row stays small and a filter stays an index
 * lookup: tags are few short words from a URL-safe alphabet (they travel unescaped in query strings and CLI
 * arguments), metadata a flat map of strings (no nesting, so containment filters mean one thing).
 */
export const RUN_TAG_LIMITS = {
  tags: 20,
  tagLength: 64,
  metadataKeys: 50,
  metadataKeyLength: 64,
  metadataValueLength: 512,
} as const;

export const TAG_PATTERN = /^[A-Za-z0-9_.:-]+$/;

export const RunTag = z.string().min(1).max(RUN_TAG_LIMITS.tagLength).regex(TAG_PATTERN, 'a tag is letters, digits and _ . : - only');

/** Keeps the first of each tag, in the order sent: a repeated tag says nothing more. */
export const uniqueTags = (tags: readonly string[]): string[] => [...new Set(tags)];

export const RunTags = z
  .array(RunTag)
  .max(RUN_TAG_LIMITS.tags)
  .transform(uniqueTags)
  .describe(
    `At most ${RUN_TAG_LIMITS.tags} tags, each 1–${RUN_TAG_LIMITS.tagLength} characters of A–Z a–z 0–9 _ . : -; duplicates are dropped, order kept`,
  );

const MetadataKey = z.string().min(1).max(RUN_TAG_LIMITS.metadataKeyLength);
const MetadataValue = z.string().max(RUN_TAG_LIMITS.metadataValueLength);

/** Why a metadata map is refused, if it is: only its size; keys and values are checked by their schemas. */
export function metadataSizeProblem(metadata: Record<string, unknown>): string | undefined {
  const keys = Object.keys(metadata).length;
  return keys > RUN_TAG_LIMITS.metadataKeys ? `at most ${RUN_TAG_LIMITS.metadataKeys} metadata keys (got ${keys})` : undefined;
}

export const RunMetadata = z
  .record(MetadataKey, MetadataValue)
  .superRefine((metadata, ctx) => {
    const problem = metadataSizeProblem(metadata);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .openapi({ maxProperties: RUN_TAG_LIMITS.metadataKeys })
  .describe(
    `String to string, at most ${RUN_TAG_LIMITS.metadataKeys} keys of 1–${RUN_TAG_LIMITS.metadataKeyLength} characters, values up to ${RUN_TAG_LIMITS.metadataValueLength}`,
  );

/**
 * `tag` in a query: once (`?tag=a`) or repeated (`?tag=a&tag=b`); the query parser gives a string for one,
 * an array for more.
 */
export const TagFilter = z
  .preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(RunTag).max(RUN_TAG_LIMITS.tags))
  .optional()
  .openapi({
    param: { name: 'tag', in: 'query', style: 'form', explode: true },
    description: 'Only runs carrying every tag given (repeat the parameter for more than one)',
    example: ['campaign:spring'],
  });

const METADATA_PARAM = /^metadata\[(.*)\]$/s;

/**
 * `metadata[<key>]=<value>` in a query (OpenAPI `deepObject`). The query parser keeps each as its own key,
 * `metadata[<key>]`, so the list query lets such keys through (`loose`) and this folds them into `metadata`;
 * checked here, since no field schema sees them. A key given twice is refused rather than guessed at.
 */
export function checkMetadataParams(query: Record<string, unknown>, ctx: z.core.$RefinementCtx<Record<string, unknown>>): void {
  let keys = 0;
  for (const [param, value] of Object.entries(query)) {
    const key = METADATA_PARAM.exec(param)?.[1];
    if (key === undefined) continue;
    keys += 1;
    const path = [param];
    if (typeof value !== 'string') ctx.addIssue({ code: 'custom', path, message: 'give each metadata key once' });
    else if (!MetadataKey.safeParse(key).success)
      ctx.addIssue({ code: 'custom', path, message: `a metadata key is 1–${RUN_TAG_LIMITS.metadataKeyLength} characters` });
    else if (!MetadataValue.safeParse(value).success)
      ctx.addIssue({ code: 'custom', path, message: `a metadata value is at most ${RUN_TAG_LIMITS.metadataValueLength} characters` });
  }
  if (keys > RUN_TAG_LIMITS.metadataKeys) {
    ctx.addIssue({ code: 'custom', path: ['metadata'], message: `at most ${RUN_TAG_LIMITS.metadataKeys} metadata keys` });
  }
}

/** The `metadata[<key>]` parameters of a checked query as one map (undefined when there are none). */
export function metadataParamsOf(query: Record<string, unknown>): Record<string, string> | undefined {
  const entries = Object.entries(query).flatMap(([param, value]) => {
    const key = METADATA_PARAM.exec(param)?.[1];
    return key === undefined || typeof value !== 'string' ? [] : [[key, value] as const];
  });
  return entries.length ? Object.fromEntries(entries) : undefined;
}

/** The `metadata` filter as the OpenAPI description states it; its values arrive as `metadata[<key>]` (above). */
export const MetadataFilter = z
  .record(MetadataKey, MetadataValue)
  .optional()
  .openapi({
    param: { name: 'metadata', in: 'query', style: 'deepObject', explode: true },
    description: 'Only runs whose metadata has each key with exactly this value: metadata[<key>]=<value>, repeatable with other keys',
    example: { customer: 'acme' },
  });
