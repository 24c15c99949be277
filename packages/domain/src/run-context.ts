/**
 * The run context every step sees: `{ intake, inputs, steps }`. This module is pure and is imported by
 * deterministic workflow code, so it must stay free of I/O and Node built-ins.
 */
export interface RunContext {
  intake: Record<string, unknown>;
  inputs: Record<string, unknown>;
  steps: Record<string, unknown>;
}

const ROOTS = new Set(['intake', 'inputs', 'steps']);

function walk(value: unknown, segments: readonly string[]): unknown {
  let current: unknown = value;
  for (const segment of segments) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/**
 * Reads a dotted reference. `intake.topic`, `inputs.sourceReport.summary` and `steps.step-2.url` start at
 * the root; a bare `step-2.url` is shorthand for `steps["step-2"].url`.
 */
export function readPath(context: RunContext, path: string): unknown {
  const segments = path.split('.').filter((s) => s.length > 0);
  const [head, ...rest] = segments;
  if (head === undefined) return undefined;
  if (ROOTS.has(head)) return walk(context, segments);
  return walk(context.steps, [head, ...rest]);
}

function renderValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Fills `{{ path }}` placeholders from the run context; a missing value renders as empty text. */
export function renderTemplate(template: string, context: RunContext): string {
  return template.replace(/\{\{\s*([^{}\s]+)\s*\}\}/g, (_, path: string) => renderValue(readPath(context, path)));
}

const WHOLE_PLACEHOLDER = /^\{\{\s*([^{}\s]+)\s*\}\}$/;

/**
 * Resolves step parameters: a string that is exactly one placeholder takes the raw value (a boolean
 * stays a boolean), other strings are rendered as templates, nested objects and lists are walked.
 */
export function resolveParams(value: unknown, context: RunContext): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE_PLACEHOLDER.exec(value);
    return whole?.[1] ? readPath(context, whole[1]) : renderTemplate(value, context);
  }
  if (Array.isArray(value)) return value.map((v) => resolveParams(v, context));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveParams(v, context)]));
  }
  return value;
}
