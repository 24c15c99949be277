/**
 * Helpers for tests generated from the gateway's live `/openapi.json`: walking its operations and building
 * the smallest request body a schema accepts (required fields with plausible values), so a request gets
 * past input validation and reaches the access check behind it.
 */

export type Schema = Record<string, any>;
export interface OpenApiDoc {
  paths: Record<string, Record<string, any>>;
  components?: { schemas?: Record<string, Schema> };
  security?: unknown[];
}

export interface Operation {
  method: string;
  path: string;
  op: any;
  /** Non-empty security requirement (the operation's own, else the document's). */
  secured: boolean;
  pathParams: string[];
  queryParams: Array<{ name: string; required: boolean; schema: Schema }>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function operations(doc: OpenApiDoc): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const security = (op.security ?? doc.security ?? []) as unknown[];
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: any) => resolve(doc, p));
      out.push({
        method: method.toUpperCase(),
        path,
        op,
        secured: security.length > 0 && security.some((s) => s && Object.keys(s as object).length > 0),
        pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
        queryParams: params
          .filter((p: any) => p.in === 'query')
          .map((p: any) => ({ name: p.name, required: !!p.required, schema: resolve(doc, p.schema ?? {}) })),
      });
    }
  }
  return out;
}

export function resolve(doc: OpenApiDoc, schema: Schema): Schema {
  let s = schema;
  for (let i = 0; i < 32 && s && typeof s === 'object' && typeof s.$ref === 'string'; i++) {
    const name = s.$ref.split('/').pop()!;
    s = doc.components?.schemas?.[name] ?? {};
  }
  return s ?? {};
}

export function jsonBodySchema(doc: OpenApiDoc, op: any): { schema: Schema; required: boolean } | undefined {
  const content = op.requestBody?.content;
  if (!content) return undefined;
  const entry = content['application/json'] ?? Object.values(content)[0];
  return { schema: resolve(doc, (entry as any)?.schema ?? {}), required: !!op.requestBody.required };
}

export interface SampleOptions {
  /** Values for properties by name (ids of the tenant under test), used even when the property is optional. */
  byName: Record<string, unknown>;
  unique: () => string;
}

/** The smallest plausible instance of `schema`: required properties, first enum value, minimum lengths and bounds. */
export function sample(doc: OpenApiDoc, schema: Schema, o: SampleOptions, depth = 0, name?: string): unknown {
  const s = resolve(doc, schema);
  if (depth > 12) return undefined;
  if (name !== undefined && name in o.byName) return o.byName[name];
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  if (Array.isArray(s.allOf)) {
    const parts = s.allOf.map((p: Schema) => resolve(doc, p));
    const objects = parts.filter((p: Schema) => p.type === 'object' || p.properties);
    if (objects.length) {
      const merged: Schema = { type: 'object', properties: {}, required: [] };
      for (const p of objects) {
        Object.assign(merged.properties, p.properties ?? {});
        merged.required.push(...(p.required ?? []));
      }
      return sample(doc, merged, o, depth + 1);
    }
    return sample(doc, parts[0] ?? {}, o, depth + 1);
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(s[key]) && s[key].length) {
      const nonNull = s[key].find((p: Schema) => resolve(doc, p).type !== 'null') ?? s[key][0];
      return sample(doc, nonNull, o, depth + 1);
    }
  }
  const type = Array.isArray(s.type) ? (s.type.find((t: string) => t !== 'null') ?? 'null') : s.type;
  switch (type) {
    case 'object':
    case undefined: {
      if (type === undefined && !s.properties) return {};
      const props: Record<string, Schema> = s.properties ?? {};
      const required = new Set<string>(s.required ?? []);
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries(props)) {
        if (required.has(key) || key in o.byName) {
          const v = sample(doc, sub, o, depth + 1, key);
          if (v !== undefined) out[key] = v;
        }
      }
      // A body with nothing required still has to say something (an empty PATCH may be refused before the lookup).
      if (depth === 0 && Object.keys(out).length === 0) {
        const first = Object.entries(props).find(([k]) => k !== 'etag');
        if (first) out[first[0]] = sample(doc, first[1], o, depth + 1, first[0]);
      }
      return out;
    }
    case 'array': {
      const n = Math.max(1, s.minItems ?? 0);
      return Array.from({ length: n }, () => sample(doc, s.items ?? {}, o, depth + 1));
    }
    case 'string':
      return sampleString(s, o);
    case 'integer':
      return Math.max(1, Math.ceil(s.minimum ?? 1));
    case 'number':
      return Math.max(1, s.minimum ?? 1);
    case 'boolean':
      return s.default ?? false;
    case 'null':
      return null;
    default:
      return undefined;
  }
}

function sampleString(s: Schema, o: SampleOptions): string {
  if (typeof s.default === 'string') return s.default;
  if (s.format === 'email') return `sweep-${o.unique()}@example.com`;
  if (s.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
  if (s.format === 'uri' || s.format === 'url') return 'https://example.com/';
  if (s.format === 'date-time') return '2026-01-01T00:00:00.000Z';
  if (s.format === 'date') return '2026-01-01';
  if (typeof s.pattern === 'string') {
    const known: Array<[RegExp, string]> = [
      [/\\d\{4\}-\\d\{2\}-\\d\{2\}/, '2026-01-01'],
      [/\[0-9a-f\]\{64\}/, 'a'.repeat(64)],
      [/\^\[A-Z\]\{3\}\$/, 'USD'],
      [/\^#/, '#aabbcc'],
      [/\[a-z0-9\]\+/, `sweep-${o.unique()}`],
    ];
    for (const [re, value] of known) if (re.test(s.pattern)) return value;
  }
  const min = s.minLength ?? 1;
  return 'x'.repeat(Math.max(1, min));
}
