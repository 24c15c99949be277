import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Compiles a step's jsonSchema once per distinct schema. Returns a validator that lists the problems in
 * plain language (empty when the value conforms).
 */
const ajv = new Ajv2020({ allErrors: true, strict: false });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
type Validate = ReturnType<Ajv2020['compile']>;
const cache = new Map<string, Validate>();
// A worker keeps each definition it runs (activities/definitions.ts), so a schema is mostly the same object
// run after run: found by identity, it is not serialized again for the text's lookup.
const bySchema = new WeakMap<object, Validate>();

export function compileSchema(schema: Record<string, unknown>): (value: unknown) => string[] {
  let validate = bySchema.get(schema);
  if (!validate) {
    const key = JSON.stringify(schema);
    validate = cache.get(key) ?? ajv.compile(schema);
    cache.set(key, validate);
    bySchema.set(schema, validate);
  }
  const v = validate;
  return (value) => {
    if (v(value)) return [];
    return (v.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
  };
}
