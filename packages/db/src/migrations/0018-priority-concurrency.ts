import { type Kysely, sql } from 'kysely';

/**
 * What a caller may say about how their work is scheduled. A run's or an order's `priority` (null: normal)
 * is read by the dispatcher when it starts the workflow (domain/priority.ts makes it Temporal's); an order's
 * `max_concurrency` (null: the deployment's ATELIER_ORDER_CONCURRENCY) caps its children in flight. Nullable
 * columns without a default: adding them rewrites no row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE runs ADD COLUMN priority text CHECK (priority IN ('high', 'normal', 'low'));
    ALTER TABLE orders ADD COLUMN priority text CHECK (priority IN ('high', 'normal', 'low'));
    ALTER TABLE orders ADD COLUMN max_concurrency integer CHECK (max_concurrency BETWEEN 1 AND 1000);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE runs DROP COLUMN priority;
    ALTER TABLE orders DROP COLUMN priority, DROP COLUMN max_concurrency;
  `.execute(db);
}
