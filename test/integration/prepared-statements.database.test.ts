import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { type Db, classifyDbError, connectDb } from '@atelier/db';
import { type Harness, startHarness } from '../support/harness';

/**
 * Statements prepared per connection against real PostgreSQL (db/prepared-statements.ts): what is
 * prepared, and what happens to a prepared `SELECT *` when a migration changes the table under it.
 */
let h: Harness;
const opened: Db[] = [];

/** A pool of one connection, so every query (and pg_prepared_statements) is on the same session. */
function oneConnection(prepareStatements?: boolean): Db {
  const db = connectDb({ url: h.databaseUrl, max: 1, ...(prepareStatements === undefined ? {} : { prepareStatements }) });
  opened.push(db);
  return db;
}

const preparedOn = async (db: Db, table: string) =>
  (await sql<{ name: string; statement: string }>`SELECT name, statement FROM pg_prepared_statements`.execute(db)).rows.filter((r) =>
    r.statement.includes(table),
  );

async function tableOf(db: Db, name: string): Promise<void> {
  await sql`CREATE TABLE ${sql.table(name)} (id int PRIMARY KEY, label text)`.execute(db);
  await sql`INSERT INTO ${sql.table(name)} VALUES (1, 'one')`.execute(db);
}

const rowOne = (db: Db, table: string) =>
  db
    .selectFrom(table as 'runs')
    .selectAll()
    .where('id', '=', 1 as unknown as string)
    .executeTakeFirst() as Promise<Record<string, unknown> | undefined>;

beforeAll(async () => {
  h = await startHarness({ worker: false });
});
afterAll(async () => {
  await Promise.all(opened.map((db) => db.destroy()));
  await h?.stop();
});

describe('prepared statements', () => {
  it('are made for a statement run again, not for one seen once, and serve its later calls', async () => {
    const db = oneConnection();
    await tableOf(db, 'prep_again');
    expect(await rowOne(db, 'prep_again')).toEqual({ id: 1, label: 'one' });
    expect(await preparedOn(db, 'prep_again')).toEqual([]);
    await rowOne(db, 'prep_again');
    await rowOne(db, 'prep_again');
    const prepared = await preparedOn(db, 'prep_again');
    expect(prepared).toHaveLength(1);
    expect(prepared[0]!.statement).toMatch(/^select \* from "prep_again" where "id" = \$1$/);
  });

  it('are prepared again when a migration changes what a SELECT * returns, outside a transaction at once', async () => {
    const db = oneConnection();
    await tableOf(db, 'prep_migrated');
    await rowOne(db, 'prep_migrated');
    await rowOne(db, 'prep_migrated');
    const [before] = await preparedOn(db, 'prep_migrated');
    await sql`ALTER TABLE prep_migrated ADD COLUMN note text DEFAULT 'new'`.execute(h.db);

    expect(await rowOne(db, 'prep_migrated')).toEqual({ id: 1, label: 'one', note: 'new' });
    expect(await rowOne(db, 'prep_migrated')).toEqual({ id: 1, label: 'one', note: 'new' });
    const after = (await preparedOn(db, 'prep_migrated')).map((p) => p.name);
    expect(after).toContain(before!.name);
    expect(after).toHaveLength(2);

    // Inside a transaction the refusal aborts it: it stands (answered as the database being briefly
    // unavailable), and the next attempt works.
    await sql`ALTER TABLE prep_migrated ADD COLUMN extra int DEFAULT 7`.execute(h.db);
    const refused = await db
      .transaction()
      .execute((tx) => rowOne(tx as unknown as Db, 'prep_migrated'))
      .catch((err: Error) => err);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toMatch(/cached plan must not change result type/);
    expect(classifyDbError(refused)).toBe('unavailable');
    expect(await db.transaction().execute((tx) => rowOne(tx as unknown as Db, 'prep_migrated'))).toEqual({
      id: 1,
      label: 'one',
      note: 'new',
      extra: 7,
    });
  });

  it('are not made when turned off', async () => {
    const db = oneConnection(false);
    await tableOf(db, 'prep_off');
    for (let i = 0; i < 3; i++) await rowOne(db, 'prep_off');
    expect(await preparedOn(db, 'prep_off')).toEqual([]);
  });
});
