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

const PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;

function placeholdersIn(value: unknown, into: string[]): void {
  if (typeof value === 'string') for (const m of value.matchAll(PLACEHOLDER)) into.push(m[1]!);
  else if (Array.isArray(value)) for (const v of value) placeholdersIn(v, into);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) placeholdersIn(v, into);
}

/** What a step declares it reads: its prompt (`{{intake}}` by default), its params' placeholders and its inputPath. */
export interface StepReads {
  prompt?: string;
  params?: unknown;
  inputPath?: string;
  /** The step may read anything (code functions and expressions, agents, a step with no declared input). */
  whole: boolean;
  /** A safety verdict reads the whole intake besides the output. */
  wholeIntake?: boolean;
}

/**
 * What a step reads, reduced to the context paths its prompt, params and inputPath name: all the run
 * workflow needs to slice the context, so a run's plan carries this instead of the step's prompt and params.
 */
export interface ContextReads {
  /** `intake.topic`, `steps.plan.outline`, `plan` (shorthand for `steps.plan`). */
  paths: string[];
  whole: boolean;
  wholeIntake?: boolean;
}

/** The paths a step's declared reads name (`{{intake}}` when it has no prompt). */
export function contextReadsOf(reads: StepReads): ContextReads {
  if (reads.whole) return { paths: [], whole: true };
  const paths: string[] = [];
  placeholdersIn(reads.prompt ?? '{{intake}}', paths);
  placeholdersIn(reads.params, paths);
  if (reads.inputPath) paths.push(reads.inputPath);
  return { paths: [...new Set(paths)], whole: false, ...(reads.wholeIntake ? { wholeIntake: true } : {}) };
}

/**
 * The part of the run context a step reads, so its activity is sent that and not the whole context.
 * Paths keep their root entry whole (`intake.topic` keeps `intake.topic`; `steps.plan.outline` keeps the
 * plan step's whole output), so reading them from the slice answers what reading the full context would.
 */
export function contextFor(reads: StepReads, context: RunContext): RunContext {
  return sliceContext(contextReadsOf(reads), context);
}

/**
 * The context entry a path starts at: its root and the key under it (`steps.plan.outline` and the shorthand
 * `plan.outline` are both `steps` / `plan`; `intake` alone is the whole root, no key).
 */
export function contextEntryOf(path: string): { root: keyof RunContext; key?: string } | undefined {
  const [head, key] = path.split('.').filter((s) => s.length > 0);
  if (head === undefined) return undefined;
  if (!ROOTS.has(head)) return { root: 'steps', key: head };
  return key === undefined ? { root: head as keyof RunContext } : { root: head as keyof RunContext, key };
}

/** The slice of the context that `reads` names (the whole context when it reads anything). */
export function sliceContext(reads: ContextReads, context: RunContext): RunContext {
  if (reads.whole) return context;
  // Fresh objects: filling the slice never writes into the run's own context.
  const slice: RunContext = { intake: reads.wholeIntake ? { ...context.intake } : {}, inputs: {}, steps: {} };
  for (const path of reads.paths) {
    const entry = contextEntryOf(path);
    if (!entry) continue;
    const root = context[entry.root];
    if (entry.key === undefined) slice[entry.root] = { ...root };
    else if (entry.key in root) slice[entry.root][entry.key] = root[entry.key];
  }
  return slice;
}
