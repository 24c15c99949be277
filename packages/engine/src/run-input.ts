import type { WorkflowDefinition } from '@atelier/contracts/workflow-definition';
import type { RunRow } from '@atelier/db';
import type { RunWorkflowInput } from './run-types';

/** The id of a supplied research report among a run's inputs, which its artifact names as its source. */
function suppliedReport(inputs: unknown): string | null {
  for (const value of Object.values((inputs ?? {}) as Record<string, { type?: unknown; artifactId?: unknown }>)) {
    if (value?.type === 'research-report' && typeof value.artifactId === 'string') return value.artifactId;
  }
  return null;
}

/** What the run workflow starts from, read off the run as it was recorded at creation. */
export function runWorkflowInputOf(run: RunRow): RunWorkflowInput {
  return {
    runId: run.id,
    workspaceId: run.workspace_id,
    definition: run.definition as WorkflowDefinition,
    intake: run.intake,
    inputs: (run.inputs as Record<string, unknown>) ?? {},
    bindings: run.bindings,
    executionMode: run.execution_mode === 'batch' ? 'batch' : 'standard',
    sourceReportArtifactId: suppliedReport(run.inputs),
  };
}
