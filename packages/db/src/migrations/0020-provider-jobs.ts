import { type Kysely, sql } from 'kysely';

/**
 * Provider jobs (packages/db/src/provider-jobs.ts): one row per model call that runs as a job on the
 * provider's side, keyed by the call's idempotency key, so a step executed again after a crash finds the
 * job it already submitted instead of buying it twice. `job_id` is null while the submission is in flight.
 * `served` turns true when a step is first handed the job's result (its spend is recorded then, once).
 * A completion webhook names the provider's job id: the second index finds the run it belongs to.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE provider_jobs (
      call_key text PRIMARY KEY,
      run_id text NOT NULL,
      step_index integer NOT NULL,
      provider text NOT NULL,
      model text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('image', 'video')),
      job_id text,
      status text NOT NULL CHECK (status IN ('submitting', 'pending', 'succeeded', 'failed', 'cancelled')),
      submissions integer NOT NULL DEFAULT 1,
      served boolean NOT NULL DEFAULT false,
      submitted_at timestamptz NOT NULL DEFAULT now(),
      ended_at timestamptz
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX provider_jobs_by_job ON provider_jobs (provider, job_id) WHERE job_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX provider_jobs_by_run ON provider_jobs (run_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE provider_jobs`.execute(db);
}
