/**
 * Types shared by the run workflow and its activities. Type-only: deterministic workflow code imports
 * this file with `import type`, so nothing here may be a value.
 */
import type { Gate, Step, WorkflowDefinition } from '@atelier/contracts/workflow-definition';
import type { Bindings } from '@atelier/domain/bindings';
import type { RunContext } from '@atelier/domain/run-context';
import type { RunPlan } from '@atelier/domain/run-plan';

/**
 * What a run workflow starts from. Runs are started with the definition by reference (`plan` and
 * `definitionHash`); runs started before that carry the frozen `definition` whole, and their recorded
 * histories replay with it, so the workflow accepts both and tells them apart by the input's shape.
 */
export type RunWorkflowInput = RunStart & ({ plan: RunPlan; definitionHash: string } | { definition: WorkflowDefinition });

/** A run workflow input with the definition by reference: what the engine starts runs with now. */
export type PlannedRunInput = Extract<RunWorkflowInput, { plan: RunPlan }>;

/**
 * The workflow shapes a run input can name (RunStart.shape). 1: named (each step's activity named after the
 * step, the execution ending Failed or Canceled as the run does), lean bookkeeping (no markRunRunning) and
 * settling every failure: what ONE_MARKER_PATCH marks in histories recorded before the input named it.
 * 2: shape 1, and a last step that no gate follows settles the run in its own activity (ExecuteStepInput.
 * settleRun) instead of a settlement local activity after it: one local activity and its marker fewer per run.
 * 3: shape 2, and the `RunStatus` search attribute is written once, when the run settles, instead of also when
 * it begins (`running`): each upsert is a history event and a visibility write (measured at about 8% of a
 * run's throughput), and the read model already says whether a step has begun.
 * 4: shape 3, and step outputs by reference (domain/output-refs.ts): an output only later steps read stays
 * out of the history; its activity returns none and the activities that read it fetch it
 * (ExecuteStepInput.outputRefs).
 * 5: shape 4, and each step is sent only what the workflow alone knows: the step by its id, the run's
 * artifact by its id, and the execution mode only when it is `batch`. The worker reads the rest (the
 * step's name and kind, the artifact's schema) from the definition it already fetches by hash
 * (activities/definitions.ts). Every byte of an activity's input is written into the history and decoded
 * again by the server, core and the worker: about 0.65 KB of a plan-research-report run's 3.5 KB.
 */
export type RunShape = 1 | 2 | 3 | 4 | 5;

export interface RunStart {
  /**
   * The shape the run workflow takes, chosen by whoever builds the input (run-input.ts) instead of asked of a
   * patch marker. Why: each patched() call on a new execution records a marker (a history event) plus an
   * upsert of the `TemporalChangeVersion` search attribute (another event and a visibility write), on every
   * run. The input is recorded in the execution's first history event, so deciding from it is as
   * deterministic as a marker and costs nothing. Absent in inputs from before it: the workflow then asks its
   * patches as it always did, so the histories of those runs replay unchanged.
   */
  shape?: RunShape;
  runId: string;
  workspaceId: string;
  intake: Record<string, unknown>;
  /** Supplied artifact contents by intake field, exposed to steps at `inputs.{field}`. */
  inputs: Record<string, unknown>;
  /** Role to model-registry id (or an ordered list: primary, then fallbacks), with the run's overrides applied. */
  bindings: Bindings;
  /** The supplied research report this run composes from, when there is one. */
  sourceReportArtifactId?: string | null;
  /** `batch` sends model calls through the provider's batch interface where the model has one. */
  executionMode?: 'standard' | 'batch';
}

export interface OrderWorkflowInput {
  orderId: string;
  /** How many child runs may be in flight at once. */
  concurrency: number;
  /**
   * The order workflow's shape, chosen by who starts it (client.ts) as a run's is. 1: children are claimed
   * ahead, a batch as large as the concurrency at a time, instead of one claim (an activity and a database
   * round trip) per child started. 2: shape 1, the next batch claimed as soon as one is used up, while its
   * children run, instead of when a slot frees up. 3: shape 2, an execution starting at least twice the
   * concurrency in children before it continues as new (not 400 whatever the concurrency), so a concurrency
   * above 400 is honoured. Absent in inputs from before them: one claim per free slot, as recorded.
   */
  shape?: 1 | 2 | 3;
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
  /** Children claimed ahead that will not be started now: cancelled with the order's settlement. */
  unstarted?: string[];
}

export interface ExecuteStepInput {
  runId: string;
  stepIndex: number;
  step: Step;
  context: RunContext;
  bindings: Bindings;
  /** The quality or safety gate judged on this step's output. */
  gate?: Gate;
  /** The run's artifact: files a step stores go under its id. */
  artifact: { id: string; artifactClass: string; artifactType: string };
  executionMode?: 'standard' | 'batch';
  /**
   * Set on a run's last step when nothing is left to decide after it (shape 2): once the step completed, the
   * activity settles the run `completed` with this artifact id, as settleRun would, unless a cancel was asked
   * for first (runs.cancel_requested_at). StepResult.run says which.
   */
  settleRun?: { artifactId: string; sourceReportArtifactId: string | null };
  /**
   * Shape 4: steps whose outputs the workflow holds by reference and this step reads; the worker puts them
   * in `context.steps` before the step runs (activities/step-outputs.ts).
   */
  outputRefs?: string[];
  /** Shape 4: false when the workflow never reads this step's output; the worker keeps it for later steps. */
  returnOutput?: boolean;
  /**
   * The step runs again because its provider job may have ended (StepResult.job): the same attempt
   * continuing, not a retry, so it counts no attempt and submits nothing the job already covers.
   */
  resumesJob?: true;
}

/**
 * What the run workflow sends the executeStep activity: the step whole (runs started with the definition
 * whole), or named with the definition's hash, from which the worker reads the full step (prompt,
 * jsonSchema, params) out of its cache of definitions instead of the history carrying them: by its id, name
 * and kind (shape 4), or by its id alone with the artifact by its id (`artifactId`, shape 5).
 */
export type StepCall = Omit<ExecuteStepInput, 'step' | 'artifact'> & StepReference;

/** How a StepCall names its step and the run's artifact (workflows/definition-ref.ts). */
export type StepReference =
  | { step: Step; artifact: ExecuteStepInput['artifact'] }
  | { step: StepIdentity; definitionHash: string; artifact: ExecuteStepInput['artifact'] }
  | { step: Pick<Step, 'id'>; definitionHash: string; artifactId: string };

export interface StepResult {
  output: unknown;
  costUsd: number;
  /**
   * The step submitted a job to its provider (or found one still running) and is not done: the workflow
   * waits, with no worker held, for the provider's webhook or the time to look again, then runs the step
   * again with `resumesJob`.
   */
  job?: { provider: string; jobId: string; checkAfterMs?: number };
  /** With ExecuteStepInput.settleRun: the status the run was settled with, or that a cancel came first. */
  run?: { status: SettleRunInput['status']; cancelRequested?: undefined } | { status: string; cancelRequested: true };
}

/** Enough of a step to record it: a planned step or a whole one. */
export type StepIdentity = Pick<Step, 'id' | 'name' | 'kind'>;

export interface SkipStepInput {
  runId: string;
  stepIndex: number;
  step: StepIdentity;
  output: unknown;
}

export interface PrepareChildInput {
  parentRunId: string;
  childRunId: string;
  stepIndex: number;
  /** The subWorkflow step: its identity and the child it starts (a planned step carries these). */
  step: StepIdentity & Pick<Step, 'templateId' | 'templateVersion' | 'intakeMapping'>;
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
