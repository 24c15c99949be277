import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { Logger } from 'pino';
import { type Db, getRunRow, moveRunStatus, settleStep, startStep } from '@atelier/db';
import { type ModelRegistry, qaForContent } from '@atelier/domain';
import type { ExecuteStepInput, SettleRunInput, StepResult } from '../run-types';
import type { ProviderSet } from '../providers/index';
import { StepFailure, executeStepKind } from './step-executors';

export interface ActivityDeps {
  db: Db;
  models: ModelRegistry;
  providers: ProviderSet;
  logger: Logger;
  schemaAttempts?: number;
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

/**
 * Every activity is idempotent: it is keyed by the run and step index, so a retry after a worker crash
 * returns what was already recorded instead of calling a model or writing again.
 */
export function createActivities(deps: ActivityDeps) {
  const { db } = deps;
  const executorDeps = { models: deps.models, providers: deps.providers, schemaAttempts: deps.schemaAttempts ?? 3 };

  return {
    async markRunRunning(input: { runId: string }): Promise<void> {
      await moveRunStatus(db, input.runId, 'running');
    },

    async executeStep(input: ExecuteStepInput): Promise<StepResult> {
      const { runId, stepIndex, step } = input;
      const log = deps.logger.child({ runId, stepId: step.id });
      const row = await startStep(db, { runId, stepIndex, stepId: step.id, name: step.name, kind: step.kind });
      if (row.status === 'completed' || row.status === 'skipped') return { output: row.output };
      if (row.status === 'failed') {
        throw ApplicationFailure.nonRetryable(row.error ?? `step ${step.id} failed`, row.error_code ?? 'step_failed');
      }
      const started = Date.now();
      try {
        const result = await withHeartbeat((signal) => executeStepKind(step, input.context, input.bindings, executorDeps, signal));
        await settleStep(db, {
          runId,
          stepIndex,
          status: 'completed',
          provider: result.provider,
          model: result.model,
          durationMs: Date.now() - started,
          costActualUsd: result.costUsd,
          output: result.output,
        });
        return { output: result.output };
      } catch (err) {
        if (err instanceof StepFailure) {
          await settleStep(db, {
            runId,
            stepIndex,
            status: 'failed',
            provider: err.provider,
            model: err.model,
            durationMs: Date.now() - started,
            costActualUsd: err.costUsd,
            error: err.message,
            errorCode: err.errorCode,
          });
          throw ApplicationFailure.nonRetryable(err.message, err.errorCode);
        }
        log.warn({ err }, 'step attempt failed; the engine retries transient failures');
        throw err;
      }
    },

    /** Writes the run's terminal status, and its artifact when there is one, in one transaction. */
    async settleRun(input: SettleRunInput & { failedStepIndex?: number }): Promise<void> {
      if (input.failedStepIndex !== undefined) {
        await settleStep(db, {
          runId: input.runId,
          stepIndex: input.failedStepIndex,
          status: 'failed',
          error: input.error ?? 'step failed',
          errorCode: input.errorCode ?? null,
        });
      }
      const run = await getRunRow(db, input.runId);
      if (!run) throw ApplicationFailure.nonRetryable(`run ${input.runId} is not in the database`, 'run_missing');
      const schema = (run.definition as { artifactSchema?: { artifactClass: string; artifactType: string } }).artifactSchema;
      const artifact =
        input.artifact && schema
          ? (() => {
              const content = input.artifact.content as Record<string, unknown>;
              return {
                id: input.artifact.id,
                run_id: run.id,
                workspace_id: run.workspace_id,
                project_id: run.project_id,
                template_id: run.template_id,
                title: typeof content?.title === 'string' && content.title ? content.title : run.template_name,
                status: input.status === 'review' ? 'review' : 'ready',
                artifact_class: schema.artifactClass,
                artifact_type: schema.artifactType,
                content: JSON.stringify(content),
                qa: JSON.stringify(qaForContent(schema.artifactType, content)),
              };
            })()
          : undefined;
      await moveRunStatus(
        db,
        input.runId,
        input.status,
        {
          error: input.error ?? null,
          error_code: input.errorCode ?? null,
          failure_details: input.failureDetails ? JSON.stringify(input.failureDetails) : null,
        },
        artifact,
      );
    },
  };
}

export type EngineActivities = ReturnType<typeof createActivities>;
