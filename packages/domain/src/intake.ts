import type { IntakeField } from '@atelier/contracts/workflow-definition';

export type IntakeResolution =
  | { ok: true; intake: Record<string, unknown>; unknownKeys: string[] }
  | { ok: false; errors: string[]; unknownKeys: string[] };

const describe = (value: unknown): string => {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

const ARTIFACT_ID = /^artifact-[A-Za-z0-9-]+$/;

/** One plain-language message when `value` does not fit `field`, else null. */
function checkValue(field: IntakeField, value: unknown): string | null {
  const name = field.name;
  switch (field.type) {
    case 'string':
      return typeof value === 'string' ? null : `${name} must be text (got ${describe(value)})`;
    case 'enum': {
      const options = field.options ?? [];
      return options.some((o) => o === value) ? null : `${name} must be one of ${options.map(String).join(', ')} (got ${describe(value)})`;
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : `${name} must be true or false (got ${describe(value)})`;
    case 'integer':
      return Number.isInteger(value) ? null : `${name} must be a whole number (got ${describe(value)})`;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : `${name} must be a number (got ${describe(value)})`;
    case 'array':
      return Array.isArray(value) ? null : `${name} must be a list (got ${describe(value)})`;
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value)
        ? null
        : `${name} must be an object (got ${describe(value)})`;
    case 'artifactReference':
      return typeof value === 'string' && ARTIFACT_ID.test(value)
        ? null
        : `${name} must be an artifact id such as artifact-1a2b (got ${describe(value)})`;
  }
}

function isMissing(field: IntakeField, value: unknown): boolean {
  if (value === undefined || value === null) return true;
  return field.type === 'string' && typeof value === 'string' && value.trim() === '';
}

/**
 * Checks a sent intake against a workflow's intake contract and fills in defaults. Every bad input is
 * reported at once, each as a sentence naming the field. Unknown keys are returned, not rejected: the
 * contract says they are logged and must not be relied on, so they are also left out of the result.
 */
export function resolveIntake(fields: readonly IntakeField[], sent: Record<string, unknown>): IntakeResolution {
  const errors: string[] = [];
  const intake: Record<string, unknown> = {};
  const known = new Set(fields.map((f) => f.name));
  const unknownKeys = Object.keys(sent).filter((k) => !known.has(k));

  for (const field of fields) {
    const value = sent[field.name];
    if (isMissing(field, value)) {
      if (field.default !== undefined) intake[field.name] = field.default;
      else if (field.required) errors.push(`${field.name} is required`);
      continue;
    }
    const problem = checkValue(field, value);
    if (problem) errors.push(problem);
    else intake[field.name] = value;
  }
  return errors.length > 0 ? { ok: false, errors, unknownKeys } : { ok: true, intake, unknownKeys };
}
