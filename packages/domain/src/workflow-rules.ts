import type { WorkflowDefinition } from '@atelier/contracts/workflow-definition';
import { isRegisteredArtifactType } from './artifact-types.js';
import { gateRuleErrors } from './gates.js';
import type { ModelRegistry } from './models.js';
import { requiredFieldsProblem, roleProblem } from './step-kinds.js';

export const WORKFLOW_ID_VERBS = ['generate', 'plan', 'build', 'compose', 'edit', 'remove', 'transcribe'] as const;
const SLUG = /^[a-z][a-z0-9]*(-[a-z0-9]+)+$/;
/** YYYY.MM.DD, optionally with a `.N` or `-N` suffix for several versions on one day. */
const VERSION = /^(\d{4})\.(\d{2})\.(\d{2})(?:[.-](\d+))?$/;

export function isDateVersion(version: string): boolean {
  const m = VERSION.exec(version);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Orders date-tagged versions; a later date, or the same date with a higher suffix, sorts after. */
export function compareVersions(a: string, b: string): number {
  const key = (v: string) => {
    const m = VERSION.exec(v);
    return m ? [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4] ?? 0)] : [0, 0, 0, 0];
  };
  const [ka, kb] = [key(a), key(b)];
  for (let i = 0; i < 4; i++) if (ka[i] !== kb[i]) return (ka[i] ?? 0) - (kb[i] ?? 0);
  return 0;
}

export function workflowIdProblem(id: string): string | null {
  if (!SLUG.test(id)) return `id "${id}" must be a kebab-case verb-noun slug such as plan-research-report`;
  const verb = id.split('-')[0] ?? '';
  if (verb === 'assemble') return `id "${id}" starts with "assemble", which is reserved for internal use`;
  if (!(WORKFLOW_ID_VERBS as readonly string[]).includes(verb)) {
    return `id "${id}" must start with one of the verbs ${WORKFLOW_ID_VERBS.join(', ')} (got "${verb}")`;
  }
  return null;
}

export interface RuleContext {
  models: ModelRegistry;
  /** The newest existing version of the same workflow, when there is one. */
  previousVersion?: string;
}

/**
 * The validation rules a definition must pass before publishing, beyond its shape. Every broken rule is
 * reported at once as a plain-language sentence.
 */
export function workflowRuleErrors(def: WorkflowDefinition, ctx: RuleContext): string[] {
  const errors: string[] = [];
  const idProblem = workflowIdProblem(def.id);
  if (idProblem) errors.push(idProblem);

  if (!isDateVersion(def.version)) errors.push(`version "${def.version}" must be date-tagged as YYYY.MM.DD`);
  else if (ctx.previousVersion && compareVersions(def.version, ctx.previousVersion) <= 0) {
    errors.push(`version "${def.version}" must be later than the previous version "${ctx.previousVersion}"`);
  }

  for (const shape of def.outputShape) {
    if (!isRegisteredArtifactType(shape)) {
      errors.push(`outputShape ${shape.artifactClass}/${shape.artifactType} is not a registered artifact type`);
    }
  }
  const schemaRef = { artifactClass: def.artifactSchema.artifactClass, artifactType: def.artifactSchema.artifactType };
  if (!isRegisteredArtifactType(schemaRef)) {
    errors.push(`artifactSchema ${schemaRef.artifactClass}/${schemaRef.artifactType} is not a registered artifact type`);
  }

  for (const [role, modelId] of Object.entries(def.providers)) {
    const problem = ctx.models.bindingProblem(role, modelId);
    if (problem) errors.push(`provider binding ${role}: ${problem}`);
  }

  const stepIds = new Set<string>();
  const intakeFields = new Set(def.intakeSchema.fields.map((f) => f.name));
  def.runtimeSteps.forEach((step, index) => {
    const label = `step ${index + 1} ("${step.id}")`;
    if (stepIds.has(step.id)) errors.push(`${label}: step id is used more than once`);
    stepIds.add(step.id);
    const roleIssue = roleProblem(step, def.providers);
    if (roleIssue) errors.push(`${label}: ${roleIssue}`);
    const missing = requiredFieldsProblem(step);
    if (missing) errors.push(`${label}: ${missing}`);
    if (step.suppliedBy && !intakeFields.has(step.suppliedBy)) {
      errors.push(`${label}: suppliedBy names "${step.suppliedBy}", which is not an intake field`);
    }
    if (step.requireTrue && !step.jsonSchema && step.kind === 'llm') {
      errors.push(`${label}: requireTrue needs a jsonSchema declaring the boolean "${step.requireTrue}"`);
    }
  });
  if (def.runtimeSteps.length === 0) errors.push('runtimeSteps must name at least one step');

  errors.push(...gateRuleErrors(def));

  for (const field of def.intakeSchema.fields) {
    if (field.type === 'enum' && (!field.options || field.options.length === 0)) {
      errors.push(`intake field "${field.name}" is an enum without options`);
    }
    if (field.type === 'artifactReference' && !field.artifactClass) {
      errors.push(`intake field "${field.name}" is an artifactReference without an artifactClass`);
    }
  }
  return errors;
}
