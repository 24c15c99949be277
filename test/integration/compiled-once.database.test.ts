import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { type Db, type Executor, connectDb } from '@atelier/db';
import { compiledOnce } from '@atelier/db/compiled-once';
import { createTestDatabase } from '../support/harness';

/**
 * Statements compiled once per process (db/compiled-once.ts) against real PostgreSQL: each call binds its
 * own arguments, in a builder's text and in an `sql` template's, inside a transaction too; and a statement
 * whose text would hold an argument is refused when first compiled, instead of running wrong.
 */
let db: Db;

beforeAll(async () => {
  db = connectDb({ url: await createTestDatabase(), max: 2 });
  await sql`CREATE TABLE compiled_once (id int PRIMARY KEY, label text, tags text[])`.execute(db);
  await sql`INSERT INTO compiled_once VALUES (1, 'one', '{a}'), (2, 'two', '{a,b}'), (3, 'three', '{b}')`.execute(db);
});
afterAll(async () => {
  await db?.destroy();
});

type Row = { id: number; label: string };

const byLabelOrId = compiledOnce((ex: Executor, label: string, id: number) =>
  ex
    .selectFrom('compiled_once' as 'runs')
    .select(['id' as 'event_seq', 'label' as 'status'])
    .where((w) => w.or([w('label' as 'status', '=', label), w('id' as 'event_seq', '=', id)]))
    .orderBy('id' as 'event_seq'),
);

const relabel = compiledOnce(
  (_ex: Executor, ids: number[], label: string) =>
    sql<Row>`UPDATE compiled_once SET label = ${label} || '-' || ${label} WHERE id = ANY(${ids}::int[]) RETURNING id, label`,
);

describe('compiledOnce', () => {
  it('binds each call’s arguments into the one compiled text', async () => {
    const first = await byLabelOrId(db, 'one', 3);
    const second = await byLabelOrId(db, 'two', 2);
    // The table is not in the schema's types, so its columns are named as if they were runs'.
    expect(first.rows as unknown[]).toEqual([
      { id: 1, label: 'one' },
      { id: 3, label: 'three' },
    ]);
    expect(second.rows as unknown[]).toEqual([{ id: 2, label: 'two' }]);
  });

  it('runs an sql template with an argument used twice and an array, inside a transaction', async () => {
    const rows = await db.transaction().execute(async (tx) => {
      const { rows } = await relabel(tx, [1, 2], 'x');
      return rows;
    });
    expect(rows.sort((a, b) => a.id - b.id)).toEqual([
      { id: 1, label: 'x-x' },
      { id: 2, label: 'x-x' },
    ]);
    expect((await relabel(db, [3], 'y')).rows).toEqual([{ id: 3, label: 'y-y' }]);
  });

  it('refuses an argument that goes into the text instead of a bound value, when first compiled', async () => {
    const ordered = compiledOnce(
      (_ex: Executor, direction: string) => sql<Row>`SELECT id, label FROM compiled_once ORDER BY id ${sql.raw(String(direction))}`,
    );
    await expect(ordered(db, 'desc')).rejects.toThrow(/argument 1 is not one bound value/);
  });
});
