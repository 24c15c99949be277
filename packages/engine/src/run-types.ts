/**
 * Types shared by the run workflow and its activities. Type-only: deterministic workflow code imports
 * this file with `import type`, so nothing here may be a value.
 */
import type { Step, WorkflowDefinition } from '@atelier/contracts/workflow-definition';
import type { RunContext } from '@atelier/domain/run-context';

export interface RunWorkflowInput {
  runId: string;
  workspaceId: string;
  definition: WorkflowDefinition;
  intake: Record<string, unknown>;
  /** Supplied artifact contents by intake field, exposed to steps at `inputs.{field}`. */
  inputs: Record<string, unknown>;
  /** Role to model-registry id, with the run's overrides applied. */
  bindings: Record<string, string>;
}

export interface ExecuteStepInput {
  runId: string;
  stepIndex: number;
  step: Step;
  context: RunContext;
  bindings: Record<string, string>;
}

export interface StepResult {
  output: unknown;
}

export interface SettleRunInput {
  runId: string;
  status: 'completed' | 'review' | 'failed' | 'cancelled';
  error?: string;
  errorCode?: string;
  failureDetails?: Record<string, unknown>;
  artifact?: { id: string; content: unknown };
}

export interface RunOutcome {
  runId: string;
  status: SettleRunInput['status'];
  artifactId?: string;
  errorCode?: string;
}
