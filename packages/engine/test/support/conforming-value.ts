/**
 * A value that fits a JSON schema, read from the schema itself (types, required sizes, the hex-colour
 * pattern the built-ins use): what a loopback model answers to any built-in step, whatever its shape.
 */
export function conformingValue(schema: any, name = 'value'): unknown {
  switch (schema?.type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [key, property] of Object.entries<any>(schema.properties ?? {})) value[key] = conformingValue(property, key);
      return value;
    }
    case 'array': {
      const count = Math.min(schema.maxItems ?? Number.POSITIVE_INFINITY, Math.max(schema.minItems ?? 0, 3));
      return Array.from({ length: count }, (_, i) => conformingValue(schema.items, `${name} ${i + 1}`));
    }
    case 'boolean':
      return true;
    case 'number':
    case 'integer':
      return schema.minimum ?? 1;
    default: {
      if (schema?.enum) return schema.enum[0];
      if (schema?.pattern === '^#[0-9a-fA-F]{6}$') return '#336699';
      const text = `The ${name}, written by the remote model for this run.`;
      return text.padEnd(schema?.minLength ?? 0, '.');
    }
  }
}
