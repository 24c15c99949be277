import type { Kysely } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import * as foundation from './migrations/2026-11-22T1000-foundation.js';
import * as engine from './migrations/2026-11-22T1100-engine.js';
import * as orders from './migrations/2026-11-22T1200-orders-budgets.js';
import * as characters from './migrations/2026-11-22T1310-characters-consent.js';
import * as clients from './migrations/2026-11-22T1320-clients.js';
import * as characterIds from './migrations/2026-11-23T0900-character-ids.js';
import * as engineCommands from './migrations/2026-11-23T0910-engine-commands.js';
import * as brandsCampaigns from './migrations/2026-11-23T1000-brands-campaigns.js';
import * as publications from './migrations/2026-11-23T1100-publications.js';
import * as webhookEndpoints from './migrations/2026-11-24T0900-webhook-endpoints.js';
import * as engineCommandTraceparent from './migrations/2026-11-24T1000-engine-command-traceparent.js';
import * as providerCalls from './migrations/2026-11-24T1100-provider-calls.js';
import * as runEventSeq from './migrations/2026-11-25T0900-run-event-seq.js';
import * as runCancelRequested from './migrations/2026-11-26T0900-run-cancel-requested.js';
import * as tableChanges from './migrations/2026-11-27T0900-table-changes.js';
import * as orderClaims from './migrations/2026-11-28T0900-order-claims.js';
import * as loginThrottles from './migrations/2026-11-29T0900-login-throttles.js';
import * as priorityConcurrency from './migrations/2026-11-30T0900-priority-concurrency.js';
import * as providerCapacity from './migrations/2026-11-30T1000-provider-capacity.js';
import * as providerJobs from './migrations/2026-12-01T0900-provider-jobs.js';
import * as unpricedCalls from './migrations/2026-12-01T1000-unpriced-calls.js';
import * as stepFallbacks from './migrations/2026-12-01T1100-step-fallbacks.js';
import * as providerBatches from './migrations/2026-12-01T1200-provider-batches.js';

/**
 * Migrations are listed in code (not read from a folder) so that they travel with the package and the
 * order is explicit. Names are timestamps; add new ones at the end.
 */
const MIGRATIONS: Record<string, Migration> = {
  '2026-11-22T1000-foundation': foundation,
  '2026-11-22T1100-engine': engine,
  '2026-11-22T1200-orders-budgets': orders,
  '2026-11-22T1310-characters-consent': characters,
  '2026-11-22T1320-clients': clients,
  '2026-11-23T0900-character-ids': characterIds,
  '2026-11-23T0910-engine-commands': engineCommands,
  '2026-11-23T1000-brands-campaigns': brandsCampaigns,
  '2026-11-23T1100-publications': publications,
  '2026-11-24T0900-webhook-endpoints': webhookEndpoints,
  '2026-11-24T1000-engine-command-traceparent': engineCommandTraceparent,
  '2026-11-24T1100-provider-calls': providerCalls,
  '2026-11-25T0900-run-event-seq': runEventSeq,
  '2026-11-26T0900-run-cancel-requested': runCancelRequested,
  '2026-11-27T0900-table-changes': tableChanges,
  '2026-11-28T0900-order-claims': orderClaims,
  '2026-11-29T0900-login-throttles': loginThrottles,
  '2026-11-30T0900-priority-concurrency': priorityConcurrency,
  '2026-11-30T1000-provider-capacity': providerCapacity,
  '2026-12-01T0900-provider-jobs': providerJobs,
  '2026-12-01T1000-unpriced-calls': unpricedCalls,
  '2026-12-01T1100-step-fallbacks': stepFallbacks,
  '2026-12-01T1200-provider-batches': providerBatches,
};

class InCodeMigrations implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return MIGRATIONS;
  }
}

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new InCodeMigrations() });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
