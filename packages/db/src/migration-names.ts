import { type Kysely, sql } from 'kysely';

/**
 * Migrations were first named by timestamps, some of them days ahead of when they were written, so the
 * names said nothing true about order. They are now numbered (`0001-foundation`, …). Databases migrated
 * before the renumbering (developers' `npm start` data, production) record the old names in
 * `kysely_migration`; kysely would take those for migrations missing from the code and refuse to start.
 * Before migrating, their rows are renamed old → new, so such a database neither re-runs a migration nor
 * reports one missing.
 *
 * Keep this map for good: a database that has not been opened by a release since the renumbering may be
 * upgraded by any later release, and only this map tells it apart from a database of a newer release.
 * Every new name sorts where its old one did, so kysely's order check (executed migrations, ordered by
 * when they ran, must be the first of the known ones in name order) still holds after the rename. Never
 * name a new migration with one of the old names.
 */
export const FORMER_MIGRATION_NAMES: Readonly<Record<string, string>> = {
  '2026-11-22T1000-foundation': '0001-foundation',
  '2026-11-22T1100-engine': '0002-engine',
  '2026-11-22T1200-orders-budgets': '0003-orders-budgets',
  '2026-11-22T1310-characters-consent': '0004-characters-consent',
  '2026-11-22T1320-clients': '0005-clients',
  '2026-11-23T0900-character-ids': '0006-character-ids',
  '2026-11-23T0910-engine-commands': '0007-engine-commands',
  '2026-11-23T1000-brands-campaigns': '0008-brands-campaigns',
  '2026-11-23T1100-publications': '0009-publications',
  '2026-11-24T0900-webhook-endpoints': '0010-webhook-endpoints',
  '2026-11-24T1000-engine-command-traceparent': '0011-engine-command-traceparent',
  '2026-11-24T1100-provider-calls': '0012-provider-calls',
  '2026-11-25T0900-run-event-seq': '0013-run-event-seq',
  '2026-11-26T0900-run-cancel-requested': '0014-run-cancel-requested',
  '2026-11-27T0900-table-changes': '0015-table-changes',
  '2026-11-28T0900-order-claims': '0016-order-claims',
  '2026-11-29T0900-login-throttles': '0017-login-throttles',
  '2026-11-30T0900-priority-concurrency': '0018-priority-concurrency',
  '2026-11-30T1000-provider-capacity': '0019-provider-capacity',
  '2026-12-01T0900-provider-jobs': '0020-provider-jobs',
  '2026-12-01T1000-unpriced-calls': '0021-unpriced-calls',
  '2026-12-01T1100-step-fallbacks': '0022-step-fallbacks',
  '2026-12-01T1200-provider-batches': '0023-provider-batches',
};

// kysely's table of executed migrations (its default name, which migrate.ts keeps).
const MIGRATION_TABLE = 'kysely_migration';

/**
 * The advisory lock kysely's PostgreSQL adapter takes while it migrates (not exported by kysely). Holding
 * the same key across the rename, the check and kysely's run means a process of another release that is
 * migrating at the same moment finishes first, and is seen, instead of writing old names in between.
 */
export const KYSELY_MIGRATION_LOCK_ID = '3853314791062309107';

export async function takeMigrationLock(trx: Kysely<any>): Promise<void> {
  await sql`select pg_advisory_xact_lock(${KYSELY_MIGRATION_LOCK_ID}::bigint)`.execute(trx);
}

async function recordedMigrations(trx: Kysely<any>): Promise<string[] | undefined> {
  const { rows } = await sql<{ found: string | null }>`select to_regclass(${MIGRATION_TABLE}) as found`.execute(trx);
  if (!rows[0]?.found) return undefined;
  const recorded = await trx.selectFrom(MIGRATION_TABLE).select('name').execute();
  return recorded.map((r) => r.name as string);
}

/** Renames recorded migrations from their former names; a database already carried over is left as it is. */
export async function carryOverFormerNames(trx: Kysely<any>): Promise<string[]> {
  const recorded = await recordedMigrations(trx);
  const former = (recorded ?? []).filter((name) => Object.hasOwn(FORMER_MIGRATION_NAMES, name));
  for (const name of former) {
    await trx.updateTable(MIGRATION_TABLE).set({ name: FORMER_MIGRATION_NAMES[name] }).where('name', '=', name).execute();
  }
  return former;
}

/**
 * A database that has migrations this release does not know was migrated by a newer release. This
 * release cannot undo them and its code does not expect the schema they made, so it stops here, in
 * words an operator can act on, rather than with kysely's "previously executed migration … is missing".
 */
export class DatabaseFromNewerReleaseError extends Error {
  constructor(readonly unknownMigrations: string[]) {
    super(
      `This database was migrated by a newer Atelier release: it records migrations this release does not know (${unknownMigrations.join(', ')}). ` +
        'Atelier does not migrate a database back, so this release will not run on it. ' +
        'Run the newer release instead, or restore the database backup taken before upgrading and run this release on that ' +
        '(docs/operations.md, Upgrades and rollbacks).',
    );
    this.name = 'DatabaseFromNewerReleaseError';
  }
}

export async function refuseUnknownMigrations(trx: Kysely<any>, known: readonly string[]): Promise<void> {
  const knownNames = new Set(known);
  const unknown = ((await recordedMigrations(trx)) ?? []).filter((name) => !knownNames.has(name)).sort();
  if (unknown.length) throw new DatabaseFromNewerReleaseError(unknown);
}
