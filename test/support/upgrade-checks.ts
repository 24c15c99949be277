import type { Client } from '@temporalio/client';
import type { Db } from '@atelier/db';

/**
 * What a run produced that does not depend on where or when it ran: its status, each step's status and
 * output, its cost and its artifact, keyed by the intake's topic. The local provider answers from the
 * prompt and the step's seed only, so the same intake gives the same fingerprint on any release's worker
 * and any latency; ids of the run, its artifact and its workspace are masked.
 */
export async function fingerprints(db: Db, runIds: string[]): Promise<Record<string, unknown>> {
  if (!runIds.length) return {};
  const runs = await db
    .selectFrom('runs')
    .select(['id', 'workspace_id', 'status', 'intake', 'actual_usd', 'artifact_id', 'error_code', 'template_id', 'workflow_version'])
    .where('id', 'in', runIds)
    .execute();
  const steps = await db
    .selectFrom('run_steps')
    .select(['run_id', 'step_index', 'step_id', 'kind', 'status', 'provider', 'model', 'output', 'cost_actual_usd'])
    .where('run_id', 'in', runIds)
    .orderBy('step_index')
    .execute();
  const artifacts = await db
    .selectFrom('artifacts')
    .select(['run_id', 'id', 'title', 'status', 'artifact_class', 'artifact_type', 'content', 'qa'])
    .where('run_id', 'in', runIds)
    .execute();
  const out: Record<string, unknown> = {};
  for (const run of runs) {
    const artifact = artifacts.find((a) => a.run_id === run.id);
    const shape = {
      template: `${run.template_id}@${run.workflow_version}`,
      status: run.status,
      errorCode: run.error_code,
      costUsd: Number(run.actual_usd),
      steps: steps
        .filter((s) => s.run_id === run.id)
        .map((s) => ({
          index: s.step_index,
          id: s.step_id,
          kind: s.kind,
          status: s.status,
          model: `${s.provider}/${s.model}`,
          costUsd: Number(s.cost_actual_usd),
          output: s.output,
        })),
      artifact: artifact
        ? {
            title: artifact.title,
            status: artifact.status,
            type: `${artifact.artifact_class}/${artifact.artifact_type}`,
            content: artifact.content,
            qa: artifact.qa,
          }
        : null,
    };
    let text = JSON.stringify(shape).replaceAll(run.id, '<run>').replaceAll(run.workspace_id, '<workspace>');
    if (artifact) text = text.replaceAll(artifact.id, '<artifact>');
    out[String((run.intake as { topic?: unknown }).topic)] = JSON.parse(text);
  }
  return out;
}

/** Each run's `step.completed` events per step index: a step that ran twice across the swap shows up as 2. */
export async function completedStepEvents(db: Db, runIds: string[]): Promise<Map<string, number[]>> {
  const events = await db
    .selectFrom('run_events')
    .select(['run_id', 'data'])
    .where('run_id', 'in', runIds)
    .where('type', '=', 'step.completed')
    .execute();
  const counts = new Map<string, number[]>();
  for (const e of events) {
    const index = (e.data as { stepIndex: number }).stepIndex;
    const row = counts.get(e.run_id) ?? [];
    row[index] = (row[index] ?? 0) + 1;
    counts.set(e.run_id, row);
  }
  return counts;
}

export interface TaskFailure {
  workflowId: string;
  cause: string;
  message: string;
}

/**
 * Every workflow task that failed on the queue's executions, read from their histories (Temporal's
 * own record, whichever worker failed it): a nondeterminism error fails the task again at every retry,
 * so a run stuck on one leaves these behind even if it later moved on.
 */
export async function workflowTaskFailures(temporal: Client, taskQueue: string): Promise<{ executions: number; failures: TaskFailure[] }> {
  const failures: TaskFailure[] = [];
  let executions = 0;
  for await (const execution of temporal.workflow.list({ query: `TaskQueue = "${taskQueue}"` })) {
    executions++;
    const history = await temporal.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory();
    for (const event of history.events ?? []) {
      const failed = event.workflowTaskFailedEventAttributes;
      if (!failed) continue;
      failures.push({ workflowId: execution.workflowId, cause: String(failed.cause), message: failed.failure?.message ?? '' });
    }
  }
  return { executions, failures };
}

/** Executions Temporal itself marks as having a problem (a workflow task failing or timing out repeatedly). */
export async function reportedProblems(temporal: Client, taskQueue: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const execution of temporal.workflow.list({ query: `TaskQueue = "${taskQueue}" AND TemporalReportedProblems IS NOT NULL` }))
    ids.push(execution.workflowId);
  return ids;
}

/** The nondeterminism counter's samples above zero on a worker's /metrics (none is the healthy answer). */
export async function nondeterminismSamples(workerPort: number): Promise<{ exported: boolean; nonZero: string[] }> {
  const text = await (await fetch(`http://127.0.0.1:${workerPort}/metrics`)).text();
  const lines = text.split('\n');
  return {
    exported: lines.some((l) => l.startsWith('# TYPE atelier_workflow_nondeterminism_total')),
    nonZero: lines.filter((l) => l.startsWith('atelier_workflow_nondeterminism_total') && !/ 0$/.test(l)),
  };
}
