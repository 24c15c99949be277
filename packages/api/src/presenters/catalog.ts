import type { WorkflowDefinition } from '@atelier/contracts/workflow-definition';
import { gatesIncludeQa } from '@atelier/domain/gate-types';
import type { WorkflowRow } from '@atelier/db';

/** The public face of a workflow: what to provide and what comes back. Prompts and bindings never appear. */
export function presentCatalogSummary(workflow: WorkflowRow, def: WorkflowDefinition) {
  return {
    id: workflow.id,
    name: def.name,
    purpose: def.description ?? def.name,
    artifactClass: def.artifactClass,
    outputType: def.outputType ?? null,
    version: def.version,
    status: workflow.status,
    supersededById: workflow.superseded_by_id,
    roughDurationSeconds: def.estimatedDurationSeconds ?? null,
    qaIncluded: gatesIncludeQa(def.gates) || def.artifactSchema.artifactType === 'research-report',
    provided: def.intakeSchema.fields.map((f) => ({
      name: f.name,
      type: f.type,
      required: f.required ?? false,
      description: f.description ?? null,
    })),
    returned: { ...def.artifactSchema },
  };
}

export function presentCatalogWorkflow(workflow: WorkflowRow, def: WorkflowDefinition) {
  return {
    ...presentCatalogSummary(workflow, def),
    intakeSchema: def.intakeSchema,
    runtimeSteps: def.runtimeSteps.map((s) => ({ id: s.id, name: s.name, kind: s.kind, role: s.role ?? null })),
    gates: def.gates.map((g) => ({ id: g.id, name: g.name, type: g.type })),
    outputShape: def.outputShape,
    budgetPolicy: def.budgetPolicy,
  };
}
