import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Kysely, sql } from 'kysely';
import { type Db, connectDb } from '@atelier/db';
import { countOf, pageOf, pageRows } from '@atelier/db/paging';
import { createTestDatabase } from '../support/harness.js';

/**
 * The list paging helper against real PostgreSQL, on tables of its own in a database cloned from the suite's
 * template: the page comes in the given order (ties broken by the last key), `total` counts every match
 * whatever the page, and the SQL is what the lists wrote by hand before they shared it.
 */
type Tables = {
  paging_items: { id: string; owner: string; created_at: Date; name: string };
  paging_notes: { item_id: string; note: string };
};

let db: Db;
let t: Kysely<Tables>;
const at = (minute: number) => new Date(Date.UTC(2026, 10, 26, 9, minute));

beforeAll(async () => {
  db = connectDb({ url: await createTestDatabase(), max: 2 });
  t = db.withTables<Tables>() as unknown as Kysely<Tables>;
  await sql`create table paging_items (id text primary key, owner text not null, created_at timestamptz not null, name text not null)`.execute(
    db,
  );
  await sql`create table paging_notes (item_id text primary key references paging_items(id), note text not null)`.execute(db);
  // Seven of owner a (three sharing one instant, so only the id orders them), two of owner b.
  const rows = [
    { id: 'a1', owner: 'a', created_at: at(1), name: 'x' },
    { id: 'a4', owner: 'a', created_at: at(2), name: 'y' },
    { id: 'a2', owner: 'a', created_at: at(2), name: 'y' },
    { id: 'a3', owner: 'a', created_at: at(2), name: 'z' },
    { id: 'a5', owner: 'a', created_at: at(3), name: 'x' },
    { id: 'a7', owner: 'a', created_at: at(4), name: 'x' },
    { id: 'a6', owner: 'a', created_at: at(5), name: 'y' },
    { id: 'b1', owner: 'b', created_at: at(1), name: 'x' },
    { id: 'b2', owner: 'b', created_at: at(2), name: 'x' },
  ];
  await t.insertInto('paging_items').values(rows).execute();
  await t
    .insertInto('paging_notes')
    .values(rows.map((r) => ({ item_id: r.id, note: `note ${r.id}` })))
    .execute();
});

afterAll(async () => {
  await db?.destroy();
});

const ofOwnerA = () => t.selectFrom('paging_items').where('owner', '=', 'a');

describe('pageOf', () => {
  it('walks the pages in order, breaking ties by the last key, and counts every match on each', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < 9; offset += 3) {
      const page = await pageOf(t, ofOwnerA(), (qb) => qb.selectAll(), [['created_at', 'desc'], 'id'], { offset, limit: 3 });
      expect(page.total).toBe(7);
      seen.push(...page.items.map((r) => r.id));
    }
    expect(seen).toEqual(['a6', 'a7', 'a5', 'a2', 'a3', 'a4', 'a1']);
  });

  it('gives an empty page past the end, still with the total', async () => {
    const page = await pageOf(t, ofOwnerA(), (qb) => qb.selectAll(), ['id'], { offset: 50, limit: 10 });
    expect(page).toEqual({ items: [], total: 7 });
  });

  it('sorts by several keys in their own directions', async () => {
    const page = await pageOf(t, ofOwnerA(), (qb) => qb.select(['id', 'name']), ['name', ['id', 'desc']], { offset: 0, limit: 10 });
    expect(page.items.map((r) => r.id)).toEqual(['a7', 'a5', 'a1', 'a6', 'a4', 'a2', 'a3']);
  });

  it('sorts by an expression', async () => {
    const flipped = sql<string>`reverse(paging_items.id)`;
    const page = await pageOf(t, ofOwnerA(), (qb) => qb.select(['id', flipped.as('flipped')]), [[flipped, 'desc']], {
      offset: 0,
      limit: 2,
    });
    expect(page.items).toEqual([
      { id: 'a7', flipped: '7a' },
      { id: 'a6', flipped: '6a' },
    ]);
  });

  it('lets the page join for columns while the count reads the filtered rows alone', async () => {
    const base = t.selectFrom('paging_items as i').where('i.owner', '=', 'b');
    const page = await pageOf(
      t,
      base,
      (qb) => qb.innerJoin('paging_notes as n', 'n.item_id', 'i.id').select(['i.id', 'n.note']),
      [['i.id', 'desc']],
      { offset: 0, limit: 1 },
    );
    expect(page).toEqual({ items: [{ id: 'b2', note: 'note b2' }], total: 2 });
    expect(await countOf(base)).toBe(2);
  });

  it('narrows only the page to the rows a seek keeps past a cursor; the total still counts every match', async () => {
    // Past a2 in (created_at desc, id asc): its instant's later ids, then everything older.
    const seek = (qb: ReturnType<typeof ofOwnerA>) =>
      qb.where(sql<boolean>`(created_at < ${at(2)} or (created_at = ${at(2)} and id > 'a2'))`);
    const page = await pageOf(t, ofOwnerA(), (qb) => qb.selectAll(), [['created_at', 'desc'], 'id'], { offset: 0, limit: 3 }, seek);
    expect(page.items.map((r) => r.id)).toEqual(['a3', 'a4', 'a1']);
    expect(page.total).toBe(7);
  });

  it("reads the page and its total in the caller's transaction when given one", async () => {
    const page = await t.transaction().execute(async (tx) => {
      await tx
        .insertInto('paging_items')
        .values({ id: 'a8', owner: 'a', created_at: at(6), name: 'x' })
        .execute();
      return pageOf(tx, tx.selectFrom('paging_items').where('owner', '=', 'a'), (qb) => qb.selectAll(), ['id'], { offset: 7, limit: 5 });
    });
    expect(page.items.map((r) => r.id)).toEqual(['a8']);
    expect(page.total).toBe(8);
    await t.deleteFrom('paging_items').where('id', '=', 'a8').execute();
  });

  it('writes the same SQL as a list written by hand', () => {
    const page = { offset: 20, limit: 10 };
    const helper = pageRows(ofOwnerA(), (qb) => qb.selectAll(), [['created_at', 'desc'], 'id'], page).compile();
    const byHand = ofOwnerA().selectAll().orderBy('created_at', 'desc').orderBy('id').offset(page.offset).limit(page.limit).compile();
    expect(helper.sql).toBe(byHand.sql);
    expect(helper.parameters).toEqual(byHand.parameters);
    expect(helper.sql).toBe('select * from "paging_items" where "owner" = $1 order by "created_at" desc, "id" limit $2 offset $3');
  });
});
