import { Gate, IntakeField, Step, WorkflowDefinition } from '@atelier/contracts/workflow-definition';
import { type Bindings, primaryModel } from './bindings.js';
import { roleProblem } from './step-kinds.js';
import { type CostEstimate, estimateSteps } from './estimate.js';
import { resolveIntake } from './intake.js';
import { intakeSizeProblems, measureIntake } from './intake-limits.js';
import type { ModelRegistry } from './models.js';
import { roundUsd } from './money.js';
import { type RuleContext, workflowRuleErrors } from './workflow-rules.js';

/**
 * Checking workflow definitions as authors send them: the whole definition when a draft is saved, or
 * whatever part of one a dry run carries. Every problem comes back at once as a plain-language sentence
 * (shape problems as `path: sentence`), and nothing here throws on any input.
 */

/** With no budgetPolicy.perRunCapUsd, a typical run estimate above this many USD is flagged as high cost. */
export const HIGH_COST_THRESHOLD_USD = 1;

export const NO_RUNTIME_STEPS_WARNING = 'the template has no runtime steps';

/** The parts of a zod issue read here (structural, so this module needs no zod import of its own). */
export interface ShapeIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: unknown;
  values?: readonly unknown[];
  minimum?: unknown;
  maximum?: unknown;
  origin?: string;
}

const show = (value: unknown): string => {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 40 ? `${text.slice(0, 37)}...` : text;
};

function valueAt(source: unknown, path: readonly PropertyKey[]): unknown {
  let current = source;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  record: 'an object',
};

/** One zod issue as a sentence naming where it is: `runtimeSteps.0.kind: must be one of llm, ... (got "x")`. */
export function shapeIssueMessage(issue: ShapeIssue, raw: unknown, prefix: readonly PropertyKey[] = []): string {
  const fullPath = [...prefix, ...issue.path];
  const where = fullPath.length > 0 ? fullPath.map(String).join('.') : 'the definition';
  const value = valueAt(raw, issue.path);
  if (issue.path.length > 0 && value === undefined && ['invalid_type', 'invalid_value', 'invalid_union'].includes(issue.code)) {
    return `${where}: is required but missing`;
  }
  switch (issue.code) {
    case 'invalid_type':
      return `${where}: must be ${TYPE_WORDS[String(issue.expected)] ?? String(issue.expected)} (got ${show(value)})`;
    case 'invalid_value':
      return issue.values && issue.values.length > 0
        ? `${where}: must be ${issue.values.length === 1 ? show(issue.values[0]) : `one of ${issue.values.map(String).join(', ')}`} (got ${show(value)})`
        : `${where}: ${issue.message}`;
    case 'too_small':
      if (issue.origin === 'string') return `${where}: must not be empty`;
      if (issue.origin === 'array') return `${where}: must list at least ${String(issue.minimum)} item(s)`;
      return `${where}: must be at least ${String(issue.minimum)} (got ${show(value)})`;
    case 'too_big':
      return `${where}: must be at most ${String(issue.maximum)} (got ${show(value)})`;
    default:
      return `${where}: ${issue.message}`;
  }
}

type Field = keyof typeof WorkflowDefinition.shape;
const FIELDS = Object.keys(WorkflowDefinition.shape) as Field[];
const REQUIRED_FIELDS = FIELDS.filter((f) => !WorkflowDefinition.shape[f].safeParse(undefined).success);

/**
 * What the rules see in place of a field that is absent or broken: values that break no rule themselves,
 * and the rule messages that only follow from the stand-in (so they are not reported).
 */
const STAND_INS: Partial<Record<Field, { value: unknown; hides: RegExp[] }>> = {
  id: { value: 'plan-draft-definition', hides: [] },
  name: { value: 'draft', hides: [] },
  artifactClass: { value: 'research', hides: [] },
  version: { value: '2000.01.01', hides: [] },
  cadence: { value: 'on-demand', hides: [] },
  intakeSchema: { value: { fields: [] }, hides: [/which is not an intake field$/] },
  runtimeSteps: { value: [], hides: [/^runtimeSteps must name at least one step$/] },
  gates: { value: [], hides: [/is not a gate of this workflow$/] },
  providers: { value: {}, hides: [/has no model in providers$/, /need a classifier/] },
  budgetPolicy: { value: {}, hides: [] },
  artifactSchema: { value: { artifactClass: 'research', artifactType: 'research-report', files: [], metadata: [] }, hides: [] },
  outputShape: { value: [{ artifactClass: 'research', artifactType: 'research-report' }], hides: [] },
};

const idOr = (raw: unknown, fallback: string, key = 'id') => {
  const v = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>)[key] : undefined;
  return typeof v === 'string' && v ? v : fallback;
};

/**
 * Lists whose broken elements are stood in for one by one, so that the rules still judge the others in
 * place (step numbers stay right). A stand-in keeps the element's id and breaks no rule itself.
 */
const ELEMENT_STAND_INS = {
  runtimeSteps: {
    schema: Step,
    standIn: (raw: unknown, i: number) => ({ id: idOr(raw, `(step ${i + 1})`), name: 'stand-in', kind: 'code', expression: 'null' }),
  },
  gates: {
    schema: Gate,
    standIn: (raw: unknown, i: number) => ({ id: idOr(raw, `(gate ${i + 1})`), name: 'stand-in', type: 'budget', inputs: [], outputs: [] }),
  },
  fields: { schema: IntakeField, standIn: (raw: unknown, i: number) => ({ name: idOr(raw, `(field ${i + 1})`, 'name'), type: 'object' }) },
};

/** Parses a list element by element; broken elements are reported and replaced by their stand-ins. */
function parseElements(list: unknown[], kind: keyof typeof ELEMENT_STAND_INS, path: PropertyKey[], errors: string[]): unknown[] {
  const { schema, standIn } = ELEMENT_STAND_INS[kind];
  return Array.from(list, (element, i) => {
    const parsed = schema.safeParse(element);
    if (parsed.success) return parsed.data;
    errors.push(...parsed.error.issues.map((issue) => shapeIssueMessage(issue as ShapeIssue, element, [...path, i])));
    return standIn(element, i);
  });
}

/** A field that failed its schema, judged element by element when it is a list of the right kind. */
function partlyBroken(field: Field, value: unknown, errors: string[]): unknown {
  if ((field === 'runtimeSteps' || field === 'gates') && Array.isArray(value)) return parseElements(value, field, [field], errors);
  if (field === 'intakeSchema' && value !== null && typeof value === 'object' && Array.isArray((value as { fields?: unknown }).fields)) {
    return { fields: parseElements((value as { fields: unknown[] }).fields, 'fields', ['intakeSchema', 'fields'], errors) };
  }
  return undefined;
}

export interface DefinitionCheck {
  errors: string[];
  warnings: string[];
  /** The parsed definition (unknown keys dropped) when it has no problem at all. */
  definition: WorkflowDefinition | null;
  /** Each field that was present and well-formed, parsed. */
  present: Partial<WorkflowDefinition>;
}

/**
 * Checks a definition field by field, then runs the publishing rules over the well-formed fields (stand-ins
 * fill the rest), so that shape and rule problems are all reported together. A required field that is
 * absent is an error, or with `missing: 'warning'` (dry runs of partial drafts) a warning.
 */
export function checkDefinition(
  raw: unknown,
  ctx: RuleContext,
  opts: { missing: 'error' | 'warning' } = { missing: 'error' },
): DefinitionCheck {
  const errors: string[] = [];
  const warnings: string[] = [];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { errors: [`the definition must be an object (got ${show(raw)})`], warnings, definition: null, present: {} };
  }
  const body = raw as Record<string, unknown>;
  const present: Record<string, unknown> = {};
  const filled: Record<string, unknown> = {};
  const hidden: RegExp[] = [];
  for (const field of FIELDS) {
    const value = body[field];
    const standIn = STAND_INS[field];
    if (value === undefined) {
      if (REQUIRED_FIELDS.includes(field)) {
        const sentence = `${field}: is required but missing`;
        if (opts.missing === 'error') errors.push(sentence);
        else warnings.push(`${sentence}; a definition needs it before it can be saved`);
      }
      if (standIn) {
        filled[field] = standIn.value;
        hidden.push(...standIn.hides);
      }
      continue;
    }
    const parsed = WorkflowDefinition.shape[field].safeParse(value);
    if (parsed.success) {
      present[field] = parsed.data;
      filled[field] = parsed.data;
    } else {
      const partly = partlyBroken(field, value, errors);
      if (partly !== undefined) {
        filled[field] = partly;
        continue;
      }
      errors.push(...parsed.error.issues.map((issue) => shapeIssueMessage(issue as ShapeIssue, value, [field])));
      if (standIn) {
        filled[field] = standIn.value;
        hidden.push(...standIn.hides);
      }
    }
  }
  const version = present.version as string | undefined;
  const rules = workflowRuleErrors(filled as WorkflowDefinition, { ...ctx, previousVersion: version ? ctx.previousVersion : undefined });
  for (const message of rules) {
    if (hidden.some((pattern) => pattern.test(message))) continue;
    if (opts.missing === 'warning' && message === 'runtimeSteps must name at least one step') continue;
    errors.push(message);
  }
  const steps = body.runtimeSteps;
  if (opts.missing === 'warning' && (steps === undefined || (Array.isArray(steps) && steps.length === 0)))
    warnings.push(NO_RUNTIME_STEPS_WARNING);
  const definition = errors.length === 0 ? WorkflowDefinition.safeParse(raw) : null;
  return { errors, warnings, definition: definition?.success ? definition.data : null, present: present as Partial<WorkflowDefinition> };
}

export interface StepPricing {
  id: string;
  typicalUsd: number;
}

export interface DraftEstimate {
  estimatedCost: CostEstimate;
  perRunCapUsd: number | null;
  highCost: boolean;
  steps: StepPricing[];
}

/** Prices steps on their bound models; high cost is a typical estimate above the cap, or above the threshold without one. */
export function estimateDraft(
  steps: readonly Step[],
  providers: Bindings,
  budgetPolicy: { perRunCapUsd?: number } | undefined,
  models: ModelRegistry,
): DraftEstimate {
  // Priced on the primary models: a fallback runs only when the primary cannot.
  const modelForRole = (role: string) => {
    const id = primaryModel(providers[role]);
    return id ? models.get(id) : undefined;
  };
  const estimatedCost = estimateSteps(steps, modelForRole);
  const cap = budgetPolicy?.perRunCapUsd ?? null;
  return {
    estimatedCost,
    perRunCapUsd: cap,
    highCost: estimatedCost.typical > (cap ?? HIGH_COST_THRESHOLD_USD),
    steps: steps.map((s) => ({ id: s.id, typicalUsd: roundUsd(estimateSteps([s], modelForRole).typical) })),
  };
}

/** Problems that make a price impossible: unregistered models, and model-using steps whose role is unbound. */
export function pricingErrors(steps: readonly Step[], providers: Bindings, models: ModelRegistry): string[] {
  const errors: string[] = [];
  for (const [role, modelId] of Object.entries(providers)) {
    const problem = models.bindingProblem(role, modelId);
    if (problem) errors.push(`provider binding ${role}: ${problem}`);
  }
  steps.forEach((step, index) => {
    const problem = roleProblem(step, providers);
    if (problem) errors.push(`step ${index + 1} ("${step.id}"): ${problem}`);
  });
  return errors;
}

export interface DryRunStep {
  id: string | null;
  name: string | null;
  kind: string | null;
  role: string | null;
  model: string | null;
}

export interface DryRunResult {
  ok: boolean;
  stepCount: number;
  steps: DryRunStep[];
  errors: string[];
  warnings: string[];
  estimate: { estimatedCost: CostEstimate; perRunCapUsd: number | null; highCost: boolean };
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * A dry run of a draft: the definition fields present are checked (absent ones are warnings), the intake,
 * when sent, is resolved against the draft's intake contract, and the well-formed steps are priced.
 * A body with a templateId and no steps is the contract's quirk: accepted, nothing checked, zero steps.
 */
export function dryRunDraft(body: Record<string, unknown>, ctx: RuleContext): DryRunResult {
  const hasDefinition = Object.keys(body).some((k) => (FIELDS as string[]).includes(k));
  const check: DefinitionCheck =
    hasDefinition || body.templateId === undefined
      ? checkDefinition(body, ctx, { missing: 'warning' })
      : { errors: [], warnings: [NO_RUNTIME_STEPS_WARNING], definition: null, present: {} };
  const errors = [...check.errors];
  const warnings = [...check.warnings];
  if (body.templateId !== undefined) {
    warnings.push('templateId is ignored: a dry run checks the draft definition sent in the body, not a stored workflow');
  }

  const providers = check.present.providers ?? {};
  const rawSteps = Array.isArray(body.runtimeSteps) ? (body.runtimeSteps as unknown[]) : [];
  const steps = rawSteps.map((raw): DryRunStep => {
    const s = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    const role = text(s.role);
    return { id: text(s.id), name: text(s.name), kind: text(s.kind), role, model: role ? (primaryModel(providers[role]) ?? null) : null };
  });

  if (body.intake !== undefined) {
    const fields = check.present.intakeSchema?.fields;
    if (body.intake === null || typeof body.intake !== 'object' || Array.isArray(body.intake)) {
      errors.push(`intake: must be an object (got ${show(body.intake)})`);
    } else if (!fields) {
      if (hasDefinition) warnings.push('the intake was not checked: the draft has no well-formed intakeSchema');
    } else {
      const resolution = resolveIntake(fields, body.intake as Record<string, unknown>);
      errors.push(...intakeSizeProblems(measureIntake(body.intake)).map((e) => `intake: ${e}`));
      if (!resolution.ok) errors.push(...resolution.errors.map((e) => `intake: ${e}`));
      for (const key of resolution.unknownKeys) warnings.push(`intake: "${key}" is not an intake field and would be ignored`);
    }
  } else if (hasDefinition) {
    warnings.push('no intake was sent, so none was checked');
  }

  const priced = rawSteps.flatMap((s) => {
    const parsed = Step.safeParse(s);
    return parsed.success ? [parsed.data] : [];
  });
  const estimate = estimateDraft(priced, providers, check.present.budgetPolicy, ctx.models);
  if (estimate.highCost) {
    warnings.push(
      estimate.perRunCapUsd === null
        ? `high cost: a typical run is estimated at ${estimate.estimatedCost.typical} USD, above ${HIGH_COST_THRESHOLD_USD} USD`
        : `high cost: a typical run is estimated at ${estimate.estimatedCost.typical} USD, above the per-run cap of ${estimate.perRunCapUsd} USD`,
    );
  }
  return {
    ok: errors.length === 0,
    stepCount: steps.length,
    steps,
    errors,
    warnings,
    estimate: { estimatedCost: estimate.estimatedCost, perRunCapUsd: estimate.perRunCapUsd, highCost: estimate.highCost },
  };
}
