/**
 * Types shared by the run workflow and its activities. Type-only: deterministic workflow code imports
 * this file with `import type`, so nothing here may be a value.
 */
import type { Gate, Step, WorkflowDefinition } from '@atelier/contracts/workflow-definition';
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
  /** The supplied research report this run composes from, when there is one. */
  sourceReportArtifactId?: string | null;
  /** `batch` sends model calls through the provider's batch interface where the model has one. */
  executionMode?: 'standard' | 'batch';
}

export interface OrderWorkflowInput {
  orderId: string;
  /** How many child runs may be in flight at once. */
  concurrency: number;
}

export interface OrderProgress {
  targetCount: number;
  succeeded: number;
  status: string;
}

export interface SettleOrderInput {
  orderId: string;
  /**
   * `decide` lets the activity choose completed, attention or failed from the children's outcomes;
   * `failed` (with `reason`) is the engine giving up on the order.
   */
  status: 'completed' | 'cancelled' | 'decide' | 'failed';
  reason?: string;
}

export interface ExecuteStepInput {
  runId: string;
  stepIndex: number;
  step: Step;
  context: RunContext;
  bindings: Record<string, string>;
  /** The quality or safety gate judged on this step's output. */
  gate?: Gate;
  /** The run's artifact: files a step stores go under its id. */
  artifact: { id: string; artifactClass: string; artifactType: string };
  executionMode?: 'standard' | 'batch';
}

export interface StepResult {
  output: unknown;
  costUsd: number;
}

export interface SkipStepInput {
  runId: string;
  stepIndex: number;
  step: Step;
  output: unknown;
}

export interface PrepareChildInput {
  parentRunId: string;
  childRunId: string;
  stepIndex: number;
  step: Step;
  context: RunContext;
}

export interface SettleChildStepInput {
  runId: string;
  stepIndex: number;
  childRunId: string;
  childStatus: string;
  artifactId?: string;
}

export interface SettleRunInput {
  runId: string;
  status: 'completed' | 'review' | 'failed' | 'cancelled';
  error?: string;
  errorCode?: string;
  failureDetails?: Record<string, unknown>;
  artifact?: { id: string; content: unknown };
  review?: { gateId: string; gateName: string; holdFields: unknown[] | null };
  sourceReportArtifactId?: string | null;
  /** A step left pending by a failure that never reached the step's own settlement. */
  failedStepIndex?: number;
}

export interface EmitArtifactInput {
  runId: string;
  artifact: { id: string; content: unknown };
}

export interface RunOutcome {
  runId: string;
  status: SettleRunInput['status'];
  artifactId?: string;
  artifactType?: string;
  errorCode?: string;
  error?: string;
}
