import { type Kysely, sql } from 'kysely';

/**
 * Text calls sent through providers' batch interfaces (packages/db/src/provider-batches.ts). A
 * `provider_batches` row is one batch of one model: `open` while it collects calls, `sending` while it
 * goes up, `sent` with the provider's id while the provider works, then `ended` (or `failed`). A
 * `provider_batch_items` row is one call, keyed by its idempotency key, and its outcome once the batch
 * answered it; `served` turns true when its step is first handed the answer (its spend recorded then, once). At most one batch per model is open.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE provider_batches (
      id text PRIMARY KEY,
      provider text NOT NULL,
      model text NOT NULL,
      status text NOT NULL CHECK (status IN ('open', 'sending', 'sent', 'ended', 'failed')),
      batch_id text,
      opened_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz,
      checked_at timestamptz NOT NULL DEFAULT '-infinity',
      ended_at timestamptz,
      failure text
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX provider_batches_open ON provider_batches (provider, model) WHERE status = 'open'`.execute(db);
  await sql`
    CREATE TABLE provider_batch_items (
      call_key text PRIMARY KEY,
      batch text NOT NULL REFERENCES provider_batches (id),
      run_id text NOT NULL,
      request jsonb NOT NULL,
      outcome jsonb,
      served boolean NOT NULL DEFAULT false,
      added_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX provider_batch_items_by_batch ON provider_batch_items (batch)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE provider_batch_items`.execute(db);
  await sql`DROP TABLE provider_batches`.execute(db);
}
