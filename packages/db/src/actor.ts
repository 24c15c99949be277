import { type Transaction, sql } from 'kysely';
import type { Database } from './schema.js';

/**
 * Histories the database writes itself (consent moves, client status changes) take who acts and why
 * from these transaction-local settings, so a write that bypasses the API still leaves a trace.
 */
export async function actAs(tx: Transaction<Database>, actorId: string | null, reason: string | null = null): Promise<void> {
  await sql`select set_config('atelier.actor_id', ${actorId ?? ''}, true), set_config('atelier.reason', ${reason ?? ''}, true)`.execute(tx);
}
