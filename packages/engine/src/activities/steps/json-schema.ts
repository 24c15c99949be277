import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Compiles a step's jsonSchema once per distinct schema. Returns a validator that lists the problems in
 * plain language (empty when the value conforms).
 */
const ajv = new Ajv2020({ allErrors: true, strict: false });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const cache = new Map<string, ReturnType<Ajv2020['compile']>>();

export function compileSchema(schema: Record<string, unknown>): (value: unknown) => string[] {
  const key = JSON.stringify(schema);
  let validate = cache.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    cache.set(key, validate);
  }
  const v = validate;
  return (value) => {
    if (v(value)) return [];
    return (v.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
  };
}
