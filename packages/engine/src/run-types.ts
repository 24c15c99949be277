/**
 * Types shared by the run workflow and its activities. Type-only: deterministic workflow code imports
 * this file with `import type`, so nothing here may be a value.
 */
import type { Gate, Step } from '@atelier/contracts/workflow-definition';
import type { Bindings } from '@atelier/domain/bindings';
import type { RunContext } from '@atelier/domain/run-context';
import type { RunPlan } from '@atelier/domain/run-plan';
import type { DecidedRunStatus } from '@atelier/domain/review';

/**
 * What a run workflow starts from: the run, the shape it takes (RUN_SHAPE, workflows/shapes.ts) and its definition
 * by reference, the plan and the definition's content hash. Inputs of retired shapes (the definition whole,
 * no shape, shapes 1-4) are no longer read: docs/operations.md, Retiring a workflow shape.
 */
export type RunWorkflowInput = RunStart & { shape: RunShape; plan: RunPlan; definitionHash: string };

/**
 * The workflow shape a run input names (RunWorkflowInput.shape): 5, 6 or 7, what the run workflow still takes.
 * Each shape was the one before and one change, numbered as they came (git log -S'RunShape'); 5 is all of:
 * each step's activity named after the step (id `<n>-<step id>`, summary `<n> · <name> (<kind>)`) and the
 * execution ending Failed or Canceled as the run does; no markRunRunning (the first step's start marks the run
 * running); every failure settling the run; a last step that no gate follows settling the run in its own
 * activity (ExecuteStepInput.settleRun); `RunStatus` written once, when the run settles; outputs only later
 * steps read kept by the worker (domain/output-refs.ts, ExecuteStepInput.outputRefs); and each step sent only
 * what the workflow alone knows: the step by its id, the artifact by its id, the execution mode only when it
 * is `batch` (the worker reads the rest from the definition it fetches by hash, activities/definitions.ts).
 * The shape is in the execution's first history event, so choosing by it is deterministic and records no
 * patch marker (each would be a history event plus a `TemporalChangeVersion` upsert on every run).
 *
 * 6 is 5 and one change: a run that settles `review` keeps its execution open until the decision
 * (reviewDecidedSignal, sent by the dispatcher once the queue recorded it) and then writes the decided status
 * to `RunStatus` and closes, so Temporal's view stays true after a review. A parent that starts a child in
 * this shape (an order, or a run's subWorkflow step) hears of the child's settlement by childSettledSignal
 * instead of its execution's close, and starts it with ParentClosePolicy REQUEST_CANCEL: its close (an order
 * that finished, a parent that failed, or either terminated) asks its children to cancel, which those in
 * flight do at their next step boundary and those waiting in review ignore (`review` is terminal). Only a
 * parent that listens names shape 6 or later (RUN_SHAPE) for its children (PrepareChildInput.runShape, claimOrderChildren's
 * `runShape`); a child not named one takes 5 (workflows/shapes.ts, where the branches on shape live).
 *
 * 7 is 6 and one change: a quick step (a `code` step, STEP_KIND_TRAITS `quick`, whose gate no model judges)
 * runs in the executeQuickStep local activity, inside the workflow task that reached it, instead of an
 * executeStep activity task: its history shows a marker where 6 has an activity and a workflow task more.
 * Parents that listen name 7 for their children, as they named 6.
 *
 * A new shape adds a number here and branches on it; the oldest go as docs/operations.md says.
 */
export type RunShape = 5 | 6 | 7;

export interface RunStart {
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
  /** The order workflow's shape (OrderShape), chosen by who starts it (client.ts) as a run's is. */
  shape: OrderShape;
}

/**
 * The order workflow's shape, 3 or 4; each was the one before and one change. 3 is all
 * of: children claimed ahead, a batch as large as the concurrency at a time, instead of one claim (an activity
 * and a database round trip) per child started; the next batch claimed as soon as one is used up, while its
 * children run, instead of when a slot frees up; an execution starting at least twice the concurrency in
 * children before it continues as new (not 400 whatever the concurrency), so a concurrency above 400 is
 * honoured. 4 is 3 and one change: its children take run shape 6 or later (RUN_SHAPE: they say they settled by signal and stay
 * open in review). Inputs without a shape and shapes 1-2 were retired (docs/operations.md, Retiring a
 * workflow shape).
 */
export type OrderShape = 3 | 4;

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
 * What the run workflow sends the executeStep activity: the step by its id and the run's artifact by its
 * id, with the definition's hash, from which the worker reads the full step (prompt, jsonSchema, params)
 * and the artifact's schema out of its cache of definitions instead of the history carrying them.
 */
export type StepCall = Omit<ExecuteStepInput, 'step' | 'artifact'> & { step: Pick<Step, 'id'>; definitionHash: string; artifactId: string };

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
/** The executeStep activity as the worker's layers wrap it (step-outputs.ts, definitions.ts). */
export type ExecuteStep = (input: ExecuteStepInput) => Promise<StepResult>;

export type StepIdentity = Pick<Step, 'id' | 'name' | 'kind'>;

export interface SkipStepInput {
  runId: string;
  stepIndex: number;
  step: StepIdentity;
  output: unknown;
}

export interface PrepareChildInput {
  parentRunId: string;
  /** The id the parent drew for its child; the child takes the next candidate when it is taken (childRunIdCandidates). */
  childRunId: string;
  stepIndex: number;
  /** The subWorkflow step: its identity and the child it starts (a planned step carries these). */
  step: StepIdentity & Pick<Step, 'templateId' | 'templateVersion' | 'intakeMapping'>;
  context: RunContext;
  /** The shape the child takes: a parent that hears childSettledSignal names RUN_SHAPE (6 or later); absent, the child takes 5. */
  runShape?: RunShape;
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
  /** How the run settled; a run of shape 6 or later that waited in review returns the decided status. */
  status: SettleRunInput['status'] | DecidedRunStatus;
  artifactId?: string;
  artifactType?: string;
  errorCode?: string;
  error?: string;
}
