import type { Kysely } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import { carryOverFormerNames, refuseUnknownMigrations, takeMigrationLock } from './migration-names.js';

export { DatabaseFromNewerReleaseError, FORMER_MIGRATION_NAMES } from './migration-names.js';
import * as foundation from './migrations/0001-foundation.js';
import * as engine from './migrations/0002-engine.js';
import * as orders from './migrations/0003-orders-budgets.js';
import * as characters from './migrations/0004-characters-consent.js';
import * as clients from './migrations/0005-clients.js';
import * as characterIds from './migrations/0006-character-ids.js';
import * as engineCommands from './migrations/0007-engine-commands.js';
import * as brandsCampaigns from './migrations/0008-brands-campaigns.js';
import * as publications from './migrations/0009-publications.js';
import * as webhookEndpoints from './migrations/0010-webhook-endpoints.js';
import * as engineCommandTraceparent from './migrations/0011-engine-command-traceparent.js';
import * as providerCalls from './migrations/0012-provider-calls.js';
import * as runEventSeq from './migrations/0013-run-event-seq.js';
import * as runCancelRequested from './migrations/0014-run-cancel-requested.js';
import * as tableChanges from './migrations/0015-table-changes.js';
import * as orderClaims from './migrations/0016-order-claims.js';
import * as loginThrottles from './migrations/0017-login-throttles.js';
import * as priorityConcurrency from './migrations/0018-priority-concurrency.js';
import * as providerCapacity from './migrations/0019-provider-capacity.js';
import * as providerJobs from './migrations/0020-provider-jobs.js';
import * as unpricedCalls from './migrations/0021-unpriced-calls.js';
import * as stepFallbacks from './migrations/0022-step-fallbacks.js';
import * as providerBatches from './migrations/0023-provider-batches.js';
import * as idempotencyKeys from './migrations/0024-idempotency-keys.js';
import * as runTags from './migrations/0025-run-tags.js';
import * as runRerunOf from './migrations/0026-run-rerun-of.js';
import * as subworkflowCost from './migrations/0027-subworkflow-cost.js';
import * as artifactsWorkspaceCreated from './migrations/0028-artifacts-workspace-created.js';
import * as stepInputs from './migrations/0029-step-inputs.js';
import * as decideRunCommand from './migrations/0030-decide-run-command.js';

/**
 * Migrations are listed in code (not read from a folder) so that they travel with the package and the
 * order is explicit. kysely runs them in name order, so names are a four-digit sequence number and a few
 * words: add a new one at the end with the next number. Migrations only add to the schema and only run up;
 * a release is never rolled back past one (docs/operations.md, Upgrades and rollbacks).
 */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001-foundation': foundation,
  '0002-engine': engine,
  '0003-orders-budgets': orders,
  '0004-characters-consent': characters,
  '0005-clients': clients,
  '0006-character-ids': characterIds,
  '0007-engine-commands': engineCommands,
  '0008-brands-campaigns': brandsCampaigns,
  '0009-publications': publications,
  '0010-webhook-endpoints': webhookEndpoints,
  '0011-engine-command-traceparent': engineCommandTraceparent,
  '0012-provider-calls': providerCalls,
  '0013-run-event-seq': runEventSeq,
  '0014-run-cancel-requested': runCancelRequested,
  '0015-table-changes': tableChanges,
  '0016-order-claims': orderClaims,
  '0017-login-throttles': loginThrottles,
  '0018-priority-concurrency': priorityConcurrency,
  '0019-provider-capacity': providerCapacity,
  '0020-provider-jobs': providerJobs,
  '0021-unpriced-calls': unpricedCalls,
  '0022-step-fallbacks': stepFallbacks,
  '0023-provider-batches': providerBatches,
  '0024-idempotency-keys': idempotencyKeys,
  '0025-run-tags': runTags,
  '0026-run-rerun-of': runRerunOf,
  '0027-subworkflow-cost': subworkflowCost,
  '0028-artifacts-workspace-created': artifactsWorkspaceCreated,
  '0029-step-inputs': stepInputs,
  '0030-decide-run-command': decideRunCommand,
};

class InCodeMigrations implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return MIGRATIONS;
  }
}

/** The names this release knows, in the order kysely runs them. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS).sort();

/**
 * Carries over former names, refuses a database of a newer release, then migrates: all in one transaction
 * under kysely's lock, so a refusal or a failed migration leaves the database as it was, renames included.
 */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    await takeMigrationLock(trx);
    await carryOverFormerNames(trx);
    await refuseUnknownMigrations(trx, MIGRATION_NAMES);
    const migrator = new Migrator({ db: trx, provider: new InCodeMigrations() });
    const { error, results } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  });
}
