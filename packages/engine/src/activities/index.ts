import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { Logger } from 'pino';
import {
  type Db,
  type RunRow,
  type RunSettledRow,
  checkCharacterUse,
  emitArtifact,
  getArtifact,
  getRunRow,
  moveRunStatus,
  type StepSettlement,
  type RunStepRow,
  settleStep,
  startStep,
} from '@atelier/db';
import { type CharacterVerdict, type ModelRegistry, isTerminalRunStatus, runCharacterUse, utcDay } from '@atelier/domain';
import { type EgressPolicy, egressPolicyFromEnv } from '@atelier/egress';
import type { ObjectStorage } from '@atelier/storage';
import { decideRunSettlement } from '@atelier/domain/run-settlement';
import { artifactRow } from '../artifacts';
import { VISUAL_TOOLS } from '../media/visual/index';
import { VIDEO_TOOLS } from '../media/video/index';
import { type ProviderSet, keyedProviders } from '../providers/index';
import type {
  EmitArtifactInput,
  ExecuteStepInput,
  PrepareChildInput,
  RunWorkflowInput,
  SettleChildStepInput,
  SettleRunInput,
  SkipStepInput,
  StepResult,
} from '../run-types';
import type { ExpressionEvaluator } from '../steps/code-expression';
import { type Tool, toolRegistry } from '../steps/tools';
import { completedWithStep, definitionOf, packOf, writeRunSettlement } from '../settlement';
import { type WorkerMetrics, observeSettlement, observeStep } from '../metrics';
import { prepareChildRun } from './child-runs';
import { ProviderCallLog } from './provider-call-log';
import { STEP_START_DEFER_MS, StepStartRecord } from './step-start';
import { StepFailure, executeStepKind } from './steps/index';

export interface ActivityDeps {
  db: Db;
  models: ModelRegistry;
  providers: ProviderSet;
  storage: ObjectStorage;
  logger: Logger;
  /** What tools may fetch from caller-named URLs; production's deny-private policy when absent. */
  egress?: EgressPolicy;
  tools?: Record<string, Tool>;
  /** Where code steps' expressions run; the worker closes it when it stops. */
  expressions: ExpressionEvaluator;
  schemaAttempts?: number;
  /** The worker's Prometheus metrics; absent, nothing is counted. */
  metrics?: WorkerMetrics;
}

/** Sends heartbeats while `work` runs so a dead worker is noticed within the heartbeat timeout. */
async function withHeartbeat<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ctx = Context.current();
  const timer = setInterval(() => ctx.heartbeat(), 2_000);
  try {
    return await work(ctx.cancellationSignal);
  } finally {
    clearInterval(timer);
  }
}

async function runOrThrow(db: Db, runId: string) {
  const run = await getRunRow(db, runId);
  if (!run) throw ApplicationFailure.nonRetryable(`run ${runId} is not in the database`, 'run_missing');
  return run;
}

/**
 * Every activity is idempotent: keyed by the run and step index, a retry after a worker crash returns
 * what was already recorded instead of calling a model or writing again.
 */
export function createActivities(deps: ActivityDeps) {
  const { db } = deps;
  const executorDeps = {
    models: deps.models,
    providers: deps.providers,
    storage: deps.storage,
    tools: deps.tools ?? toolRegistry({ ...VISUAL_TOOLS, ...VIDEO_TOOLS }),
    expressions: deps.expressions,
    schemaAttempts: deps.schemaAttempts ?? 3,
    egress: deps.egress ?? egressPolicyFromEnv({}),
    logger: deps.logger,
    metrics: deps.metrics,
    async findArtifact(runId: string, artifactId: string) {
      const [run, artifact] = await Promise.all([getRunRow(db, runId), getArtifact(db, artifactId)]);
      if (!run || !artifact || artifact.workspace_id !== run.workspace_id) return undefined;
      return {
        id: artifact.id,
        artifactClass: artifact.artifact_class,
        artifactType: artifact.artifact_type,
        content: artifact.content as Record<string, unknown>,
      };
    },
  };

  const activities = {
    async markRunRunning(input: { runId: string }): Promise<void> {
      await moveRunStatus(db, input.runId, 'running');
    },

    /** The character gate again, as the gateway judged it, for a run about to start after waiting. */
    async recheckCharacter(input: { runId: string }): Promise<CharacterVerdict> {
      const run = await runOrThrow(db, input.runId);
      const intake = run.intake as Record<string, unknown>;
      const definition = run.definition as { artifactSchema: { artifactClass: string } };
      return checkCharacterUse(db, {
        workspaceId: run.workspace_id,
        characterId: String(intake.characterId),
        ...runCharacterUse({
          artifactClass: definition.artifactSchema.artifactClass,
          bindings: run.bindings as Record<string, string>,
          intake,
          on: utcDay(),
        }),
      });
    },

    async executeStep(input: ExecuteStepInput): Promise<StepResult> {
      const { runId, stepIndex, step } = input;
      // A first attempt writes its start late (quick steps with their settlement); a retry reads the earlier one's.
      const first = Context.current().info.attempt === 1;
      const start = new StepStartRecord(
        db,
        { runId, stepIndex, stepId: step.id, name: step.name, kind: step.kind },
        first ? STEP_START_DEFER_MS : 0,
      );
      // The run as the step's settlement left it, when this step settles the run next.
      let settledRun: RunRow | undefined;
      // The run as settled with the step, in its statement.
      let settledWithStep: RunSettledRow | undefined;
      // A run's last step may settle the run too (shape 2); a retry after both were written settles nothing twice.
      const completed = async (output: unknown, costUsd: number): Promise<StepResult> => {
        if (!input.settleRun) return { output, costUsd };
        if (settledWithStep) {
          observeSettlement(
            deps.metrics,
            { template_id: settledWithStep.template_id, definition: { gates: settledWithStep.gates } },
            { status: 'completed' },
            settledWithStep.status,
          );
          return { output: undefined, costUsd, run: { status: settledWithStep.status as SettleRunInput['status'] } };
        }
        const run = await settleRunAs(
          {
            runId,
            status: 'completed',
            artifact: { id: input.settleRun.artifactId, content: output },
            sourceReportArtifactId: input.settleRun.sourceReportArtifactId,
          },
          { unlessCancelRequested: true, run: settledRun },
        );
        // Nothing in the workflow reads the output of a step that settled its run: it stays out of the
        // history (it is the artifact, and the step's output in the read model).
        return { output: undefined, costUsd, run: run as StepResult['run'] };
      };
      // What an earlier execution of the step recorded stands: it is returned, not run again.
      const asRecorded = (row: RunStepRow): Promise<StepResult> => {
        if (row.status === 'failed')
          throw ApplicationFailure.nonRetryable(row.error ?? `step ${step.id} failed`, row.error_code ?? 'step_failed');
        return completed(row.output, Number(row.cost_actual_usd));
      };
      const row = first ? undefined : await start.now();
      if (row && row.status !== 'pending') return asRecorded(row);
      const started = Date.now();
      // Every call is keyed for the provider and its spend kept as it answers: this attempt may not live to settle.
      const calls = new ProviderCallLog(db, { runId, stepIndex, stepAttempt: row?.attempts ?? 1 }, deps.metrics, () => start.now());
      const providers = keyedProviders(deps.providers, { runId, stepIndex }, calls.answered, calls.flush);
      const settle = async (
        settlement: Omit<StepSettlement, 'runId' | 'stepIndex' | 'durationMs' | 'providerCalls'> & { status: 'completed' | 'failed' },
      ) => {
        const durationMs = Date.now() - started;
        const recorded = { runId, stepIndex, durationMs, providerCalls: calls.pending(), ...settlement };
        // A last step that completed settles its run too: in the step's own statement when it can.
        const settles = settlement.status === 'completed' ? input.settleRun : undefined;
        const written = await start.settle(
          recorded,
          !!settles,
          settles &&
            completedWithStep(input.artifact, { id: settles.artifactId, content: settlement.output }, settles.sourceReportArtifactId),
        );
        if (written.earlier) {
          // Begun and settled by an earlier execution: that settlement stands, this attempt's calls are kept.
          await calls.flush();
          return written.earlier;
        }
        settledRun = written.run;
        settledWithStep = written.settled;
        calls.recorded();
        observeStep(deps.metrics, {
          kind: step.kind,
          provider: settlement.provider ?? null,
          model: settlement.model ?? null,
          status: settlement.status,
          durationMs,
          costUsd: settlement.costActualUsd ?? 0,
        });
      };
      try {
        const result = await withHeartbeat((signal) => executeStepKind(input, { ...executorDeps, providers }, signal));
        const earlier = await settle({
          status: 'completed',
          provider: result.provider,
          model: result.model,
          costActualUsd: result.costUsd,
          output: result.output,
        });
        return await (earlier ? asRecorded(earlier) : completed(result.output, result.costUsd));
      } catch (err) {
        if (err instanceof StepFailure) {
          const earlier = await settle({
            status: 'failed',
            provider: err.provider,
            model: err.model,
            costActualUsd: err.costUsd,
            error: err.message,
            errorCode: err.errorCode,
          });
          if (earlier) return await asRecorded(earlier);
          throw ApplicationFailure.create({
            message: err.message,
            type: err.errorCode,
            nonRetryable: true,
            details: err.details ? [err.details] : [],
          });
        }
        // The attempt gives up (to be retried): it shows as begun, and what it was charged is kept all the same.
        await start
          .now()
          .then(calls.flush)
          .catch((flushErr) => deps.logger.warn({ err: flushErr, runId }, 'provider calls of a failed attempt not recorded'));
        deps.logger.warn({ err, runId, stepId: step.id }, 'step attempt failed; the engine retries transient failures');
        throw err;
      }
    },

    /** A step satisfied by a supplied artifact: recorded as skipped, its output the supplied content. */
    async skipStep(input: SkipStepInput): Promise<void> {
      const { runId, stepIndex, step } = input;
      // Started and settled at once: one statement for a step that has nothing to run.
      await new StepStartRecord(db, { runId, stepIndex, stepId: step.id, name: step.name, kind: step.kind }, 0).settle(
        { runId, stepIndex, status: 'skipped', output: input.output, durationMs: 0 },
        false,
      );
    },

    async prepareChildRun(input: PrepareChildInput): Promise<RunWorkflowInput> {
      await startStep(db, {
        runId: input.parentRunId,
        stepIndex: input.stepIndex,
        stepId: input.step.id,
        name: input.step.name,
        kind: input.step.kind,
      });
      try {
        return await prepareChildRun(db, deps.models, input);
      } catch (err) {
        if (!(err instanceof StepFailure)) throw err;
        await settleStep(db, {
          runId: input.parentRunId,
          stepIndex: input.stepIndex,
          status: 'failed',
          error: err.message,
          errorCode: err.errorCode,
        });
        throw ApplicationFailure.nonRetryable(err.message, err.errorCode);
      }
    },

    /** Settles a subWorkflow step from its child run: the child's artifact becomes the step output. */
    async settleChildStep(input: SettleChildStepInput): Promise<StepResult> {
      const artifact = input.artifactId ? await getArtifact(db, input.artifactId) : undefined;
      const output = {
        runId: input.childRunId,
        status: input.childStatus,
        artifactId: input.artifactId ?? null,
        ...((artifact?.content as object) ?? {}),
      };
      // The child's spend is billed on the child run; the parent's step carries none, so totals never count it twice.
      await settleStep(db, { runId: input.runId, stepIndex: input.stepIndex, status: 'completed', output, costActualUsd: 0 });
      return { output, costUsd: 0 };
    },

    async emitArtifact(input: EmitArtifactInput): Promise<void> {
      const run = await runOrThrow(db, input.runId);
      await emitArtifact(db, input.runId, artifactRow(run, input.artifact, 'draft', null, await packOf(db, run)));
    },

    /**
     * Writes the run's terminal status, and its artifact when there is one. A run whose artifact fails QA
     * is held for review instead of completing; the status written is returned.
     */
    async settleRun(input: SettleRunInput): Promise<{ status: SettleRunInput['status'] }> {
      const settled = await settleRunAs(input);
      return { status: settled.status as SettleRunInput['status'] };
    },
  };

  /**
   * The run's settlement as the workflow decided it, under the one settlement rule (decideRunSettlement:
   * the QA hold). With `unlessCancelRequested` (a last step settling its run) nothing is written once a
   * cancel was asked for, and the answer says so: the workflow then settles the run cancelled.
   */
  async function settleRunAs(input: SettleRunInput, opts: { unlessCancelRequested?: boolean; run?: RunRow } = {}): Promise<RunSettled> {
    const run = opts.run ?? (await runOrThrow(db, input.runId));
    if (input.failedStepIndex !== undefined) {
      // A step refused before it ran (a locked gate, a child that failed) still shows as the failed one.
      const step = (run.definition as { runtimeSteps: Array<{ id: string; name: string; kind: string }> }).runtimeSteps[
        input.failedStepIndex
      ];
      if (step)
        await startStep(db, { runId: input.runId, stepIndex: input.failedStepIndex, stepId: step.id, name: step.name, kind: step.kind });
      await settleStep(db, {
        runId: input.runId,
        stepIndex: input.failedStepIndex,
        status: 'failed',
        error: input.error ?? 'step failed',
        errorCode: input.errorCode ?? null,
      });
    }
    const settlement = decideRunSettlement({
      definition: definitionOf(run),
      steps: [],
      decision: {
        status: input.status,
        error: input.error,
        errorCode: input.errorCode,
        failureDetails: input.failureDetails,
        ...(input.artifact ? { artifact: { content: input.artifact.content } } : {}),
        review: input.review,
      },
    });
    const written = await writeRunSettlement(db, run, settlement, {
      artifactId: input.artifact?.id,
      sourceReportArtifactId: input.sourceReportArtifactId,
      ...opts,
    });
    if (written && !isTerminalRunStatus(written.status) && written.cancel_requested_at)
      return { status: written.status, cancelRequested: true };
    observeSettlement(deps.metrics, run, input, written?.status ?? settlement.status);
    return { status: written?.status ?? settlement.status };
  }

  return activities;
}

/** What a settlement wrote: the run's status, or that a cancel was asked for first (nothing written). */
export type RunSettled = { status: string; cancelRequested?: true };

export type EngineActivities = ReturnType<typeof createActivities>;
