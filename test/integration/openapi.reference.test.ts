import { createRequire } from 'node:module';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '@atelier/cli/stack/paths';
import { fetchOpenApiDocument } from '../../packages/client/scripts/generate.js';

/**
 * /docs is only as good as the document it renders: every operation sits under one declared tag and says
 * what it does, and every JSON request body shows a realistic example that its own schema accepts. New
 * routes are held to the same bar here rather than by review.
 */

// Ajv is the engine's dependency, not the root's; resolving it from there keeps the lockfile untouched.
const requireFromEngine = createRequire(path.join(PROJECT_ROOT, 'packages', 'engine', 'package.json'));
type Validate = ((data: unknown) => boolean) & { errors?: unknown };
type Ajv = {
  compile(schema: object): Validate;
  addKeyword(keyword: string): unknown;
  addSchema(schema: object): unknown;
  errorsText(errors: unknown): string;
};
const Ajv2020 = requireFromEngine('ajv/dist/2020').default as new (options: object) => Ajv;
const addFormats = requireFromEngine('ajv-formats').default as (ajv: Ajv) => void;

/** A validator for schemas of the document: `$ref`s resolve against it, and OpenAPI's `example` is allowed. */
function documentAjv(): Ajv {
  // OpenAPI 3.1 schemas are JSON Schema 2020-12; `example` is OpenAPI's annotation, unknown to Ajv.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addKeyword('example');
  ajv.addSchema({ $id: 'openapi.json', components: doc.components });
  return ajv;
}

type Schema = Record<string, unknown>;
type Operation = {
  tags?: string[];
  description?: string;
  responses?: unknown;
  requestBody?: { content?: Record<string, { schema?: Schema; example?: unknown; examples?: Record<string, { value?: unknown }> }> };
};
type Document = {
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

let doc: Document;
const operations: Array<{ name: string; op: Operation }> = [];
beforeAll(async () => {
  doc = (await fetchOpenApiDocument()) as unknown as Document;
  for (const [p, item] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(item))
      if (op && typeof op === 'object' && 'responses' in op) operations.push({ name: `${method.toUpperCase()} ${p}`, op });
});

/** The body's schema, resolved one $ref deep, with its example(s): on the media type, else on the schema. */
function bodyOf(op: Operation): { schema: Schema; examples: unknown[] } | undefined {
  const media = op.requestBody?.content?.['application/json'];
  if (!media?.schema) return undefined;
  const ref = media.schema.$ref as string | undefined;
  const schema = ref ? doc.components.schemas[ref.split('/').at(-1)!]! : media.schema;
  const examples = [
    ...(media.example !== undefined ? [media.example] : []),
    ...Object.values(media.examples ?? {}).map((e) => e.value),
    ...(schema.example !== undefined ? [schema.example] : []),
    ...((schema.examples as unknown[] | undefined) ?? []),
  ];
  return { schema, examples };
}

describe('/openapi.json as a reference', () => {
  it('declares tags, each with a description, and files every operation under exactly one of them', () => {
    const declared = new Set((doc.tags ?? []).map((t) => t.name));
    expect(declared.size).toBeGreaterThan(0);
    expect((doc.tags ?? []).filter((t) => !t.description?.trim()).map((t) => t.name)).toEqual([]);
    const misfiled = operations
      .filter(({ op }) => op.tags?.length !== 1 || !declared.has(op.tags[0]!))
      .map(({ name, op }) => `${name} ${JSON.stringify(op.tags)}`);
    expect(misfiled, 'operations without exactly one declared tag (list new tags in packages/api/src/reference/index.md)').toEqual([]);
    const unused = [...declared].filter((t) => !operations.some(({ op }) => op.tags?.includes(t)));
    expect(unused, 'declared tags no operation uses').toEqual([]);
  });

  it('describes every operation', () => {
    expect(operations.filter(({ op }) => !op.description?.trim()).map(({ name }) => name)).toEqual([]);
  });

  it('gives every JSON request body an example', () => {
    const bare = operations.filter(({ op }) => bodyOf(op)?.examples.length === 0).map(({ name }) => name);
    expect(bare).toEqual([]);
  });

  it('has request-body examples that their own schemas accept', () => {
    const ajv = documentAjv();
    const rejected: string[] = [];
    for (const { name, op } of operations) {
      const body = bodyOf(op);
      if (!body) continue;
      const media = op.requestBody!.content!['application/json']!.schema!;
      // Refs are resolved against the whole document, so nested component schemas are checked too.
      const validate = ajv.compile({ $ref: `openapi.json${(media.$ref as string | undefined) ?? ''}`, ...(media.$ref ? {} : media) });
      for (const example of body.examples) if (!validate(example)) rejected.push(`${name}: ${ajv.errorsText(validate.errors)}`);
    }
    expect(rejected).toEqual([]);
  });

  it('has component examples (response bodies included) that their own schemas accept', () => {
    // A schema derived with .extend() inherits its parent's example, which may not fit it: each is checked.
    const ajv = documentAjv();
    const rejected = Object.entries(doc.components.schemas)
      .filter(([, schema]) => schema.example !== undefined)
      .flatMap(([name, schema]) => {
        const validate = ajv.compile({ $ref: `openapi.json#/components/schemas/${name}` });
        return validate(schema.example) ? [] : [`${name}: ${ajv.errorsText(validate.errors)}`];
      });
    expect(rejected).toEqual([]);
  });
});
