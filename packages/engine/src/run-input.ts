import type { WorkflowDefinition } from '@atelier/contracts/workflow-definition';
import type { RunToStart } from '@atelier/db';
import { definitionHash } from '@atelier/domain/hashing';
import { runPlanOf } from '@atelier/domain/run-plan';
import type { RunShape, RunStart, RunWorkflowInput } from './run-types.js';
import { RUN_SHAPE } from './workflows/shapes.js';

/** The id of a supplied research report among a run's inputs, which its artifact names as its source. */
function suppliedReport(inputs: unknown): string | null {
  for (const value of Object.values((inputs ?? {}) as Record<string, { type?: unknown; artifactId?: unknown }>)) {
    if (value?.type === 'research-report' && typeof value.artifactId === 'string') return value.artifactId;
  }
  return null;
}

/**
 * A run workflow input with the definition by reference: its plan and content hash, not the definition,
 * travel in the workflow's history (and in an order's or a parent run's, which start it). It names the
 * shape the run takes (RUN_SHAPE unless a parent names another). Every input the engine starts a run with is
 * made here: the dispatcher's, an order's children's and a parent run's children's.
 */
export function plannedRunInput(start: RunStart, definition: WorkflowDefinition, shape: RunShape = RUN_SHAPE): RunWorkflowInput {
  return { ...start, shape, plan: runPlanOf(definition), definitionHash: definitionHash(definition) };
}

/** What the run workflow starts from, read off the run as it was recorded at creation. */
export function runWorkflowInputOf(run: RunToStart, shape: RunShape = RUN_SHAPE): RunWorkflowInput {
  return plannedRunInput(
    {
      runId: run.id,
      workspaceId: run.workspace_id,
      intake: run.intake,
      inputs: (run.inputs as Record<string, unknown>) ?? {},
      bindings: run.bindings,
      executionMode: run.execution_mode === 'batch' ? 'batch' : 'standard',
      sourceReportArtifactId: suppliedReport(run.inputs),
    },
    run.definition as WorkflowDefinition,
    shape,
  );
}
