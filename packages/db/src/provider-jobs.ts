import { sql } from 'kysely';
import type { Db } from './connect.js';

export type ProviderJobStatus = 'submitting' | 'pending' | 'succeeded' | 'failed' | 'cancelled';

export interface ProviderJobRow {
  call_key: string;
  run_id: string;
  step_index: number;
  provider: string;
  model: string;
  kind: 'image' | 'video';
  job_id: string | null;
  status: ProviderJobStatus;
  submissions: number;
}

/**
 * Claims the right to submit the job of one call: a new row, or a row whose earlier job ended without a
 * result (failed or cancelled: the engine decided to try again), counted as one more submission. Answers
 * undefined when a submission is in flight or a job is pending or done: the caller reattaches instead.
 */
export async function claimProviderJobSubmission(
  db: Db,
  job: Pick<ProviderJobRow, 'call_key' | 'run_id' | 'step_index' | 'provider' | 'model' | 'kind'>,
): Promise<ProviderJobRow | undefined> {
  const { rows } = await sql<ProviderJobRow>`
    INSERT INTO provider_jobs (call_key, run_id, step_index, provider, model, kind, status)
    VALUES (${job.call_key}, ${job.run_id}, ${job.step_index}, ${job.provider}, ${job.model}, ${job.kind}, 'submitting')
    ON CONFLICT (call_key) DO UPDATE
      SET status = 'submitting', job_id = NULL, submissions = provider_jobs.submissions + 1,
          provider = EXCLUDED.provider, model = EXCLUDED.model, submitted_at = now(), ended_at = NULL
      WHERE provider_jobs.status IN ('failed', 'cancelled')
    RETURNING *`.execute(db);
  return rows[0];
}

export async function getProviderJob(db: Db, callKey: string): Promise<ProviderJobRow | undefined> {
  const { rows } = await sql<ProviderJobRow>`SELECT * FROM provider_jobs WHERE call_key = ${callKey}`.execute(db);
  return rows[0];
}

/** The job a provider's completion webhook names. */
export async function findProviderJob(db: Db, provider: string, jobId: string): Promise<ProviderJobRow | undefined> {
  const { rows } = await sql<ProviderJobRow>`SELECT * FROM provider_jobs WHERE provider = ${provider} AND job_id = ${jobId}`.execute(db);
  return rows[0];
}

export async function recordProviderJobSubmitted(db: Db, callKey: string, jobId: string): Promise<void> {
  await sql`UPDATE provider_jobs SET job_id = ${jobId}, status = 'pending' WHERE call_key = ${callKey}`.execute(db);
}

/** The job ended (or its submission was refused): the next execution of the step may submit again. */
export async function recordProviderJobEnded(
  db: Db,
  callKey: string,
  status: Extract<ProviderJobStatus, 'succeeded' | 'failed' | 'cancelled'>,
): Promise<void> {
  await sql`UPDATE provider_jobs SET status = ${status}, ended_at = now() WHERE call_key = ${callKey}`.execute(db);
}

/** The jobs of a run that are still running on the provider's side (for a cancel to stop them). */
export async function pendingProviderJobs(db: Db, runId: string): Promise<ProviderJobRow[]> {
  const { rows } = await sql<ProviderJobRow>`
    SELECT * FROM provider_jobs WHERE run_id = ${runId} AND status = 'pending' ORDER BY step_index`.execute(db);
  return rows;
}

/** Marks a job's result handed to its step: true the first time only (then its spend is recorded). */
export async function serveProviderJob(db: Db, callKey: string): Promise<boolean> {
  const { rows } = await sql`UPDATE provider_jobs SET served = true WHERE call_key = ${callKey} AND NOT served RETURNING call_key`.execute(
    db,
  );
  return rows.length > 0;
}
