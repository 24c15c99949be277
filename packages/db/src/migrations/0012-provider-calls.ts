import { type Kysely, sql } from 'kysely';

/**
 * What every provider call really cost, one row per answered call, written as soon as the provider answers
 * (its own small write, outside the step's settlement): a step executed again after its worker died calls the
 * model again, and a paid provider charges for both calls, while the step is billed once. `step_attempt` is
 * the step's `attempts` counter when the call was made; `call_key` is the call's idempotency key, so a call
 * repeated by a later attempt shows as the same key twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE provider_calls (
      id bigserial PRIMARY KEY,
      run_id text NOT NULL,
      step_index integer NOT NULL,
      step_attempt integer NOT NULL CHECK (step_attempt >= 1),
      call_key text NOT NULL,
      provider text NOT NULL,
      model text NOT NULL,
      cost_usd numeric(14, 6) NOT NULL CHECK (cost_usd >= 0),
      at timestamptz NOT NULL DEFAULT clock_timestamp(),
      FOREIGN KEY (run_id, step_index) REFERENCES run_steps (run_id, step_index) ON DELETE CASCADE
    );
    CREATE INDEX provider_calls_step ON provider_calls (run_id, step_index);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE provider_calls`.execute(db);
}
