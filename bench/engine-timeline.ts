/**
 * Where a run's time goes (bench/engine.ts), from two clocks: the database's own timeline of each Atelier
 * run (run_events) and the Temporal histories of both sides (the server's clock).
 */
import type { Client } from '@temporalio/client';
import type { Db } from '@atelier/db';
import { TERMINAL, rawQuery } from './harness';
import { percentile, round1 } from './stats';

export interface RunSample {
  id: string;
  ms: number;
  /** Atelier only: POST /v1/runs response time, and wall-clock send and observed-terminal times. */
  postMs?: number;
  sentAt?: number;
  observedAt?: number;
}

const median = (values: number[]) =>
  round1(
    percentile(
      [...values].sort((a, b) => a - b),
      0.5,
    ),
  );

/**
 * The database's own timeline of each Atelier run (run_events.created_at, microseconds), as medians over
 * runs of: request sent -> run row written, written -> running (workflow start, first workflow task,
 * markRunRunning), running -> first step started, inside a step (step.started -> step.completed rows),
 * between steps (step.completed -> next step.started: activity completion, workflow task, dispatch of the
 * next activity), step-to-step cycle, last step -> settled, settled -> seen by the bench's read-model check.
 */
export async function runTimeline(db: Db, samples: RunSample[], steps: number): Promise<Record<string, number>> {
  if (samples.length === 0) return {};
  const rows = await rawQuery<{ run_id: string; type: string; status: string | null; step_index: number | null; at_ms: number }>(
    db,
    `select run_id, type, data->>'status' as status, (data->>'stepIndex')::int as step_index,
            (extract(epoch from created_at) * 1000)::float8 as at_ms
       from run_events where run_id = any($1::text[]) order by run_id, seq`,
    [samples.map((s) => s.id)],
  );
  const byRun = new Map<string, typeof rows>();
  for (const r of rows) byRun.set(r.run_id, [...(byRun.get(r.run_id) ?? []), r]);
  const m: Record<string, number[]> = {
    sentToCreated: [],
    createdToRunning: [],
    runningToFirstStep: [],
    inStep: [],
    betweenSteps: [],
    stepCycle: [],
    lastStepToSettled: [],
    settledToSeen: [],
  };
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  for (const s of samples) {
    const events = byRun.get(s.id) ?? [];
    const created = events[0]?.at_ms;
    const running = events.find((e) => e.type === 'run.status' && e.status === 'running')?.at_ms;
    const settled = events.find((e) => e.type === 'run.status' && e.status !== null && TERMINAL.has(e.status))?.at_ms;
    const started = events
      .filter((e) => e.type === 'step.started')
      .sort((a, b) => a.step_index! - b.step_index!)
      .map((e) => e.at_ms);
    const completed = events
      .filter((e) => e.type === 'step.completed')
      .sort((a, b) => a.step_index! - b.step_index!)
      .map((e) => e.at_ms);
    if (created === undefined || running === undefined || settled === undefined || started.length !== steps || completed.length !== steps)
      continue;
    if (s.sentAt !== undefined) m.sentToCreated!.push(created - s.sentAt);
    m.createdToRunning!.push(running - created);
    m.runningToFirstStep!.push(started[0]! - running);
    m.inStep!.push(mean(started.map((t, k) => completed[k]! - t)));
    m.betweenSteps!.push(mean(started.slice(1).map((t, k) => t - completed[k]!)));
    m.stepCycle!.push(mean(started.slice(1).map((t, k) => t - started[k]!)));
    m.lastStepToSettled!.push(settled - completed[steps - 1]!);
    if (s.observedAt !== undefined) m.settledToSeen!.push(s.observedAt - settled);
  }
  return { runs: m.createdToRunning!.length, ...Object.fromEntries(Object.entries(m).map(([k, v]) => [`${k}Ms`, median(v)])) };
}

/** A protobuf Timestamp (seconds may be a Long) in epoch milliseconds. */
const tsMs = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  t ? Number(String(t.seconds ?? 0)) * 1000 + (t.nanos ?? 0) / 1e6 : Number.NaN;

/**
 * Per step, from Temporal histories (the server's clock), medians over the sampled workflows of:
 * dispatch (activity scheduled -> started on the worker), activity (started -> completed) and
 * turnaround (completed -> the next activity scheduled: a workflow task on the worker).
 */
export async function temporalCycle(client: Client, workflowIds: string[]): Promise<Record<string, number>> {
  const dispatch: number[] = [];
  const activity: number[] = [];
  const turnaround: number[] = [];
  const historyEvents: number[] = [];
  for (const id of workflowIds) {
    const history = await client.workflow.getHandle(id).fetchHistory();
    const scheduled: Array<{ id: string; at: number }> = [];
    const startedAt = new Map<string, number>();
    const completedAt = new Map<string, number>();
    for (const e of history.events ?? []) {
      if (e.activityTaskScheduledEventAttributes) scheduled.push({ id: String(e.eventId), at: tsMs(e.eventTime) });
      if (e.activityTaskStartedEventAttributes)
        startedAt.set(String(e.activityTaskStartedEventAttributes.scheduledEventId), tsMs(e.eventTime));
      if (e.activityTaskCompletedEventAttributes)
        completedAt.set(String(e.activityTaskCompletedEventAttributes.scheduledEventId), tsMs(e.eventTime));
    }
    historyEvents.push(history.events?.length ?? 0);
    scheduled.forEach((s, k) => {
      const started = startedAt.get(s.id);
      const completed = completedAt.get(s.id);
      if (started !== undefined) dispatch.push(started - s.at);
      if (started !== undefined && completed !== undefined) activity.push(completed - started);
      const next = scheduled[k + 1];
      if (next && completed !== undefined) turnaround.push(next.at - completed);
    });
  }
  return {
    workflows: workflowIds.length,
    historyEvents: median(historyEvents),
    dispatchMs: median(dispatch),
    activityMs: median(activity),
    turnaroundMs: median(turnaround),
  };
}

/** Up to n ids spread evenly over the samples. */
export const spread = (samples: RunSample[], n: number) =>
  samples
    .filter((_, i) => i % Math.max(1, Math.floor(samples.length / n)) === 0)
    .slice(0, n)
    .map((s) => s.id);

/**
 * When the runs of a burst reached each milestone, in ms after `t0` (epoch ms, the first POST), from the
 * database's clock: p50, p90 and the last run. Where the makespan goes: a late `created` is the gateway, a
 * late `running` the hand-over to Temporal, a late step the worker or the server.
 */
export async function burstMilestones(
  db: Db,
  runIds: string[],
  t0: number,
): Promise<Record<string, { p50: number; p90: number; last: number }>> {
  const rows = await rawQuery<{ run_id: string; type: string; status: string | null; step_index: number | null; at_ms: number }>(
    db,
    `select run_id, type, data->>'status' as status, (data->>'stepIndex')::int as step_index,
            (extract(epoch from created_at) * 1000)::float8 as at_ms
       from run_events where run_id = any($1::text[]) order by run_id, seq`,
    [runIds],
  );
  const at: Record<string, number[]> = {};
  const add = (name: string, ms: number | undefined) => {
    if (ms !== undefined) (at[name] ??= []).push(ms - t0);
  };
  const byRun = new Map<string, typeof rows>();
  for (const r of rows) byRun.set(r.run_id, [...(byRun.get(r.run_id) ?? []), r]);
  for (const events of byRun.values()) {
    add('created', events[0]?.at_ms);
    add('running', events.find((e) => e.type === 'run.status' && e.status === 'running')?.at_ms);
    for (const e of events) if (e.type === 'step.started' || e.type === 'step.completed') add(`${e.type}[${e.step_index}]`, e.at_ms);
    add('settled', events.find((e) => e.type === 'run.status' && e.status !== null && TERMINAL.has(e.status))?.at_ms);
  }
  return Object.fromEntries(
    Object.entries(at).map(([name, values]) => {
      const sorted = values.sort((a, b) => a - b);
      return [
        name,
        { p50: Math.round(percentile(sorted, 0.5)), p90: Math.round(percentile(sorted, 0.9)), last: Math.round(sorted.at(-1)!) },
      ];
    }),
  );
}

/**
 * The start of each sampled workflow on the server's clock, in ms after `t0`: execution started, first
 * workflow task scheduled, picked up by a worker, completed, first activity scheduled and picked up. With
 * burstMilestones, says whether a late start waits on the hand-over, the server or the worker's pollers.
 */
export async function startPath(client: Client, workflowIds: string[], t0: number): Promise<Record<string, { p50: number; last: number }>> {
  const at: Record<string, number[]> = {};
  const add = (name: string, ms: number) => (at[name] ??= []).push(ms - t0);
  for (const id of workflowIds) {
    const history = await client.workflow.getHandle(id).fetchHistory();
    const first = (has: (e: NonNullable<typeof history.events>[number]) => unknown) => history.events?.find((e) => has(e));
    const steps: Array<[string, ReturnType<typeof first>]> = [
      ['executionStarted', first((e) => e.workflowExecutionStartedEventAttributes)],
      ['workflowTaskScheduled', first((e) => e.workflowTaskScheduledEventAttributes)],
      ['workflowTaskStarted', first((e) => e.workflowTaskStartedEventAttributes)],
      ['workflowTaskCompleted', first((e) => e.workflowTaskCompletedEventAttributes)],
      ['activityScheduled', first((e) => e.activityTaskScheduledEventAttributes)],
      ['activityStarted', first((e) => e.activityTaskStartedEventAttributes)],
    ];
    for (const [name, e] of steps) if (e) add(name, tsMs(e.eventTime));
  }
  return Object.fromEntries(
    Object.entries(at).map(([name, values]) => {
      const sorted = values.sort((a, b) => a - b);
      return [name, { p50: Math.round(percentile(sorted, 0.5)), last: Math.round(sorted.at(-1)!) }];
    }),
  );
}
