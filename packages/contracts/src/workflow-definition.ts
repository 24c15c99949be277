import { z } from '@hono/zod-openapi';
import { LIMITS, ModelBinding } from './common.js';
import { STEP_KINDS } from './step-kinds.js';

export { type ActivityStepKind, STEP_KINDS, STEP_KIND_TRAITS, type StepKindTraits } from './step-kinds.js';

/**
 * The workflow schema (schemaVersion workflow-schema-v1): one zod schema for every field of the
 * contract's Workflow, Gate, Intake field and Step tables. It validates built-in definition files at
 * build time, authoring requests at the edge, and documents both in OpenAPI. Rules that need more than
 * the shape of one field (unique gate ids, registered providers...) live in @atelier/domain.
 */

export const ARTIFACT_CLASSES = ['visual', 'research', 'video', 'knowledge'] as const;
export const INTAKE_FIELD_TYPES = ['string', 'enum', 'boolean', 'integer', 'number', 'array', 'object', 'artifactReference'] as const;
export const GATE_TYPES = ['quality', 'safety', 'approval', 'budget'] as const;

export const ArtifactTypeRef = z
  .object({ artifactClass: z.enum(ARTIFACT_CLASSES), artifactType: z.string().min(1) })
  .openapi('ArtifactTypeRef');

export const IntakeField = z
  .object({
    name: z.string().min(1),
    type: z.enum(INTAKE_FIELD_TYPES),
    required: z.boolean().optional(),
    default: z.unknown().optional(),
    options: z.array(z.unknown()).optional(),
    description: z.string().optional(),
    artifactClass: z.enum(ARTIFACT_CLASSES).optional(),
    artifactType: z.string().optional(),
  })
  .openapi('IntakeField');

export const SubWorkflowReference = z
  .object({
    templateId: z.string().min(1),
    templateVersion: z.string().min(1),
    intakeMapping: z.record(z.string(), z.string()),
  })
  .openapi('SubWorkflowReference');

export const HoldField = z.object({
  name: z.string().min(1),
  type: z.enum(['string', 'boolean', 'integer', 'number', 'enum']),
  options: z.array(z.string()).optional(),
});

export const Gate = z
  .object({
    id: z.string().min(1),
    name: z.string().min(1),
    type: z.enum(GATE_TYPES),
    inputs: z.array(ArtifactTypeRef),
    outputs: z.array(ArtifactTypeRef),
    unlocks: z.array(z.string()).optional(),
    holdFields: z.array(HoldField).optional(),
    subWorkflow: SubWorkflowReference.optional(),
  })
  .openapi('Gate');

export const Step = z
  .object({
    id: z.string().min(1),
    name: z.string().min(1),
    kind: z.enum(STEP_KINDS),
    capability: z.string().optional(),
    role: z.string().optional(),
    inputPath: z.string().optional(),
    prompt: z.string().optional().describe('Template over { intake, inputs, steps }: {{intake.topic}}'),
    jsonSchema: z.record(z.string(), z.unknown()).optional(),
    requireTrue: z.string().optional(),
    failMessage: z.string().optional(),
    emitsArtifact: z.boolean().optional(),
    gateId: z.string().optional(),
    function: z.string().optional().describe('code steps: a named deterministic function'),
    expression: z.string().optional().describe('code steps: a JSONata expression over the run context'),
    tool: z.string().optional().describe('tool steps: a named built-in tool'),
    tools: z.array(z.string()).optional().describe('agent steps: the built-in tools the agent may call'),
    params: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Step parameters; a string that is exactly one {{path}} placeholder takes the raw value from the run context'),
    maxTurns: z.number().int().min(1).max(50).optional().describe('agent steps: the turn limit'),
    suppliedBy: z.string().optional().describe('An artifactReference intake field that satisfies this step'),
    templateId: z.string().optional(),
    templateVersion: z.string().optional(),
    intakeMapping: z.record(z.string(), z.string()).optional(),
  })
  .openapi('Step');

/**
 * A workflow's lifecycle as every view of it shows it: active, or deprecated and, when its deprecation named
 * one, superseded by another workflow (a run of the deprecated one is refused naming it).
 */
export const WorkflowLifecycle = {
  status: z.enum(['active', 'deprecated']),
  supersededById: z.string().nullable(),
};

export const WorkflowDefinition = z
  .object({
    id: z.string().min(1),
    name: z.string().min(1),
    description: z.string().optional().describe('The purpose, shown in the catalog'),
    artifactClass: z.enum(ARTIFACT_CLASSES),
    outputType: z.string().optional(),
    version: z.string().min(1),
    status: WorkflowLifecycle.status.optional(),
    supersededById: WorkflowLifecycle.supersededById.optional(),
    cadence: z.string().min(1),
    estimatedDurationSeconds: z.number().int().positive().optional(),
    intakeSchema: z.object({ fields: z.array(IntakeField).max(LIMITS.intakeFields) }),
    runtimeSteps: z.array(Step).max(LIMITS.steps),
    gates: z.array(Gate).max(LIMITS.gates),
    providers: z
      .record(z.string(), ModelBinding)
      .describe('Role to model-registry id, or to an ordered list of ids: the primary model first, then its fallbacks'),
    budgetPolicy: z.object({ perRunCapUsd: z.number().nonnegative().max(1_000_000).optional() }).passthrough(),
    artifactSchema: z.object({
      artifactClass: z.enum(ARTIFACT_CLASSES),
      artifactType: z.string().min(1),
      files: z.array(z.string()),
      metadata: z.array(z.string()),
    }),
    outputShape: z.array(ArtifactTypeRef).min(1),
    schemaVersion: z.literal('workflow-schema-v1').optional(),
  })
  .openapi('WorkflowDefinition');

export type ArtifactTypeRef = z.infer<typeof ArtifactTypeRef>;
export type IntakeField = z.infer<typeof IntakeField>;
export type Gate = z.infer<typeof Gate>;
export type Step = z.infer<typeof Step>;
export type WorkflowDefinition = z.infer<typeof WorkflowDefinition>;
export type StepKind = (typeof STEP_KINDS)[number];
