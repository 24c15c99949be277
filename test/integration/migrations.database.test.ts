import { afterAll, describe, expect, inject, it } from 'vitest';
import { sql } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import {
  DatabaseFromNewerReleaseError,
  type Db,
  FORMER_MIGRATION_NAMES,
  MIGRATIONS,
  MIGRATION_NAMES,
  connectDb,
  migrateToLatest,
} from '@atelier/db';

/**
 * Schema migrations against real PostgreSQL, each case on an empty database of its own (not the suite's
 * migrated template): a fresh database, one migrated by a release from before the migrations were
 * renumbered, and one migrated by a newer release than this one.
 */
const opened: Db[] = [];
const created: string[] = [];

async function emptyDatabase(): Promise<string> {
  const name = `atelier_migrations_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  created.push(name);
  const url = new URL(inject('pgAdminUrl'));
  url.pathname = `/${name}`;
  return url.toString();
}

function open(url: string): Db {
  const db = connectDb({ url, max: 2 });
  opened.push(db);
  return db;
}

afterAll(async () => {
  for (const db of opened) await db.destroy().catch(() => undefined);
  const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await admin.connect();
  for (const name of created) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
  await admin.end();
});

/** Migrates as a release from before the renumbering did: the same migrations, under their former names. */
async function migrateAsFormerRelease(db: Db, count: number): Promise<void> {
  const former: Record<string, Migration> = {};
  for (const [old, current] of Object.entries(FORMER_MIGRATION_NAMES).sort().slice(0, count))
    former[old] = MIGRATIONS[current] as Migration;
  const provider: MigrationProvider = { getMigrations: async () => former };
  const { error } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) throw error;
}

const recorded = async (db: Db) =>
  (await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration order by timestamp, name`.execute(db)).rows;

const tableExists = async (db: Db, table: string) =>
  (await sql<{ found: string | null }>`select to_regclass(${table}) as found`.execute(db)).rows[0]?.found != null;

describe('migration names', () => {
  it('are a sequence in the order kysely runs them, and each former name maps onto its place in it', () => {
    expect(Object.keys(MIGRATIONS)).toEqual(MIGRATION_NAMES);
    expect(MIGRATION_NAMES.map((name) => name.slice(0, 5))).toEqual(MIGRATION_NAMES.map((_, i) => `${String(i + 1).padStart(4, '0')}-`));
    for (const name of MIGRATION_NAMES) expect(name).toMatch(/^\d{4}-[a-z0-9-]+$/);
    // Renamed rows keep their places: kysely checks executed migrations against the known ones in name order.
    const formerInOrder = Object.keys(FORMER_MIGRATION_NAMES).sort();
    expect(formerInOrder.map((old) => FORMER_MIGRATION_NAMES[old])).toEqual(MIGRATION_NAMES.slice(0, formerInOrder.length));
  });
});

describe('migrating', () => {
  it('runs every migration on a fresh database, under the new names and in their order', async () => {
    const db = open(await emptyDatabase());
    expect(await migrateToLatest(db)).toEqual(MIGRATION_NAMES);
    expect((await recorded(db)).map((r) => r.name)).toEqual(MIGRATION_NAMES);
    expect(await migrateToLatest(db)).toEqual([]);
  });

  it('carries a database of a release from before the renumbering over to the new names, and runs only what it had not run', async () => {
    const db = open(await emptyDatabase());
    await migrateAsFormerRelease(db, 20);
    const before = await recorded(db);
    expect(before.map((r) => r.name)).toEqual(Object.keys(FORMER_MIGRATION_NAMES).sort().slice(0, 20));
    expect(await tableExists(db, 'provider_batches')).toBe(false);

    expect(await migrateToLatest(db)).toEqual(MIGRATION_NAMES.slice(20));
    const after = await recorded(db);
    expect(after.map((r) => r.name)).toEqual(MIGRATION_NAMES);
    // The renamed rows are the same rows: when they ran is kept.
    expect(after.slice(0, 20).map((r) => r.timestamp)).toEqual(before.map((r) => r.timestamp));
    expect(await tableExists(db, 'provider_batches')).toBe(true);
    expect(await migrateToLatest(db)).toEqual([]);
  });

  it('carries over once when processes of the new release start together on a database of the old names', async () => {
    const url = await emptyDatabase();
    const db = open(url);
    await migrateAsFormerRelease(db, Object.keys(FORMER_MIGRATION_NAMES).length);
    const [a, b] = await Promise.all([migrateToLatest(open(url)), migrateToLatest(open(url))]);
    expect([...a, ...b]).toEqual(MIGRATION_NAMES.slice(Object.keys(FORMER_MIGRATION_NAMES).length));
    expect((await recorded(db)).map((r) => r.name)).toEqual(MIGRATION_NAMES);
  });

  it('refuses a database migrated by a newer release, saying so plainly, and changes nothing', async () => {
    const db = open(await emptyDatabase());
    await migrateAsFormerRelease(db, 20);
    // A newer release recorded migrations this one does not know (the future ones are numbered, not renamed).
    await sql`insert into kysely_migration (name, timestamp) values ('9998-from-a-newer-release', ${new Date().toISOString()}), ('9999-and-another', ${new Date(Date.now() + 1).toISOString()})`.execute(
      db,
    );
    const before = await recorded(db);

    const refusal = await migrateToLatest(db).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refusal).toBeInstanceOf(DatabaseFromNewerReleaseError);
    const message = (refusal as Error).message;
    expect(message).toContain('This database was migrated by a newer Atelier release');
    expect(message).toContain('migrations this release does not know (9998-from-a-newer-release, 9999-and-another)');
    expect(message).toContain('Run the newer release instead, or restore the database backup taken before upgrading');
    expect(message).not.toMatch(/corrupted migrations|is missing/);
    expect((refusal as DatabaseFromNewerReleaseError).unknownMigrations).toEqual(['9998-from-a-newer-release', '9999-and-another']);

    // Not even the renames of the former names stay, and nothing pending ran.
    expect(await recorded(db)).toEqual(before);
    expect(await tableExists(db, 'provider_batches')).toBe(false);
  });
});
