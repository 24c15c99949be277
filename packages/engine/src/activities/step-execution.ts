import { ApplicationFailure } from '@temporalio/common';
import {
  type ProviderCallRecord,
  type RunRow,
  type RunSettledRow,
  type RunStepRow,
  type StepSettlement,
  getArtifact,
  getRunRow,
  getRunStep,
  recordStepFallbacks,
  runSpendCap,
} from '@atelier/db';
import type { StepFallback } from '@atelier/domain';
import { egressPolicyFromEnv } from '@atelier/egress';
import { VISUAL_TOOLS } from '../media/visual/index.js';
import { VIDEO_TOOLS } from '../media/video/index.js';
import { observeSettlement, observeStep } from '../metrics.js';
import { PROVIDER_JOB_ENDED_SIGNAL } from '../workflows/signal-names.js';
import { ProviderJobPending, withDurableJobs } from '../providers/durable-jobs.js';
import { keyedProviders } from '../providers/index.js';
import type { ExecuteStepInput, SettleRunInput, SkipStepInput, StepResult } from '../run-types.js';
import { completedWithStep } from '../settlement.js';
import { toolRegistry } from '../steps/tools.js';
import { currentAttempt } from './step-attempt.js';
import { CarriedAnswers } from './carried-answers.js';
import type { ActivityDeps } from './deps.js';
import { type OutageWait, patientStorage, waitOutOutages } from './outage-wait.js';
import { ProviderCallLog } from './provider-call-log.js';
import type { SettleRunAs } from './run-settlement.js';
import { STEP_START_DEFER_MS, StepStartRecord } from './step-start.js';
import { TextDeltaPublisher, announceTextDeltas } from './text-deltas.js';
import { StepFailure, executeStepKind } from './steps/index.js';
import { resolvedStepInput } from './steps/step-input.js';

/** Tells runs that the provider work they wait for ended (a batch answered their calls), as a webhook would. */
async function announceJobsEnded(ended: Array<{ runId: string; jobId: string }>): Promise<void> {
  const { client } = currentAttempt();
  // A run no longer waiting (settled, or looking already) is no error: it finds the answer when it looks.
  await Promise.all(
    ended.map((e) =>
      client.workflow
        .getHandle(e.runId)
        .signal(PROVIDER_JOB_ENDED_SIGNAL, { jobId: e.jobId })
        .catch(() => undefined),
    ),
  );
}

/**
 * A step's execution: its kind run with keyed provider calls, its spend kept as the provider answers, its
 * settlement written once (a retry returns what an earlier execution recorded), and a run's last step
 * settling the run in the same statement.
 */
export function createStepActivities(deps: ActivityDeps, settleRunAs: SettleRunAs) {
  const { db } = deps;
  // One for the worker's steps: their output's deltas share statements.
  const announceDelta = announceTextDeltas(db);
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
    runBudget: (runId: string) => runSpendCap(db, runId),
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

  return {
    // Run as a StepAttempt (step-attempt.ts): in the worker's slot heartbeating, or detached from it.
    async executeStep(input: ExecuteStepInput): Promise<StepResult> {
      const { runId, stepIndex, step } = input;
      const attempt = currentAttempt();
      // What the attempt paid for is not dropped for an outage: writes and stored files wait for the database
      // and storage to come back, as long as the attempt may run, heartbeating all along.
      const wait: OutageWait = {
        signal: attempt.signal,
        // Ended before the attempt times out (then its heartbeat still carries what it bought to the next).
        until: attempt.info.currentAttemptScheduledTimestampMs + attempt.info.startToCloseTimeoutMs - 30_000,
        onWait: (dependency, err, delayMs) => {
          deps.metrics?.outageWait.inc({ dependency }, delayMs / 1000);
          deps.logger.warn({ err, runId, stepId: step.id, dependency }, 'step waits for an outage to end, keeping what it bought');
        },
      };
      // Answers an earlier attempt bought and carried in its heartbeat: used, not bought again.
      const carried = CarriedAnswers.from(attempt.info.heartbeatDetails);
      // A first attempt writes its start late (quick steps with their settlement); a retry reads the earlier one's.
      const first = attempt.info.attempt === 1;
      // The step's input as resolved now, kept with its start, so a run read shows what went into each step.
      const identity = { runId, stepIndex, stepId: step.id, name: step.name, kind: step.kind, input: resolvedStepInput(input) };
      // A step run again after its provider job continues the attempt that submitted the job: no attempt is counted.
      const resumed = first && input.resumesJob ? await getRunStep(db, runId, stepIndex) : undefined;
      const start = resumed
        ? StepStartRecord.resumed(db, identity, resumed)
        : new StepStartRecord(db, identity, first ? STEP_START_DEFER_MS : 0);
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
      const row = resumed ?? (first ? undefined : await start.now());
      if (row && row.status !== 'pending') return asRecorded(row);
      const started = resumed?.started_at ? resumed.started_at.getTime() : Date.now();
      // Every call is keyed for the provider and its spend kept as it answers: this attempt may not live to settle.
      const calls = new ProviderCallLog(
        db,
        { runId, stepIndex, stepAttempt: row?.attempts ?? 1 },
        deps.metrics,
        () => start.now(),
        wait,
        deps.logger,
      );
      calls.carry(carried.unrecorded);
      attempt.details = () => carried.answers.details(calls.pending());
      // An image step's media from a provider that runs jobs, and a batch-mode step's text through its provider's
      // batch interface, are waited for by the workflow with no worker held (durable-jobs.ts); any other step
      // awaits such a job within its attempt.
      const media =
        step.kind === 'image' || input.executionMode === 'batch'
          ? withDurableJobs(deps.providers, { db, runId, stepIndex, ...deps.providerJobs, announce: announceJobsEnded })
          : deps.providers;
      const providers = keyedProviders(media, { runId, stepIndex }, calls.answered, calls.flush, carried.answers);
      // A text step's output goes to the run's event stream as it is written, after the step's start.
      const deltas = new TextDeltaPublisher({ runId, stepIndex, stepId: step.id, attempt: row?.attempts ?? 1 }, announceDelta, {
        before: () => start.now(),
        onError: (err) => deps.logger.warn({ err, runId, stepId: step.id }, 'output deltas of a step not announced'),
      });
      const settle = async (
        settlement: Omit<StepSettlement, 'runId' | 'stepIndex' | 'durationMs' | 'providerCalls'> & { status: 'completed' | 'failed' },
      ) => {
        const durationMs = Date.now() - started;
        const providerCalls: ProviderCallRecord[] = calls.pending();
        const recorded = { runId, stepIndex, durationMs, providerCalls, ...settlement };
        // A last step that completed settles its run too: in the step's own statement when it can.
        const settles = settlement.status === 'completed' ? input.settleRun : undefined;
        // The settlement is what keeps the step's result: an outage is waited out rather than the result dropped.
        const written = await waitOutOutages(
          () =>
            start.settle(
              recorded,
              !!settles,
              settles &&
                completedWithStep(input.artifact, { id: settles.artifactId, content: settlement.output }, settles.sourceReportArtifactId),
            ),
          { ...wait, dependency: 'database' },
        );
        if (written.earlier) {
          // Begun and settled by an earlier execution: that settlement stands, this attempt's calls are kept.
          await calls.flush();
          return written.earlier;
        }
        settledRun = written.run;
        settledWithStep = written.settled;
        calls.recorded(providerCalls);
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
        // A step resumed after its provider job does not ask again the models it fell back from before.
        const earlierFallbacks = (resumed?.fallbacks as StepFallback[] | null) ?? undefined;
        const storage = patientStorage(deps.storage, wait);
        const result = await executeStepKind(
          input,
          { ...executorDeps, providers, storage, onTextDelta: deltas.push, ...(earlierFallbacks ? { earlierFallbacks } : {}) },
          attempt.signal,
        );
        await deltas.close();
        const earlier = await settle({
          status: 'completed',
          provider: result.provider,
          model: result.model,
          costActualUsd: result.costUsd,
          output: result.output,
          fallbacks: result.fallbacks,
        });
        return await (earlier ? asRecorded(earlier) : completed(result.output, result.costUsd));
      } catch (err) {
        deltas.discard();
        if (err instanceof ProviderJobPending) {
          // Not done and not failed: the step shows as begun while the provider works, and what it bought so far is kept.
          await waitOutOutages(() => start.now(), { ...wait, dependency: 'database' });
          await calls.flush();
          if (err.fallbacks) await recordStepFallbacks(db, runId, stepIndex, err.fallbacks);
          return { output: undefined, costUsd: 0, job: err.job };
        }
        if (err instanceof StepFailure) {
          const earlier = await settle({
            status: 'failed',
            provider: err.provider,
            model: err.model,
            costActualUsd: err.costUsd,
            error: err.message,
            errorCode: err.errorCode,
            fallbacks: err.fallbacks,
          });
          if (earlier) return await asRecorded(earlier);
          throw ApplicationFailure.create({
            message: err.message,
            type: err.errorCode,
            nonRetryable: true,
            details: err.details ? [err.details] : [],
          });
        }
        // The attempt gives up (to be retried): it shows as begun, and what it was charged is kept all the same,
        // the database's outage waited out (calls.flush). Only a write refused for good is left to the heartbeat,
        // which carries the calls not written to the next attempt.
        await (calls.pending().length > 0 ? calls.flush() : start.now()).catch((flushErr) =>
          deps.logger.warn({ err: flushErr, runId }, 'provider calls of a failed attempt not recorded'),
        );
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
  };
}
