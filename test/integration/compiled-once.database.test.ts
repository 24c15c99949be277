import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { type Db, type Executor, connectDb } from '@atelier/db';
import { compiledOnce, compiledPerShape } from '@atelier/db/compiled-once';
import { createTestDatabase } from '../support/harness';

/**
 * Statements compiled once per process (db/compiled-once.ts) against real PostgreSQL: each call binds its
 * own arguments, in a builder's text and in an `sql` template's, inside a transaction too; and a statement
 * whose text would hold an argument is refused when first compiled, instead of running wrong. Statements
 * compiled per shape: each shape (which values are given, null, true or false) gets its own text.
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

type Labelled = { id: number; label: string | null; tags: string[] | null };

const insertLabelled = compiledPerShape(
  (_ex: Executor, row: { id: number; label?: string | null; tags?: string[] }, onlyIf: { label?: string; exists: boolean } | undefined) => {
    const columns = Object.keys(row).filter((k) => row[k as keyof typeof row] !== undefined);
    const values = sql.join(columns.map((k) => row[k as keyof typeof row]));
    const labelled = onlyIf?.label === undefined ? sql`label IS NULL` : sql`label = ${onlyIf.label}`;
    const found = sql`EXISTS (SELECT 1 FROM compiled_once WHERE ${labelled})`;
    const condition = !onlyIf ? sql`true` : onlyIf.exists ? found : sql`NOT ${found}`;
    return sql<Labelled>`INSERT INTO compiled_once (${sql.join(columns.map((c) => sql.ref(c)))})
      SELECT ${values} WHERE ${condition} RETURNING id, label, tags`;
  },
);

describe('compiledPerShape', () => {
  it('compiles each shape of its arguments once and binds each call’s values', async () => {
    expect((await insertLabelled(db, { id: 10, label: 'ten' }, undefined)).rows).toEqual([{ id: 10, label: 'ten', tags: null }]);
    expect((await insertLabelled(db, { id: 11, label: 'eleven', tags: ['c', 'd'] }, undefined)).rows).toEqual([
      { id: 11, label: 'eleven', tags: ['c', 'd'] },
    ]);
    // The first shape again, with other values; then a column left out, and a null.
    expect((await insertLabelled(db, { id: 12, label: 'twelve' }, undefined)).rows).toEqual([{ id: 12, label: 'twelve', tags: null }]);
    expect((await insertLabelled(db, { id: 13, label: undefined, tags: ['e'] }, undefined)).rows).toEqual([
      { id: 13, label: null, tags: ['e'] },
    ]);
    expect((await insertLabelled(db, { id: 14, label: null }, undefined)).rows).toEqual([{ id: 14, label: null, tags: null }]);
  });

  it('takes an absent value, a given one and each boolean as shapes of their own, so a condition built on them holds as written', async () => {
    expect((await insertLabelled(db, { id: 20, label: 'x' }, { label: 'no such label', exists: true })).rows).toEqual([]);
    expect((await insertLabelled(db, { id: 21, label: 'y' }, { label: 'ten', exists: true })).rows).toEqual([
      { id: 21, label: 'y', tags: null },
    ]);
    expect((await insertLabelled(db, { id: 22, label: 'z' }, { label: 'ten', exists: false })).rows).toEqual([]);
    expect((await insertLabelled(db, { id: 23, label: 'w' }, { label: 'no such label', exists: false })).rows).toEqual([
      { id: 23, label: 'w', tags: null },
    ]);
    // Without a label, the condition is the other branch; a null is a value, bound as such.
    expect((await insertLabelled(db, { id: 24, label: null }, { exists: true })).rows).toEqual([{ id: 24, label: null, tags: null }]);
  });

  it('refuses a kysely expression as an argument, and a value the text holds instead of binding', async () => {
    await expect(insertLabelled(db, { id: 30, label: sql`'x'` as unknown as string }, undefined)).rejects.toThrow(/kysely expression/);
    const ordered = compiledPerShape(
      (_ex: Executor, order: { direction: string }) =>
        sql<Row>`SELECT id, label FROM compiled_once ORDER BY id ${sql.raw(String(order.direction))}`,
    );
    await expect(ordered(db, { direction: 'desc' })).rejects.toThrow(/argument 1's direction is not one bound value/);
  });
});
