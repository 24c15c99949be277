/**
 * A run's plan: what the run workflow decides on, out of a frozen definition. The workflow input carries
 * this and the definition's content hash instead of the definition itself, because every byte of a
 * workflow input (and of each step's activity input) is written into the run's history: the prompts,
 * JSON Schemas and params it never reads were most of a run's history payload. The activity reads the
 * full step from the worker's cache of definitions, keyed by the hash.
 *
 * Pure and imported by deterministic workflow code: types only from the contract, no I/O, no Node built-ins.
 */
import type { Gate, Step, WorkflowDefinition } from '@atelier/contracts/workflow-definition';
import { gateOf } from './gates.js';
import { type ContextReads, contextReadsOf } from './run-context.js';
import { stepReads } from './step-kinds.js';

/**
 * A step as the workflow sees it: its identity and label, whether the intake supplies it, whether it ships
 * the artifact early, its gate, what it reads of the run context, and for a subWorkflow step the child
 * it starts (prepareChildRun records the child from these).
 */
export interface PlannedStep extends Pick<Step, 'id' | 'name' | 'kind'> {
  suppliedBy?: string;
  emitsArtifact?: boolean;
  gateId?: string;
  reads: ContextReads;
  templateId?: string;
  templateVersion?: string;
  intakeMapping?: Record<string, string>;
}

/** The definition as the run workflow needs it: its steps planned, its gates, budget cap and artifact. */
export interface RunPlan {
  /** The template id (the `TemplateId` search attribute of a child run). */
  id: string;
  version: string;
  runtimeSteps: PlannedStep[];
  gates: Gate[];
  budgetPolicy: { perRunCapUsd?: number };
  artifactSchema: WorkflowDefinition['artifactSchema'];
}

/** The plan of a frozen definition. Optional fields the step leaves out stay out, so the plan stays small. */
export function runPlanOf(definition: WorkflowDefinition): RunPlan {
  const { perRunCapUsd } = definition.budgetPolicy;
  return {
    id: definition.id,
    version: definition.version,
    runtimeSteps: definition.runtimeSteps.map((step) => plannedStep(step, gateOf(definition.gates, step))),
    gates: definition.gates,
    budgetPolicy: perRunCapUsd === undefined ? {} : { perRunCapUsd },
    artifactSchema: definition.artifactSchema,
  };
}

function plannedStep(step: Step, gate: Pick<Gate, 'type'> | undefined): PlannedStep {
  const { id, name, kind, suppliedBy, emitsArtifact, gateId, templateId, templateVersion, intakeMapping } = step;
  const planned: PlannedStep = { id, name, kind, reads: contextReadsOf(stepReads(step, gate)) };
  if (suppliedBy !== undefined) planned.suppliedBy = suppliedBy;
  if (emitsArtifact !== undefined) planned.emitsArtifact = emitsArtifact;
  if (gateId !== undefined) planned.gateId = gateId;
  if (kind === 'subWorkflow') Object.assign(planned, { templateId, templateVersion, intakeMapping });
  return planned;
}
