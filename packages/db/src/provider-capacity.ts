import { sql } from 'kysely';
import type { Db } from './connect.js';

/**
 * The bookkeeping of provider capacity shared by every worker (the rules are the engine's:
 * packages/engine/src/providers/provider-limits.ts). Times are the database's, so every worker reads one clock.
 */

/** Creates what a limited key needs: its rate row, and `concurrency` permits when it has a concurrency limit. */
export async function ensureProviderCapacity(db: Db, key: string, concurrency?: number): Promise<void> {
  await sql`INSERT INTO provider_capacity (key) VALUES (${key}) ON CONFLICT (key) DO NOTHING`.execute(db);
  if (concurrency)
    await sql`
      INSERT INTO provider_capacity_leases (key, slot)
      SELECT ${key}, generate_series(0, ${concurrency}::integer - 1)
      ON CONFLICT (key, slot) DO NOTHING`.execute(db);
}

/**
 * Reserves the start of one call under every key at once, in one statement: the keys' rows are locked (in
 * key order, so two calls never wait on each other crosswise), the slot is the latest of now and each key's
 * `next_at`, and each key's `next_at` moves one spacing past the slot. Answers how long to wait for the slot
 * (0 or more). Concurrent callers queue on the row lock and get consecutive slots; nobody polls.
 */
export async function reserveProviderSlot(db: Db, keys: Array<{ key: string; spacingMs: number }>): Promise<{ waitMs: number }> {
  const names = keys.map((k) => k.key);
  const { rows } = await sql<{ wait_ms: number }>`
    WITH locked AS (
      SELECT key, next_at FROM provider_capacity WHERE key = ANY(${names}::text[]) ORDER BY key FOR UPDATE
    ), slot AS (
      SELECT greatest(max(next_at), clock_timestamp()) AS at, clock_timestamp() AS now FROM locked
    ), spacing AS (
      SELECT * FROM unnest(${names}::text[], ${keys.map((k) => k.spacingMs)}::float8[]) AS s(key, ms)
    )
    UPDATE provider_capacity c
    SET next_at = slot.at + make_interval(secs => spacing.ms / 1000.0)
    FROM slot, spacing
    WHERE c.key = spacing.key
    RETURNING (extract(epoch FROM slot.at - slot.now) * 1000)::float8 AS wait_ms`.execute(db);
  if (rows.length !== keys.length) throw new Error(`provider capacity rows missing for ${names.join(', ')}`);
  return { waitMs: Math.max(0, rows[0]?.wait_ms ?? 0) };
}

/** How far ahead (ms, 0 or more) the latest next start of `keys` lies now. */
export async function providerRateAhead(db: Db, keys: string[]): Promise<number> {
  const { rows } = await sql<{ ahead_ms: number | null }>`
    SELECT (extract(epoch FROM max(next_at) - clock_timestamp()) * 1000)::float8 AS ahead_ms
    FROM provider_capacity WHERE key = ANY(${keys}::text[])`.execute(db);
  return Math.max(0, rows[0]?.ahead_ms ?? 0);
}

/**
 * Charges keys' rates for work done beyond what a call reserved (tokens its answer used beyond the
 * estimate): each key's next start moves `ms` later, counted from now when the key is idle.
 */
export async function chargeProviderRate(db: Db, keys: Array<{ key: string; ms: number }>): Promise<void> {
  if (keys.length === 0) return;
  await sql`
    UPDATE provider_capacity c
    SET next_at = greatest(c.next_at, clock_timestamp()) + make_interval(secs => charge.ms / 1000.0)
    FROM unnest(${keys.map((k) => k.key)}::text[], ${keys.map((k) => k.ms)}::float8[]) AS charge(key, ms)
    WHERE c.key = charge.key`.execute(db);
}

/**
 * Takes one of `key`'s first `limit` concurrency permits that nobody holds (never taken, released, or lapsed
 * because its holder stopped renewing it) for `holder`, until `leaseMs` from now. Answers the permit's
 * number, or undefined when all are held. Permits other callers are taking right now are skipped, not waited on.
 */
export async function acquireProviderLease(
  db: Db,
  lease: { key: string; limit: number; holder: string; leaseMs: number },
): Promise<number | undefined> {
  const { rows } = await sql<{ slot: number }>`
    UPDATE provider_capacity_leases
    SET holder = ${lease.holder}, expires_at = clock_timestamp() + make_interval(secs => ${lease.leaseMs / 1000})
    WHERE (key, slot) = (
      SELECT key, slot FROM provider_capacity_leases
      WHERE key = ${lease.key} AND slot < ${lease.limit} AND expires_at <= clock_timestamp()
      ORDER BY slot LIMIT 1 FOR UPDATE SKIP LOCKED
    )
    RETURNING slot`.execute(db);
  return rows[0]?.slot;
}

/** Extends a held permit; false when it lapsed and someone else took it. */
export async function renewProviderLease(db: Db, lease: { key: string; slot: number; holder: string; leaseMs: number }): Promise<boolean> {
  const result = await db
    .updateTable('provider_capacity_leases')
    .set({ expires_at: sql<Date>`clock_timestamp() + make_interval(secs => ${lease.leaseMs / 1000})` })
    .where('key', '=', lease.key)
    .where('slot', '=', lease.slot)
    .where('holder', '=', lease.holder)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives a permit back (a no-op when it had lapsed and someone else holds it now). */
export async function releaseProviderLease(db: Db, lease: { key: string; slot: number; holder: string }): Promise<void> {
  await db
    .updateTable('provider_capacity_leases')
    .set({ holder: null, expires_at: sql<Date>`'-infinity'::timestamptz` })
    .where('key', '=', lease.key)
    .where('slot', '=', lease.slot)
    .where('holder', '=', lease.holder)
    .execute();
}
